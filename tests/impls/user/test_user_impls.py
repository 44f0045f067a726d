"""A user's own implementation, audited without an adapter class:
``--impl python:...``, ``--impl cmd:...`` and the ``metricdiff.adapters`` entry
point (``metricdiff.impls.user``, ``metricdiff.findings.infer``).

The implementations are the small ones in ``tests/example_impls/``, written for
these tests; each module's docstring states its conventions, which is where the
expected (inferred) profiles below come from:

* ``my_bleu.py``: ``lowercase=unicode``, ``smoothing=add-k`` (k = 1) on every order
  (``smooth_orders=all``), the paper's profile otherwise; it reports no
  precisions and no brevity penalty.
* ``my_rouge.py``: ROUGE-N with ``lowercase=unicode`` and ``multi_ref=best-f``;
  it reports R, P and F only.
* ``multi_bleu_like.py``: multi-bleu.perl's output format, the paper's profile
  (``-lc``: ``lowercase=unicode``); two decimals.
* ``flaky_scorer.py``: exits 3 on ``CRASH``, prints no number on ``GARBAGE``.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

import metricdiff.impls as adapters
from helpers import TESTS, run
from metricdiff.comparison.stages import first_difference
from metricdiff.errors import BadSpec, MetricdiffWarning
from metricdiff.impls import adapter_names, get_adapter
from metricdiff.impls.base import Tolerance
from metricdiff.impls.user import parse_command, read_score, result_from_fields
from metricdiff.scoring.validate import validate
from metricdiff.statistics import BleuResult

EXAMPLES = TESTS / "example_impls"
MY_BLEU = f"python:{EXAMPLES / 'my_bleu.py'}:bleu"
MY_ROUGE = f"python:{EXAMPLES / 'my_rouge.py'}:rouge_n"
PYTHON = shlex.quote(sys.executable)
MULTI_BLEU = f"cmd:{PYTHON} {EXAMPLES / 'multi_bleu_like.py'} {{refs}} < {{hyp}}"
MULTI_BLEU_LC = f"cmd:{PYTHON} {EXAMPLES / 'multi_bleu_like.py'} -lc {{refs}} < {{hyp}}"
FLAKY = f"cmd:{PYTHON} {EXAMPLES / 'flaky_scorer.py'} {{hyp}} {{ref}}"

#: Case and punctuation differences (pinning lowercase and tokenize), no 4-gram
#: match in lines 1 and 2 (so smoothing shows), a non-ASCII capital (unicode vs
#: ascii), and a line with 4-gram matches (so the corpus BLEU is not 0).
HYPS = ["The cat sat on the mat.", "Élan is a word , they said",
        "it is a guide to action that ensures that the military obeys"]
REFS = ["the cat is on the mat.", "élan is a Word, they said",
        "It is a guide to action which ensures that the military always obeys"]
#: A second reference per line, for ROUGE's multi-reference rule.
REFS_2 = ["a cat was on a mat", "it is a word, said they", "the military obeys"]


def write(directory: Path, name: str, lines: Sequence[str]) -> str:
    path = directory / name
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def inputs(directory: Path, *refs: Sequence[str]) -> list[str]:
    argv = ["--hyp", write(directory, "hyp.txt", HYPS)]
    for number, lines in enumerate(refs or (REFS,)):
        argv += ["--ref", write(directory, f"ref{number}.txt", lines)]
    return argv


def score_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    status, out, err = run(capsys, "score", "--format", "json", *argv)
    assert status == 0, err
    document: dict[str, object] = json.loads(out)
    return document


def corpus_score(document: dict[str, object]) -> float:
    corpus = document["corpus"]
    assert isinstance(corpus, dict)
    return float(corpus["score"])


# ------------------------------------------------------------------- score


def test_python_function_scores_like_the_reference_configured_as_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = score_json(capsys, "--impl", MY_BLEU, *inputs(tmp_path))
    same = ["-o", "lowercase=unicode", "-o", "smoothing=add-k", "-o", "smooth_orders=all"]
    reference = score_json(capsys, "--impl", "reference", *same, *inputs(tmp_path))
    assert corpus_score(mine) == pytest.approx(corpus_score(reference), rel=1e-12)
    corpus = mine["corpus"]
    assert isinstance(corpus, dict)
    # Not reported by my_bleu: null, never 0.
    assert corpus["precisions"] is None and corpus["bp"] is None
    assert corpus["counts"] == reference["corpus"]["counts"]  # type: ignore[index]
    # No -o: the profile is unknown, not the paper's.
    assert mine["options"] is None
    assert str(mine["signature"]).endswith("|profile:unknown")


def test_declared_profile_is_the_signature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "score", "--impl", MY_BLEU, "-o", "lowercase=unicode",
                         "--sentences", *inputs(tmp_path))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("1\tBLEU = ") and "(not reported: precisions, bp)" in lines[0]
    assert "|lc:unicode|" in lines[-1] and "profile:unknown" not in lines[-1]


def test_command_score_is_read_from_its_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = score_json(capsys, "--impl", MULTI_BLEU, *inputs(tmp_path))
    reference = score_json(capsys, "--impl", "reference", *inputs(tmp_path))
    # multi_bleu_like prints two decimals of the paper's BLEU.
    assert corpus_score(mine) == round(corpus_score(reference), 2)
    assert corpus_score(mine) > 0


def test_command_that_fails_is_one_line_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--hyp", write(tmp_path, "h.txt", ["CRASH here"]), "--ref",
            write(tmp_path, "r.txt", ["fine"])]
    status, _, err = run(capsys, "score", "--impl", FLAKY, *argv)
    assert status == 1
    assert err.count("\n") == 1 and "exit status 3: flaky_scorer: cannot cope" in err


def test_python_function_that_raises_is_one_line_without_a_placeholder_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = inputs(tmp_path)
    body = "def boom(hypotheses, references, metric):\n    return 1 / 0\n"
    (tmp_path / "boom.py").write_text(body, encoding="utf-8")
    (tmp_path / "boom_v.py").write_text(f'__version__ = "1.2"\n{body}', encoding="utf-8")
    status, _, err = run(capsys, "score", "--impl", f"python:{tmp_path / 'boom.py'}:boom", *argv)
    assert status == 1
    # `local` is metricdiff's placeholder for "no version": not shown.
    assert err == (f"metricdiff: error: python:{tmp_path / 'boom.py'}:boom failed on "
                   f"{argv[1]}: ZeroDivisionError: division by zero\n")
    # A version the module states is shown, as a library's is.
    status, _, err = run(capsys, "score", "--impl", f"python:{tmp_path / 'boom_v.py'}:boom",
                         *argv)
    assert status == 1 and f"boom_v.py:boom 1.2 failed on {argv[1]}: " in err


@pytest.mark.parametrize(
    ("impl", "message"),
    [
        ("python:no_colon_here", "expected python:MODULE:FUNCTION"),
        ("python:metricdiff_no_such_module_xyz:bleu", "cannot load it"),
        (f"python:{EXAMPLES / 'my_bleu.py'}:no_such_function", "has no attribute"),
        (f"python:{EXAMPLES / 'my_bleu.py'}:not-a-name", "is not a function name"),
        ("cmd:prog {hyp} {reference}", "unknown placeholder {reference}"),
        ("cmd:prog {hyp}", "needs {ref} or {refs}"),
        ("cmd:prog {hyp} {ref} #colour=red", "unknown option"),
        ("cmd:metricdiff-no-such-program-xyz {hyp} {ref}", "not found"),
    ],
)
def test_bad_spec_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], impl: str, message: str
) -> None:
    for command in (["score"], ["audit", "--metric", "bleu", "--no-minimise"]):
        status, _, err = run(capsys, *command, "--impl", impl, *inputs(tmp_path))
        assert status == 2, (command, err)
        assert err.startswith("metricdiff: error: ") and err.count("\n") == 1, err
        assert message in err


def test_audit_refuses_what_it_cannot_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # -o with nothing to declare; a command without --metric (which one is it?).
    status, _, err = run(capsys, "audit", "--impl", "reference", "-o", "lowercase=unicode",
                         *inputs(tmp_path))
    assert status == 2 and "-o declares" in err
    status, _, err = run(capsys, "audit", "--impl", MULTI_BLEU, *inputs(tmp_path))
    assert status == 2 and err == (
        f"metricdiff: error: {MULTI_BLEU}: give --metric (the command does not say which "
        "metrics it implements)\n")


@pytest.mark.slow
def test_audit_without_metric_runs_a_function_on_the_metrics_it_declares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # my_bleu.py declares metrics = ("bleu",): without --metric it is audited on
    # BLEU alone, and the audit is of BLEU alone when it is the only one named.
    status, out, err = run(capsys, "audit", "--impl", MY_BLEU, "--no-minimise",
                           "--no-fixtures", *inputs(tmp_path))
    assert status == 0, err
    assert [line for line in out.splitlines() if line.startswith("==")] == [f"== bleu: {MY_BLEU}"]
    assert out.splitlines()[-1].startswith("audit: 1 metric, 4 cases")
    # Named beside the reference, which computes every metric: BLEU with both, the
    # others with the reference alone.
    status, out, err = run(capsys, "audit", "--impl", "reference", "--impl", MY_BLEU,
                           "--no-minimise", *inputs(tmp_path))
    assert status == 0, err
    headers = [line for line in out.splitlines() if line.startswith("==")]
    assert headers[0] == f"== bleu: reference, {MY_BLEU}"
    assert len(headers) == 8 and not any(MY_BLEU in line for line in headers[1:])


def test_audit_without_metric_asks_for_it_when_the_function_does_not_say(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "silent.py"
    module.write_text("def bleu(hyps, refs, metric):\n    return {'score': 1.0}\n",
                      encoding="utf-8")
    spec = f"python:{module}:bleu"
    status, out, err = run(capsys, "audit", "--impl", spec, *inputs(tmp_path))
    assert (status, out) == (2, "")
    assert err == (f"metricdiff: error: {spec}: give --metric (the function does not say "
                   "which metrics it implements)\n")
    status, _, err = run(capsys, "audit", "--metric", "bleu", "--impl", spec,
                         "--no-minimise", *inputs(tmp_path))
    assert status == 0, err


#: my_bleu.py on "a b c d" against itself: every order matches, add-one changes
#: nothing ((m + 1) / (t + 1) = 1), c = r = 4: score 100, sys_len 4.  It reports
#: neither bp nor precisions.
PARTIAL_FIXTURES = """format = 1

[[case]]
id = "must_partial_bp_only"
metric = "bleu"
description = "Only a statistic my_bleu.py does not report."
hyps = ["a b c d"]
refs = [["a b c d"]]
source = "hand"
[[case.expect]]
bp = 1.0

[[case]]
id = "must_partial_mixed"
metric = "bleu"
description = "One statistic reported, one not."
hyps = ["a b c d"]
refs = [["a b c d"]]
source = "hand"
[[case.expect]]
score = 100.0
precisions = [100.0, 100.0, 100.0, 100.0]

[[case]]
id = "must_partial_wrong"
metric = "bleu"
description = "A reported statistic expected wrongly, beside an unreported one."
hyps = ["a b c d"]
refs = [["a b c d"]]
source = "made up"
[[case.expect]]
sys_len = 5
bp = 1.0
"""


def test_check_compares_only_the_statistics_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], root: Path
) -> None:
    fixtures = tmp_path / "fx"
    fixtures.mkdir()
    (fixtures / "partial.toml").write_text(PARTIAL_FIXTURES, encoding="utf-8")
    status, _, err = run(capsys, "check", "--fixtures", str(fixtures), "--impl", MY_BLEU,
                         "--out", str(tmp_path / "out"))
    assert status == 1, err  # must_partial_wrong fails
    outcomes = json.loads((tmp_path / "out" / "check.json").read_text())["outcomes"]
    assert [(o["case"], o["status"], o["detail"]) for o in outcomes] == [
        ("must_partial_bp_only", "n/a", "not reported: bp"),
        ("must_partial_mixed", "pass", "not reported, not compared: precisions"),
        ("must_partial_wrong", "FAIL",
         "sys_len: expected 5, got 4; not reported, not compared: bp"),
    ]
    # Every bundled BLEU fixture, many of which expect bp and precisions: judged
    # on the rest, without a traceback.
    status, _, err = run(capsys, "check", "--fixtures", str(root / "fixtures" / "bleu"),
                           "--impl", MY_BLEU, "--out", str(tmp_path / "all"))
    assert status == 1, err  # my_bleu smooths: it fails cases the paper scores 0
    assert "Traceback" not in err
    outcomes = json.loads((tmp_path / "all" / "check.json").read_text())["outcomes"]
    assert any("not reported" in o["detail"] for o in outcomes)


# ------------------------------------------------------------------- audit


@pytest.mark.slow
def test_audit_infers_the_profile_of_a_python_bleu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "out"
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                           "--impl", MY_BLEU, *inputs(tmp_path), "--out", str(out_dir),
                           "--no-fixtures")
    assert status == 0, err
    # Three axes from the paper's profile (my_bleu.py's docstring): beyond the
    # explainer's pairs, so the greedy step is needed too.
    assert (f"inferred profile of {MY_BLEU}: lowercase=unicode smoothing=add-k "
            "smooth_orders=all (reproduces 4/4 cases; ") in out
    [inferred] = json.loads((out_dir / "inferred.json").read_text(encoding="utf-8"))
    assert inferred["found"] and inferred["changes"] == {
        "lowercase": "unicode", "smoothing": "add-k", "smooth_orders": "all",
    }
    # The inferred profile is its own: no conformance findings, and its departure
    # from the paper's profile is exactly those axes.
    findings = json.loads((out_dir / "findings.json").read_text(encoding="utf-8"))
    assert [(f["kind"], f["impl_b"]) for f in findings] == [("departure", MY_BLEU)]
    assert findings[0]["axis"] == "lowercase,smoothing,smooth_orders"


def test_audit_with_declared_profile_checks_conformance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Declared with smoothing left out: conformance finds the undeclared axes.
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", MY_BLEU,
                           "-o", "lowercase=unicode", "--no-minimise", *inputs(tmp_path))
    assert status == 0, err
    assert "inferred profile" not in out
    assert "[conformance] smoothing,smooth_orders: none,n>1 vs add-k,all" in out


def test_audit_infers_the_profile_of_a_python_rouge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "audit", "--metric", "rouge-2", "--impl", "reference",
                           "--impl", MY_ROUGE, "--no-minimise", "--no-fixtures",
                           *inputs(tmp_path, REFS, REFS_2))
    assert status == 0, err
    assert (f"inferred profile of {MY_ROUGE}: lowercase=unicode multi_ref=best-f "
            "(reproduces 4/4 cases; ") in out
    assert "0 unexplained" in out


def test_audit_of_a_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                           "--impl", MULTI_BLEU_LC, "--no-minimise", "--no-fixtures",
                           *inputs(tmp_path))
    assert status == 0, err
    # Read to the decimals it prints (issue 28): no fixed tolerance of its own.
    assert (f"tolerance of {MULTI_BLEU_LC}: absolute 0, relative 1e-09 (the score is "
            "read as the program prints it, to the decimals it prints)") in out
    assert f"inferred profile of {MULTI_BLEU_LC}: lowercase=unicode (reproduces 4/4" in out


def test_failing_command_is_a_finding_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--hyp", write(tmp_path, "h.txt", ["CRASH now", "GARBAGE out", "all fine"]),
            "--ref", write(tmp_path, "r.txt", ["crash now", "garbage out", "all fine"])]
    out_dir = tmp_path / "out"
    status, _, err = run(capsys, "audit", "--metric", "bleu", "--impl", FLAKY,
                         "--no-minimise", *argv, "--out", str(out_dir))
    assert status == 0, err
    findings = json.loads((out_dir / "findings.json").read_text(encoding="utf-8"))
    errors = {f["kind"]: f["example"]["error"] for f in findings if f["impl_a"] == FLAKY
              and f["kind"] in ("crash", "invalid-output")}
    assert errors["crash"].startswith("CommandFailed: exit status 3")
    assert errors["invalid-output"] == "InvalidOutput: no score in the output: nothing to see here"


# ------------------------------------------------------------ entry points


PLUGIN = '''
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter


class PluginBleu(ReferenceBleuAdapter):
    """The reference under another name, as a third-party package would ship one."""

    name = "{name}"
'''


def install_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entries: str) -> None:
    """A fake installed distribution: a module and a ``.dist-info`` with
    ``entry_points.txt``, on ``sys.path`` (worker processes get it too)."""
    (tmp_path / "md_plugin_mod.py").write_text(PLUGIN.format(name="my-plugin"), encoding="utf-8")
    info = tmp_path / "md_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: md-plugin\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent(entries), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    adapters._load_plugin.cache_clear()


def test_entry_point_adapter_is_discovered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_plugin(tmp_path, monkeypatch, """
        [metricdiff.adapters]
        my-plugin = md_plugin_mod:PluginBleu
        broken-plugin = md_no_such_module_xyz:Thing
        sacrebleu = md_plugin_mod:PluginBleu
    """)
    with pytest.warns(MetricdiffWarning) as warned:
        names = adapter_names()
    assert "my-plugin" in names and "broken-plugin" not in names
    said = [str(warning.message) for warning in warned]
    # One warning per broken entry point (and one for the name taken by metricdiff).
    assert sum(s.startswith("skipping adapter entry point broken-plugin = "
                            "md_no_such_module_xyz:Thing (ModuleNotFoundError") for s in said) == 1
    assert sum(s.startswith("skipping adapter entry point sacrebleu = ") for s in said) == 1
    assert get_adapter("my-plugin", "bleu").name == "my-plugin"
    document = score_json(capsys, "--impl", "my-plugin", *inputs(tmp_path))
    reference = score_json(capsys, "--impl", "reference", *inputs(tmp_path))
    assert document["impl"] == "my-plugin" and document["corpus"] == reference["corpus"]


# -------------------------------------------------- unreported statistics


def test_unreported_statistics_are_not_compared_and_not_zero() -> None:
    partial = result_from_fields("bleu", {"score": 40.0, "sys_len": 6})
    assert isinstance(partial, BleuResult)
    assert partial.unknown == {"precisions", "bp", "ref_len", "counts", "totals"}
    assert math.isnan(partial.bp) and partial.counts == ()
    assert validate(partial) is None
    full = BleuResult(40.0, (50.0, 40.0), 1.0, 6, 6.0, (3, 2), (6, 5))
    assert first_difference(partial, full, Tolerance()) is None
    assert first_difference(full, partial, Tolerance()) is None
    different = BleuResult(41.0, (50.0, 40.0), 1.0, 6, 6.0, (3, 2), (6, 5))
    assert str(first_difference(partial, different, Tolerance())).startswith("score")
    # What the journal stores comes back the same (NaN placeholders are not ==).
    again = BleuResult.from_json(partial.to_json())
    assert again.unknown == partial.unknown and again.to_json() == partial.to_json()
    assert partial.to_json()["bp"] is None


def test_result_fields_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown field matchs"):
        result_from_fields("rouge", {"fmeasure": 0.5, "matchs": 3})
    with pytest.raises(ValueError, match="no 'fmeasure'"):
        result_from_fields("rouge", {"recall": 0.5})
    with pytest.raises(ValueError, match="not a dict"):
        result_from_fields("bleu", 27.3)


def test_score_patterns() -> None:
    multi_bleu = "BLEU = 33.93, 58.3/45.5/30.0/16.7 (BP=1.000, ratio=1.091)"
    assert read_score(multi_bleu, None, "bleu") == 33.93
    assert read_score('NIST score = 7.1  BLEU score = 0.3393 for system "x"', None,
                      "bleu") == 0.3393
    assert read_score("  27.5\n", None, "bleu") == 27.5
    assert read_score("1 ROUGE-1 Average_F: 0.40123 (95%-conf.int.)", None, "rouge") == 0.40123
    command = parse_command("mteval {hyp} {ref} #score='BLEU score = ([0-9.]+)' #scale=100")
    assert command.scale == 100 and command.pattern is not None
    assert read_score("BLEU score = 0.3393", command.pattern, "bleu") == 0.3393
    with pytest.raises(BadSpec, match="needs a group"):
        parse_command("prog {hyp} {ref} #score=BLEU")


@pytest.mark.parametrize(("digits", "said"), [(1, "to 1 decimal"), (4, "to 4 decimals")])
def test_a_command_s_tolerance_says_its_decimals_in_english(digits: int, said: str) -> None:
    # The tolerance line once read "to 1 decimals" (issue 28, item 8); half a unit
    # of the last printed decimal is the tolerance: 0.05 for one decimal.
    tolerance = get_adapter(f"cmd:true {{hyp}} {{ref}} #digits={digits}", "bleu").declared.tolerance
    assert tolerance.reason.endswith(f"the program prints it, {said}")
    assert tolerance.absolute == pytest.approx(0.5 * 10.0**-digits)

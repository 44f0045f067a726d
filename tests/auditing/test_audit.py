"""``metricdiff audit`` end to end, through ``metricdiff.cli.main``.

The inputs are chosen so that the expected findings can be derived by hand:

``the cat sat on the mat.`` / ``the cat sat on the mat`` and
``a dog, ran in the park`` / ``a dog ran in the park`` are exact matches except
for punctuation attached to a word.  The reference (the paper's profile:
``tokenize=none``, no smoothing) keeps ``mat.`` and ``dog,`` as tokens; sacrebleu
(``13a``, exp smoothing; its declared defaults, ``sacrebleu/metrics/bleu.py``)
splits them off.  Every n-gram order has matches under both tokenizations
(counted below), so smoothing never acts and tokenization is the only cause:

* line 1, none: 6 tokens, matches 5, 4, 3, 2 of 6, 5, 4, 3 -> BLEU = (1/3)^(1/4);
  13a: 7 tokens, matches 6, 5, 4, 3 of 7, 6, 5, 4 -> (3/7)^(1/4); BP = 1 in both.
* line 2, none: matches 5, 3, 2, 1 of 6, 5, 4, 3; 13a: 6, 4, 2, 1 of 7, 6, 5, 4.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

import metricdiff.findings.witness
import metricdiff.impls as adapters
from helpers import run
from metricdiff.cases.fixtures import load_file
from metricdiff.comparison.expectations import MATCHES, run_expectation
from metricdiff.impls.base import References
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter
from metricdiff.profiles import BleuOptions
from metricdiff.scoring.jobs import Job
from metricdiff.statistics import BleuResult

HYPS = ["the cat sat on the mat.", "a dog, ran in the park"]
REFS = ["the cat sat on the mat", "a dog ran in the park"]

#: The keys of a finding that reports and users' scripts read (findings.py).
PUBLIC_KEYS = {
    "metric", "impl_a", "impl_b", "kind", "axis", "values", "first_difference", "count",
    "max_delta", "example", "signatures",
}
EXAMPLE_KEYS = {"hypothesis", "references", "result_a", "result_b"}


def write_inputs(directory: Path, hyps: Sequence[str], refs: Sequence[str]) -> list[str]:
    hyp, ref = directory / "h.txt", directory / "r.txt"
    hyp.write_text("".join(f"{line}\n" for line in hyps), encoding="utf-8")
    ref.write_text("".join(f"{line}\n" for line in refs), encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(ref)]


def audit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run(capsys, "audit", *argv)


def check_public_shape(findings: list[dict[str, object]]) -> None:
    assert isinstance(findings, list)
    for finding in findings:
        assert isinstance(finding, dict)
        assert set(finding) >= PUBLIC_KEYS, finding
        example = finding["example"]
        assert isinstance(example, dict) and set(example) >= EXAMPLE_KEYS
        values = finding["values"]
        assert isinstance(values, list) and len(values) == 2
        assert isinstance(finding["signatures"], dict)


# ------------------------------------------------------------ the user's files


@pytest.mark.slow
def test_user_files_with_punctuation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sacrebleu")
    out = tmp_path / "out"
    status, stdout, _ = audit(
        capsys, *write_inputs(tmp_path, HYPS, REFS), "--metric", "bleu",
        "--impl", "reference", "--impl", "sacrebleu", "--out", str(out),
    )
    assert status == 0

    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    check_public_shape(findings)
    departures = [
        f for f in findings
        if f["kind"] == "departure" and {f["impl_a"], f["impl_b"]} == {"reference", "sacrebleu"}
    ]
    # Tokenization alone parts sacrebleu from the paper's profile (module
    # docstring), on both lines and on the corpus of the two: one finding, three
    # cases; the reference under the paper's profile is its left-hand side.
    assert len(departures) == 1
    [finding] = departures
    assert (finding["impl_a"], finding["impl_b"]) == ("reference", "sacrebleu")
    assert finding["axis"] == "tokenize"
    assert finding["values"] == ["none", "13a"]
    assert finding["count"] == 3
    assert finding["metric"] == "bleu"
    # the biggest gap is line 1: 100 * ((3/7)^(1/4) - (1/3)^(1/4)) = 4.927 (by hand;
    # line 2 gives 4.84, the corpus 0.93)
    assert finding["max_delta"] == pytest.approx(100 * ((3 / 7) ** 0.25 - (1 / 3) ** 0.25))
    assert finding["first_difference"].startswith("sys_len")
    assert finding["explained"] is True
    # sacrebleu and the reference agree with the reference configured as them,
    # and no pair is checked directly (every participant declares its profile)
    assert not [f for f in findings if f["kind"] in ("conformance", "agreement")]
    # the (minimised) example still shows two different results
    example = finding["example"]
    assert example["result_a"]["score"] != example["result_b"]["score"]
    assert any(mark in example["hypothesis"] for mark in ".,")

    rows = [json.loads(line) for line in
            (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    # 2 lines + the corpus = 3 cases; reference, sacrebleu, reference-as-sacrebleu,
    # sacrebleu+intl (its audited variant) and reference-as-sacrebleu+intl
    assert len(rows) == 3 * 5
    by_impl: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        by_impl.setdefault(str(row["impl"]), []).append(row)
    assert {impl: len(r) for impl, r in by_impl.items()} == {
        "reference": 3, "sacrebleu": 3, "reference-as-sacrebleu": 3,
        "sacrebleu+intl": 3, "reference-as-sacrebleu+intl": 3,
    }
    assert {row["status"] for row in rows} == {"ok"}
    assert [row["case"] for row in by_impl["sacrebleu"]] == ["h.txt:1", "h.txt:2", "h.txt:corpus"]
    import sacrebleu

    # sacrebleu's rows are sacrebleu's numbers (direct call of the library) ...
    for row, (hyps, refs) in zip(
        by_impl["sacrebleu"], [([HYPS[0]], [REFS[0]]), ([HYPS[1]], [REFS[1]]), (HYPS, REFS)],
        strict=True,
    ):
        result = row["result"]
        assert isinstance(result, dict)
        assert result["score"] == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score)
    # ... and the reference's are the hand-computed ones (module docstring)
    scores = [r["result"]["score"] for r in by_impl["reference"]]  # type: ignore[index]
    assert scores[0] == pytest.approx(100 * (1 / 3) ** 0.25)
    assert scores[1] == pytest.approx(100 * (5 / 6 * 3 / 5 * 2 / 4 * 1 / 3) ** 0.25)

    lines = stdout.strip().splitlines()
    assert lines[-1].startswith("audit:")
    assert "tokenize: none vs 13a" in stdout


# --------------------------------------------------------------- determinism


@pytest.mark.slow
def test_generated_audit_is_deterministic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rouge_score")
    written = []
    for folder in ("one", "two"):
        status, stdout, _ = audit(
            capsys, "--generate", "30", "--seed", "1", "--metric", "rouge-1",
            "--impl", "reference", "--impl", "rouge-score", "--out", str(tmp_path / folder),
        )
        assert status == 0
        assert stdout.strip().splitlines()[-1].startswith("audit: 1 metric, 30 cases")
        written.append((tmp_path / folder / "findings.json").read_bytes())
    assert written[0] == written[1]
    findings = json.loads(written[0])
    check_public_shape(findings)
    assert findings  # rouge-score tokenizes ("rouge-score") where the paper does not


# ----------------------------------------------------- a crashing implementation


class CrashingBleuAdapter(ReferenceBleuAdapter):
    """The reference's BLEU, except that a hypothesis with ``BOOM`` raises."""

    name = "crashy"

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        if any("BOOM" in hyp for hyp in hyps):
            raise ValueError("crashy cannot take BOOM")
        return super().corpus_score(metric, hyps, refs, options)


CRASHY = f"{CrashingBleuAdapter.__module__}:{CrashingBleuAdapter.__name__}"


@pytest.fixture
def crashy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register ``crashy`` for BLEU.

    In this process the registry entry does it (``get_adapter`` imports
    ``metricdiff.impls.<module>``, so this module is aliased there).  Workers
    are forked from a forkserver that imported ``metricdiff.implementations`` itself,
    so a monkeypatched registry never reaches them; they build the adapter from
    ``Job.adapter_path`` instead, which names this module (importable there:
    the parent's ``sys.path``, with ``tests/``, is sent with every chunk).  The
    audit makes its jobs with ``metricdiff.findings.witness.Job``, patched here to set it.
    """
    import sys

    module = sys.modules[CrashingBleuAdapter.__module__]
    monkeypatch.setitem(sys.modules, "metricdiff.impls._test_crashy", module)
    monkeypatch.setitem(adapters._REGISTRY, "crashy",
                        {"bleu": "_test_crashy:CrashingBleuAdapter"})

    def job(impl: str, *args: object, **kwargs: object) -> Job:
        if impl == "crashy":
            kwargs["adapter_path"] = CRASHY
        return Job(impl, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(metricdiff.findings.witness, "Job", job)


@pytest.mark.slow
@pytest.mark.usefixtures("crashy")
def test_a_crashing_implementation_is_a_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sacrebleu")
    hyps = [HYPS[0], "BOOM goes the dynamite"]
    refs = [REFS[0], "BOOM goes the dynamite"]
    out = tmp_path / "out"
    status, stdout, _ = audit(
        capsys, *write_inputs(tmp_path, hyps, refs), "--metric", "bleu",
        "--impl", "reference", "--impl", "sacrebleu", "--impl", "crashy",
        "--pair", "crashy,sacrebleu", "--out", str(out),
    )
    assert status == 0
    assert stdout.strip().splitlines()[-1].startswith("audit:")
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    check_public_shape(findings)

    crashes = [f for f in findings if f["kind"] == "crash"]
    # line 2 and the corpus (which contains line 2) raise; line 1 does not
    assert len(crashes) == 1
    [crash] = crashes
    assert crash["impl_a"] == "crashy"
    assert crash["count"] == 2
    assert crash["cases"] == ["h.txt:2", "h.txt:corpus"]
    assert crash["example"]["error"] == "ValueError: crashy cannot take BOOM"
    assert "BOOM" in crash["example"]["hypothesis"]
    assert "[crash] crash: ValueError: crashy (2)" in stdout

    # The others' findings are still there: sacrebleu departs from the paper's
    # profile on the tokenization of line 1 and of the corpus (line 2 has no
    # punctuation).
    departed = [f for f in findings if f["kind"] == "departure"
                and {f["impl_a"], f["impl_b"]} == {"reference", "sacrebleu"}]
    assert [(f["axis"], f["count"]) for f in departed] == [("tokenize", 2)]
    # crashy is the reference where it does not crash: no departure, no pair finding.
    assert not [f for f in findings if "crashy" in (f["impl_a"], f["impl_b"])
                and f["kind"] != "crash"]
    # Its pair with sacrebleu, derived from the two stars: compared on line 1
    # alone (line 2 and the corpus crashed), where they part on tokenization.
    [pair] = [p for p in json.loads((out / "pairs.json").read_text(encoding="utf-8"))
              if p["why"] == "asked"]
    assert (pair["impl_a"], pair["impl_b"], pair["compared"], pair["differing"],
            pair["predicted"]) == ("crashy", "sacrebleu", 1, 1, 1)
    assert [(c["axis"], c["values"], c["count"]) for c in pair["causes"]] == [
        ("tokenize", ["none", "13a"], 1)]

    rows = [json.loads(line) for line in
            (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    statuses = [(r["case"], r["status"], r["error"]) for r in rows if r["impl"] == "crashy"]
    assert statuses == [
        ("h.txt:1", "ok", ""),
        ("h.txt:2", "crash", "ValueError: crashy cannot take BOOM"),
        ("h.txt:corpus", "crash", "ValueError: crashy cannot take BOOM"),
    ]


# ---------------------------------------------------------------- bad input


def test_a_missing_hypothesis_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = tmp_path / "r.txt"
    ref.write_text("a b\n", encoding="utf-8")
    missing = tmp_path / "nowhere.txt"
    status, stdout, stderr = audit(
        capsys, "--hyp", str(missing), "--ref", str(ref), "--metric", "bleu",
        "--impl", "reference",
    )
    assert status == 2
    assert stdout == ""
    assert len(stderr.splitlines()) == 1
    assert f"{missing}:0:" in stderr and stderr.startswith("metricdiff: error:")


def test_files_of_different_lengths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = write_inputs(tmp_path, ["a b", "c d", "e f"], ["a b", "c d"])
    status, stdout, stderr = audit(capsys, *argv, "--metric", "bleu", "--impl", "reference")
    assert status == 2
    assert stdout == ""
    assert len(stderr.splitlines()) == 1
    # the reference file ends after line 2: line 3 is the first without a partner
    assert f"{tmp_path / 'r.txt'}:3:" in stderr
    assert "h.txt" in stderr


# ------------------------------------------------------------- saved fixtures


def test_saved_fixtures_hold_for_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sacrebleu")
    saved = tmp_path / "found"
    status, _, stderr = audit(
        capsys, *write_inputs(tmp_path, HYPS, REFS), "--metric", "bleu",
        "--impl", "reference", "--impl", "sacrebleu", "--save-fixtures", str(saved),
    )
    assert status == 0
    files = sorted(saved.glob("*.toml"))
    assert len(files) == 1
    assert str(files[0]) in stderr
    cases = load_file(files[0])
    # the explained findings are tokenization ones: none vs 13a (reference and
    # sacrebleu), and those of sacrebleu's audited intl variant; one case per cause
    assert 1 <= len(cases) <= 3
    assert any(
        {dict(e.when)["tokenize"] for e in case.expectations} == {"none", "13a"}
        for case in cases
    )
    reference = adapters.get_adapter("reference", "bleu")
    for case in cases:
        assert case.id.startswith("conv_")
        assert len(case.expectations) >= 2
        assert {dict(e.when)["tokenize"] for e in case.expectations} <= {"none", "13a", "intl"}
        for expectation in case.expectations:
            outcome = run_expectation(case, expectation, reference)
            assert outcome.status == MATCHES, outcome


# ------------------------------------------------- a finding describes its example


@pytest.mark.slow
def test_first_difference_describes_the_minimal_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Shrinking replaces a finding's example; its first_difference must then be
    that of the example shown, not of the case it was shrunk from (which the
    README once showed as ``sys_len: 6 vs 7`` beside a 3-token example)."""
    pytest.importorskip("sacrebleu")
    pytest.importorskip("nltk")
    from metricdiff.auditing.journal import result_from_json
    from metricdiff.comparison.stages import first_difference
    from metricdiff.impls.base import Tolerance

    out = tmp_path / "out"
    status, _, err = audit(
        capsys, *write_inputs(tmp_path, HYPS, REFS), "--metric", "bleu",
        "--impl", "reference", "--impl", "sacrebleu", "--impl", "nltk", "--out", str(out),
    )
    assert status == 0, err
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    shrunk = [f for f in findings if f["example"]["case"].endswith("~min")]
    assert shrunk, "nothing was shrunk: the test would prove nothing"

    def tolerance(name: str) -> Tolerance:
        return adapters.get_adapter(name.split("+")[0], "bleu").declared.tolerance

    checked = 0
    for finding in findings:
        example = finding["example"]
        if example["result_a"] is None or example["result_b"] is None:
            continue
        a, b = tolerance(finding["impl_a"]), tolerance(finding["impl_b"])
        pair = Tolerance(max(a.absolute, b.absolute), max(a.relative, b.relative))
        difference = first_difference(result_from_json(example["result_a"]),
                                      result_from_json(example["result_b"]), pair)
        assert finding["first_difference"] == str(difference or ""), finding
        checked += 1
    assert checked == len(findings)


def test_an_implementation_refusing_the_metric_is_skipped_with_its_reason(monkeypatch):
    # torchmetrics' rouge-lsum needs NLTK's punkt model: resolve() refuses it with an
    # UnsupportedOption.  That is a reason to leave it out, not to stop the audit.
    from metricdiff.auditing import participants as module
    from metricdiff.errors import UnsupportedOption

    real = module.resolve

    def refusing(name, metric):
        if name == "rouge-score":
            raise UnsupportedOption("rouge-score: rouge-lsum needs a model not here")
        return real(name, metric)

    monkeypatch.setattr(module, "resolve", refusing)
    chosen, skipped = module.participants("rouge-lsum", ["reference", "rouge-score"])
    assert {person.impl for person in chosen} == {"reference"}  # plain and +stemmed
    assert skipped == ["rouge-score: rouge-lsum needs a model not here"]

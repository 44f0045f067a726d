"""``metricdiff audit`` on a user's corpus leads with the table of ``compare``
(every implementation's corpus score, each gap split by axis), stored in the
audit folder as ``compare.json`` so that ``report --from`` renders the same; and
it prints and writes each metric as soon as that metric is done.

The corpus is ``auditing/test_audit.py``'s: two lines that match their references but for
punctuation attached to a word.  By hand (counts in ``auditing/test_audit.py``'s
docstring): under the paper's ``tokenize=none`` the corpus has clipped matches
10, 7, 5, 3 of 12, 10, 8, 6 n-grams; under sacrebleu's ``13a`` (the full stop
and the comma split off) 12, 9, 6, 4 of 14, 12, 10, 8.  Every order has matches,
so no smoothing acts, and c >= r in both (BP = 1): the whole gap between the
reference and sacrebleu is tokenization.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import metricdiff.auditing.run
from helpers import TESTS, interrupted_at, require_impl, run
from metricdiff.cli import main
from metricdiff.comparison.attribution import Attribution, Contribution
from metricdiff.comparison.gaps import Comparison, CorpusScore, Gap, MetricComparison

HYPS = ["the cat sat on the mat.", "a dog, ran in the park"]
REFS = ["the cat sat on the mat", "a dog ran in the park"]
IMPLS = ["--impl", "reference", "--impl", "sacrebleu", "--impl", "nltk"]

#: BLEU by hand, from the counts in the module's docstring (points).
PAPER = 100 * (10 / 12 * 7 / 10 * 5 / 8 * 3 / 6) ** 0.25
SACREBLEU = 100 * (12 / 14 * 9 / 12 * 6 / 10 * 4 / 8) ** 0.25


@pytest.fixture
def inputs(tmp_path: Path) -> list[str]:
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("".join(f"{line}\n" for line in HYPS), encoding="utf-8")
    ref.write_text("".join(f"{line}\n" for line in REFS), encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(ref)]


def test_audit_leads_with_the_table_of_the_corpus(
    tmp_path: Path, inputs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    require_impl("sacrebleu", "bleu")
    require_impl("nltk", "bleu")
    out = tmp_path / "out"
    status, text, err = run(capsys, "audit", "--metric", "bleu", *IMPLS, *inputs,
                            "--no-minimise", "--out", str(out))
    assert status == 0, err
    lines = text.splitlines()
    assert lines[0].startswith("== bleu: ")
    assert lines[1] == "   your corpus (BLEU, points 0-100):"
    first_cause = next(i for i, line in enumerate(lines) if line.startswith("   ["))
    # the table (each one's gap to the paper split by axis) and, three
    # implementations being named, each pair's sentence come before the causes
    assert any(line.split()[:2] == ["sacrebleu", f"{SACREBLEU:.2f}"]
               for line in lines[2:first_cause])
    assert any(line.strip().startswith("sacrebleu ") and " vs nltk " in line
               for line in lines[2:first_cause])

    [table] = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    assert table["scores"]["reference"]["score"] == pytest.approx(PAPER, abs=1e-9)
    assert table["scores"]["sacrebleu"]["score"] == pytest.approx(SACREBLEU, abs=1e-9)
    [gap] = [g for g in table["gaps"] if (g["impl_a"], g["impl_b"]) == ("reference",
                                                                        "sacrebleu")]
    # tokenization is the whole gap; smoothing and all_zero never act here
    assert gap["contributions"]["tokenize"] == pytest.approx(SACREBLEU - PAPER, abs=1e-9)
    assert gap["contributions"]["smoothing"] == pytest.approx(0, abs=1e-9)
    assert gap["residual"] == pytest.approx(0, abs=1e-9)
    for each in table["gaps"]:
        parts = math.fsum([*each["contributions"].values(), each["residual"]])
        assert parts == pytest.approx(each["delta"], abs=1e-9)

    # the same table as `metricdiff compare` gives on the same corpus
    status, printed, err = run(capsys, "compare", "--metric", "bleu", *IMPLS, *inputs,
                               "--format", "json")
    assert status == 0, err
    assert json.loads(printed) == [table]

    report = (out / "report.md").read_text(encoding="utf-8")
    assert (report.index("### Your corpus: BLEU, points 0-100")
            < report.index("### Departures") < report.index("### Conventions"))
    [pair] = [g for g in table["gaps"] if (g["impl_a"], g["impl_b"]) == ("sacrebleu", "nltk")]
    assert f"- {pair['sentence']}" in report
    # the table's row: sacrebleu's gap to the paper, split by axis
    assert (f"| `sacrebleu` | {SACREBLEU:.2f} | — | +{SACREBLEU - PAPER:.2f} "
            f"| tokenize +{SACREBLEU - PAPER:.2f} · residual 0.00 |") in report
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.index("<h3>Your corpus") < html.index("<h3>Conventions</h3>")
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["metrics"][0]["corpus"] == table

    again = tmp_path / "again"
    assert main(["report", "--from", str(out), "--out", str(again)]) == 0
    for name in ("report.md", "report.html", "report.json"):
        assert (again / name).read_bytes() == (out / name).read_bytes()


def test_an_audit_without_a_corpus_of_the_users_has_no_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_impl("sacrebleu", "bleu")
    out = tmp_path / "out"
    out.mkdir()
    (out / "compare.json").write_text("[]\n", encoding="utf-8")  # left by an earlier run
    status, text, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                            "--impl", "sacrebleu", "--generate", "2", "--no-minimise",
                            "--out", str(out))
    assert status == 0, err
    assert "your corpus" not in text
    assert not (out / "compare.json").exists()
    assert "Your corpus" not in (out / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("content", "message"), [
    ("[", "compare.json:1: not valid JSON"),
    ('[{"metric": "rouge-2", "report": "f", "scores": {}, "gaps": []}]',
     "compare.json:0: malformed comparison: metric 'rouge-2' is not in audit.json"),
    ('[{"metric": "bleu", "scores": {"reference": {"score": "35"}}, "gaps": []}]',
     "compare.json:0: malformed comparison: missing field 'signature'"),
])
def test_a_malformed_table_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    golden = TESTS / "golden" / "audit_small"
    folder = tmp_path / "audit"
    folder.mkdir()
    for name in ("audit.json", "findings.json", "results.jsonl"):
        (folder / name).write_bytes((golden / name).read_bytes())
    (folder / "compare.json").write_text(content, encoding="utf-8")
    status, _out, err = run(capsys, "report", "--from", str(folder))
    assert status == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_comparison_reads_back_as_it_was_written() -> None:
    # numbers chosen here: ref(A) = 30, ref(B) = 26, contributions −3 and −1
    attribution = Attribution(30.0, 26.0, (
        Contribution("tokenize", "13a", "none", -3.0),
        Contribution("smoothing", "exp", "float-min", -1.0)), "sampled", 0.25)
    scores = (CorpusScore("sacrebleu", "bleu|impl:sacrebleu", 30.0),
              CorpusScore("nltk", "bleu|impl:nltk", 26.5),
              CorpusScore("torch", "", None, "crash: boom"))
    metric = MetricComparison("bleu", scores, (
        Gap("sacrebleu", "nltk", 30.0, 26.5, attribution),
        Gap("nltk", "sacrebleu", 26.5, 30.0, None, "the reference refuses it")))
    rouge = MetricComparison("rouge-l", scores[:1], (), "recall")
    written = Comparison((metric, rouge))
    assert Comparison.from_dict(json.loads(json.dumps(written.to_dict()))) == written


def test_each_metric_is_printed_and_written_as_it_finishes(
    tmp_path: Path, inputs: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C in the second metric: the first one's causes are printed, its reports
    are in --out, and the message says how to rebuild them."""
    require_impl("sacrebleu", "bleu")
    monkeypatch.setattr(metricdiff.auditing.run, "score_metric",
                        interrupted_at("rouge-1", metricdiff.auditing.run.score_metric))
    out = tmp_path / "out"
    status, text, err = run(capsys, "audit", "--metric", "bleu", "--metric", "rouge-1",
                            "--impl", "reference", "--impl", "sacrebleu", *inputs,
                            "--no-minimise", "--out", str(out))
    assert status == 130
    assert text.startswith("== bleu: reference, sacrebleu, sacrebleu+intl\n")
    assert "[departure] tokenize: none vs 13a: sacrebleu (3)" in text
    assert "== rouge-1" not in text
    assert err.splitlines()[-1] == (
        f"metricdiff: interrupted; the reports of bleu are in {out} (`metricdiff report "
        f"--from {out}` rebuilds them); run the same command with --resume to continue")
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## bleu" in report and "## rouge-1" not in report
    again = tmp_path / "again"
    assert main(["report", "--from", str(out), "--out", str(again)]) == 0
    assert (again / "report.md").read_bytes() == (out / "report.md").read_bytes()


def test_the_python_audit_leads_with_the_same_table() -> None:
    require_impl("sacrebleu", "bleu")
    from metricdiff.api import audit, compare

    refs = [[ref] for ref in REFS]
    impls = ["reference", "sacrebleu"]
    found = audit(HYPS, refs, metrics=["bleu"], impls=impls, minimise=False)
    assert found.comparison == compare(HYPS, refs, metrics=["bleu"], impls=impls)
    assert found.comparison is not None
    assert found.comparison["bleu"].score("sacrebleu").score == pytest.approx(SACREBLEU)
    assert found.to_dict()["comparison"] == found.comparison.to_dict()["metrics"]

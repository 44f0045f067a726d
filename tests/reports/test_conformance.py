"""The conformance table has one column per clause of spec/*.md that a metric
depends on, and a difference that no axis explains lands in the clause of its
first differing statistic (``profiles.clauses``, ``reports.conformance``).

The statistics' clauses come from the spec's definitions: BLEU-CLIP defines the
clipped match counts (``counts``), BLEU-NGRAM the n-gram totals, BLEU-BP the
brevity penalty, BLEU-REFLEN the effective reference length, ROUGE-SU the units
of ROUGE-SU, ROUGE-L-SUMMARY the union LCS of summary-level ROUGE-L.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import ROOT, run
from metricdiff.profiles import profile_of
from metricdiff.profiles.bleu import BleuOptions
from metricdiff.profiles.clauses import CLAUSES, clause_of_statistic, metric_clauses
from metricdiff.profiles.metrics import METRICS, paper_options
from metricdiff.reports.conformance import conformance
from metricdiff.reports.reading import load_audit

UNCLIPPED = f"python:{ROOT / 'tests' / 'example_impls' / 'unclipped_bleu.py'}:bleu"


def headings(family: str) -> set[str]:
    text = (ROOT / "spec" / f"{family}.md").read_text(encoding="utf-8")
    return set(re.findall(r"^### (\S+)\s*$", text, flags=re.MULTILINE))


def covered(metrics: list[str]) -> set[str]:
    """Every clause the columns of ``metrics`` stand for: a clause, or each
    member of a family of variant clauses."""
    found: set[str] = set()
    for metric in metrics:
        for clause in metric_clauses(metric):
            found |= set(clause.members.values()) if clause.named_by else {clause.id}
    return found


def test_every_clause_of_the_spec_has_a_column() -> None:
    assert covered(["bleu"]) == headings("bleu")
    rouge = [m for m in METRICS if m.startswith("rouge")]
    assert covered(rouge) == headings("rouge")


def test_bleu_columns_include_clip_and_bp_and_group_the_variants() -> None:
    ids = [clause.id for clause in metric_clauses("bleu")]
    assert {"BLEU-CLIP", "BLEU-BP", "BLEU-NGRAM", "BLEU-TOK-*", "BLEU-SMOOTH-*"} <= set(ids)
    # the variant clauses are one column each, not one per tokenizer or method
    assert not any(i.startswith(("BLEU-TOK-N", "BLEU-SMOOTH-E")) for i in ids)
    [tok] = [c for c in CLAUSES["bleu"] if c.id == "BLEU-TOK-*"]
    assert tok.member({"tokenize": "13a"}) == "BLEU-TOK-13A"
    # a tokenizer with no clause of its own is named by its value
    assert tok.member({"tokenize": "ja-mecab"}) == "tokenize=ja-mecab"


def test_rouge_columns_follow_the_variant() -> None:
    assert "ROUGE-N" in {c.id for c in metric_clauses("rouge-2")}
    assert "ROUGE-L" not in {c.id for c in metric_clauses("rouge-2")}
    assert {"ROUGE-S", "ROUGE-SU"} <= {c.id for c in metric_clauses("rouge-su")}
    assert "ROUGE-SU" not in {c.id for c in metric_clauses("rouge-s")}


@pytest.mark.parametrize(("metric", "statistic", "clause"), [
    ("bleu", "counts[0]: 4 vs 2", "BLEU-CLIP"),
    ("bleu", "totals[3]: 1 vs 0", "BLEU-NGRAM"),
    ("bleu", "bp: 0 vs 1", "BLEU-BP"),
    ("bleu", "ref_len: 4 vs 5", "BLEU-REFLEN"),
    ("bleu", "sys_len: 3 vs 1", "BLEU-TOK-*"),
    ("bleu", "score: 1 vs 2", "BLEU-SCORE"),
    ("bleu", "precisions[1]: 0.5 vs 0.4", "BLEU-PN"),  # the paper's profile: no smoothing
    ("bleu", "", "BLEU-SCORE"),  # no statistic named: where the quoted number is made
    ("rouge-1", "matches: 3 vs 2", "ROUGE-N"),
    ("rouge-su", "matches: 3 vs 2", "ROUGE-SU"),
    ("rouge-lsum", "matches: 3 vs 2", "ROUGE-L-SUMMARY"),
    ("rouge-l", "hyp_total: 5 vs 4", "ROUGE-TOKENIZE"),
    ("rouge-l", "recall: 0.5 vs 0.4", "ROUGE-SCORE"),
    ("rouge-w", "fmeasure: 0.5 vs 0.4", "ROUGE-F-MEASURE"),
])
def test_a_statistic_lands_in_its_clause(metric: str, statistic: str, clause: str) -> None:
    paper = profile_of(paper_options(metric))
    assert clause_of_statistic(metric, statistic, paper, paper).id == clause


def test_a_smoothed_precision_lands_in_the_smoothing_method() -> None:
    paper = profile_of(BleuOptions())
    smoothed = {**paper, "smoothing": "exp"}
    assert clause_of_statistic("bleu", "precisions[3]", smoothed, paper).id == "BLEU-SMOOTH-*"


def test_a_bleu_without_clipping_fails_bleu_clip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new user's BLEU that does not clip: the audit's conformance table says so
    in BLEU-CLIP, and nowhere else."""
    # Line 1: "the" occurs three times in the hypothesis and once in the
    # reference, so the clipped unigram matches are the + cat = 2 (BLEU-CLIP) and
    # the unclipped ones 3 + 1 = 4; line 2 is identical to its reference.
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("the the the cat\na cat sat on the mat\n", encoding="utf-8")
    ref.write_text("the cat sat\na cat sat on the mat\n", encoding="utf-8")
    out = tmp_path / "out"
    status, _out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                            "--impl", UNCLIPPED, "--hyp", hyp, "--ref", ref, "--no-minimise",
                            "--out", out)
    assert status == 0, err
    [record] = load_audit(out).metrics
    _clauses, rows = conformance(record)
    table = {row.implementation: {c.clause: c.text() for c in row.cells} for row in rows}
    mine = table[UNCLIPPED]
    assert mine["BLEU-CLIP"].startswith("fails: counts[0]: 4 vs 2"), mine
    assert {clause for clause, text in mine.items() if text != "conforms"
            and not text.endswith(": conforms")} == {"BLEU-CLIP"}
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "fails: counts[0]: 4 vs 2" in report


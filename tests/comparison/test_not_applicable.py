"""Issue 28 item 6: a refusal is not a crash.  An implementation that refuses
the input by a documented inability (``UnsupportedOption``: it takes one
reference) is "not applicable" in ``compare``, the API and the audit's summary;
a package's own exception on input it should take stays a crash, and names the
segment that raises it.

The corpus, by hand: segment 1 has one reference, segment 2 has two.  compare-mt
reads one reference file, so it takes one reference per segment; jury's
sacrebleu checks that every segment has as many references as the first
(``_validate_references``); sumeval's ``BLEUCalculator`` documents references as
"str or str[]" but hands a list to sacrebleu 1.5.1 as one stream of several
lines against one hypothesis, which raises ``EOFError`` on segment 2 alone;
pyrouge's ROUGE-1.5.5.pl divides by zero on a segment with no ASCII word
(segment 2 of the second corpus)."""

from __future__ import annotations

import json

import pytest

import metricdiff
from helpers import require_impl, run

ROWS = [{"hyp": "the cat sat on the mat", "ref": "the cat is on the mat"},
        {"hyp": "it is raining today", "ref": ["it rains today", "today it is raining"]}]


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    return path


def test_a_documented_inability_is_not_applicable(capsys, mixed):
    require_impl("compare-mt", "bleu")
    status, out, err = run(capsys, "compare", "--metric", "bleu", "--impl", "compare-mt",
                           "--jsonl", mixed, "--no-progress")
    assert status == 0, err
    row = next(line for line in out.splitlines() if line.startswith("compare-mt "))
    assert row.split()[-2:] == ["not", "applicable"], out
    assert ("compare-mt not applicable: takes one reference per segment (one reference "
            "file); segment 2 has 2") in out.splitlines(), out
    assert "crash" not in out and "UnsupportedOption" not in out

    status, out, err = run(capsys, "compare", "--metric", "bleu", "--impl", "compare-mt",
                           "--jsonl", mixed, "--no-progress", "--format", "json")
    entry = json.loads(out)[0]["scores"]["compare-mt"]
    assert entry["score"] is None and entry["not_applicable"] is True

    rows = [[row["hyp"] for row in ROWS], [[r] if isinstance(r, str) else r
                                           for r in (row["ref"] for row in ROWS)]]
    found = metricdiff.compare(*rows, metrics=["bleu"], impls=["compare-mt"])
    score = found["bleu"].score("compare-mt")
    assert score.not_applicable and score.describe().startswith("not applicable: takes one")


def test_jury_refuses_uneven_references_up_front(capsys, mixed):
    require_impl("jury", "bleu")
    status, out, err = run(capsys, "compare", "--metric", "bleu", "--impl", "jury",
                           "--jsonl", mixed, "--no-progress")
    assert status == 0, err
    assert ("jury not applicable: takes the same number of references for every segment "
            "(its sacrebleu checks it); segment 1 has 1, segment 2 has 2") in out.splitlines()
    assert "ValueError" not in out


def test_a_package_s_own_exception_is_a_crash_naming_the_segment(capsys, mixed):
    require_impl("sumeval", "bleu")
    status, out, err = run(capsys, "compare", "--metric", "bleu", "--impl", "sumeval",
                           "--jsonl", mixed, "--no-progress")
    assert status == 0, err
    assert ("sumeval could not score: crash: EOFError: System and reference streams have "
            "different lengths! (segment 2 raises it alone)") in out.splitlines(), out


def test_pyrouge_says_which_segment_it_dies_on(capsys, tmp_path):
    require_impl("pyrouge", "rouge-l")
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\n한국의 수도는 서울이에요.\nit is raining\n",
                   encoding="utf-8")
    ref.write_text("the cat is on the mat\n대한민국의 수도는 서울입니다.\nit rains\n",
                   encoding="utf-8")
    status, out, err = run(capsys, "compare", "--metric", "rouge-l", "--impl", "pyrouge",
                           "--hyp", hyp, "--ref", ref, "--no-progress")
    assert status == 0, err
    line = next(line for line in out.splitlines() if line.startswith("pyrouge could not"))
    assert "Illegal division by zero" in line and line.endswith("(segment 2 raises it alone)")


def test_the_audit_says_not_applicable_and_exits_0(capsys, mixed, tmp_path):
    require_impl("compare-mt", "bleu")
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat on the mat\nit is raining today\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\nit rains today\n", encoding="utf-8")
    # Two reference files: compare-mt refuses every case (each has two references).
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "compare-mt",
                           "--hyp", hyp, "--ref", ref, "--ref", hyp, "--no-minimise",
                           "--no-progress")
    assert status == 0, err
    summary = out.splitlines()[-1]
    assert summary.endswith("; not applicable to this input: compare-mt (refused every case "
                            "as it documents)"), summary
    assert "could not score" not in summary

"""``metricdiff check`` (issue 28, item 5): it writes files only where ``--out``
says, tells a ``must_`` case missed by a convention the implementation declares
from a real failure, and exits 1 for the latter alone.

The case is Papineni et al. 2002's Example 2 with bigrams, as spec/bleu.md gives
it (``must_paper_the_the_bigram``): "the the the the the the the" against "The cat
is on the mat" and "There is a cat on the mat", lowercased, BLEU-2.  By hand:
clipped unigram matches 2 of 7 ("the" at most twice in one reference), bigram
matches 0 of 6, so the paper's BLEU-2 is 0.  sacrebleu smooths by default
(``smoothing=exp``: a zero count becomes 1/2 over the total, p2 = 1/12), so it
gives 100 · sqrt(2/7 · 1/12) = 15.43 (the brevity penalty is 1: 7 words against
the closest reference length 6) -- its declared convention, no failure.  A BLEU
that does not clip (tests/example_impls/unclipped_bleu.py) counts all 7 "the"s:
counts [7, 0, 0, 0] (it counts four orders whatever ``max_order`` says), a real
failure.
"""

from __future__ import annotations

import json
import math

from helpers import ROOT, require_impl, run

CASE = '''format = 1

[[case]]
id = "must_paper_the_the_bigram"
metric = "bleu"
hyps = ["the the the the the the the"]
refs = [["The cat is on the mat", "There is a cat on the mat"]]
options = { tokenize = "none", lowercase = "unicode", max_order = "2" }
source = "hand: Papineni et al. 2002 Example 2, bigrams"
[[case.expect]]
counts = [2, 0]
totals = [7, 6]
score = 0.0
'''

UNCLIPPED = f"python:{ROOT / 'tests' / 'example_impls' / 'unclipped_bleu.py'}:bleu"


def _fixtures(tmp_path):
    folder = tmp_path / "fx"
    folder.mkdir()
    (folder / "paper.toml").write_text(CASE, encoding="utf-8")
    return folder


def test_check_writes_nothing_without_out(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "check", "--impl", "reference")
    assert status == 0, out
    assert list(tmp_path.iterdir()) == []  # no ./reports/check.md, no check.json
    assert "wrote" not in out


def test_a_declared_convention_is_no_failure(capsys, tmp_path):
    require_impl("sacrebleu", "bleu")
    status, out, _ = run(capsys, "check", "--fixtures", _fixtures(tmp_path),
                         "--impl", "sacrebleu", "--impl", "reference", "--out", tmp_path / "o")
    assert status == 0, out
    assert "FAIL" not in out
    line = next(line for line in out.splitlines() if "sacrebleu on" in line)
    assert line.strip().startswith("departs: sacrebleu on must_paper_the_the_bigram: "
                                   "by its declared convention (smoothing=exp)")
    outcomes = json.loads((tmp_path / "o" / "check.json").read_text())["outcomes"]
    mine = next(o for o in outcomes if o["impl"] == "sacrebleu")
    assert mine["status"] == "departs"
    assert math.isclose(mine["result"]["score"], 100 * math.sqrt(2 / 7 * 1 / 12))
    assert out.splitlines()[-1].endswith("0 problems, 1 declared departure; wrote "
                                         f"{tmp_path / 'o' / 'check.md'}, "
                                         f"{tmp_path / 'o' / 'check.json'}")


def test_a_real_failure_exits_1(capsys, tmp_path):
    status, out, _ = run(capsys, "check", "--fixtures", _fixtures(tmp_path),
                         "--impl", UNCLIPPED)
    assert status == 1
    # It always counts 4 orders and keeps case: all 7 "the"s still match a "the".
    assert out.splitlines()[0].startswith(f"FAIL: {UNCLIPPED} on must_paper_the_the_bigram: "
                                          "counts: expected [2, 0], got [7, 0, 0, 0]")
    assert out.splitlines()[-1].endswith("1 problem, 0 declared departures")

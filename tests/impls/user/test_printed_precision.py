"""A ``cmd:`` program's score is read to the decimals it prints (issue 28, item
4): sacrebleu ``-b`` prints one decimal, "48.9", which stands for anything from
48.85 to 48.95; ``#digits=N`` says otherwise and wins.

The numbers: line 2 of examples/ (Papineni et al.'s Example 1, candidate 1,
against its first reference) scores 48.89230224 under sacrebleu 2.6.0's own
corpus_score (13a, exp smoothing), which ``sacrebleu -b`` prints as 48.9
(rounded to one decimal by hand: 48.89 -> 48.9).  Within half a unit of the
last printed decimal (0.05) of the exact value, not within 0.005.
"""

from __future__ import annotations

import sys

import pytest

from helpers import ROOT, run
from metricdiff.impls.user.command import printed_decimals, read_printed

EXAMPLES = ROOT / "examples"
SACREBLEU_B = f"cmd:{sys.executable} -m sacrebleu {{ref}} -i {{hyp}} -b"


def test_printed_decimals_are_counted_from_the_text():
    assert [printed_decimals(t) for t in ("48.9", "49", "48.90", "4.89e1", "5e2")] == [
        1, 0, 2, 1, -2]
    assert read_printed("BLEU = 48.9, 80.0/60.0", None, "bleu") == (48.9, 1)


def test_score_shows_the_number_as_printed(capsys):
    status, out, err = run(capsys, "score", "--impl", "cmd:echo BLEU = 55.1 {hyp} {ref}",
                           "--hyp", EXAMPLES / "hyp.txt", "--ref", EXAMPLES / "ref.txt")
    assert status == 0, err
    assert out.startswith("BLEU = 55.1 (not reported: "), out


def _audit(capsys, spec):
    pytest.importorskip("sacrebleu")
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", spec, "--hyp",
                           EXAMPLES / "hyp.txt", "--ref", EXAMPLES / "ref.txt",
                           "--no-fixtures", "--no-minimise", "--no-progress")
    assert status == 0, err
    return out


def test_one_printed_decimal_matches_within_its_rounding(capsys):
    out = _audit(capsys, SACREBLEU_B)
    assert "48.9 vs 48.89230224" not in out
    assert "; 0 unexplained)" in out.splitlines()[-1]
    assert f"inferred profile of {SACREBLEU_B}: tokenize=13a smoothing=exp " \
           "(reproduces 5/5 cases" in out


def test_digits_given_win_over_what_is_printed(capsys):
    out = _audit(capsys, SACREBLEU_B + " #digits=2")
    assert "score: 48.9 vs 48.89230224" in out

"""Comparing two results stage by stage (``metricdiff.comparison.stages``).

Every expected value below is written down by hand from the results built in the
test: the stage order is the order in which BLEU and ROUGE produce their
statistics (lengths, counts, totals, precisions, BP, score; totals, matches,
recall, precision, F), so the first differing field is known by inspection.
"""

from __future__ import annotations

import math

import pytest

from metricdiff.comparison.stages import (
    Difference,
    first_difference,
    headline_delta,
    headlines_differ,
)
from metricdiff.impls.base import Tolerance
from metricdiff.statistics import BleuResult, RougeResult

EXACT = Tolerance()
NAN = math.nan


def bleu(**changes: object) -> BleuResult:
    # "the cat sat on the mat" / "the cat is on the mat" under tokenize=none and
    # exp smoothing, counted by hand: matches 5, 3, 1, 0 of 6, 5, 4, 3 n-grams.
    fields: dict[str, object] = {
        "score": 37.99178428257963,
        "precisions": (500 / 6, 60.0, 25.0, 100 / 6),
        "bp": 1.0,
        "sys_len": 6,
        "ref_len": 6.0,
        "counts": (5, 3, 1, 0),
        "totals": (6, 5, 4, 3),
    }
    fields.update(changes)
    return BleuResult(**fields)  # type: ignore[arg-type]


def test_identical_results_have_no_difference() -> None:
    assert first_difference(bleu(), bleu(), EXACT) is None
    rouge = RougeResult(0.5, 0.25, 1 / 3, 1.0, 4.0, 2.0)
    assert first_difference(rouge, rouge, EXACT) is None
    # inf - inf is NaN, beyond any tolerance: equal results are compared as wholes.
    endless = RougeResult(math.inf, 0.25, 1 / 3, 1.0, 4.0, 2.0)
    assert first_difference(endless, RougeResult(math.inf, 0.25, 1 / 3, 1.0, 4.0, 2.0),
                            EXACT) is None


def test_the_earliest_stage_wins_over_later_ones() -> None:
    # counts[1] and the score both differ; counts come before the score.
    a = bleu()
    b = bleu(counts=(5, 2, 1, 0), score=30.0)
    assert first_difference(a, b, EXACT) == Difference("counts[1]", 3.0, 2.0)
    # and from the other side, with the values swapped
    assert first_difference(b, a, EXACT) == Difference("counts[1]", 2.0, 3.0)


def test_lengths_come_before_counts_and_counts_before_totals() -> None:
    # sys_len is the first BLEU statistic; a later count difference is not reported.
    assert first_difference(bleu(), bleu(sys_len=7, counts=(4, 3, 1, 0)), EXACT) == Difference(
        "sys_len", 6.0, 7.0
    )
    # counts[3] (the last count) still comes before totals[0].
    got = first_difference(bleu(), bleu(counts=(5, 3, 1, 1), totals=(7, 5, 4, 3)), EXACT)
    assert got is not None and got.field == "counts[3]"
    # precisions before bp before score
    got = first_difference(bleu(), bleu(bp=0.5, score=1.0, precisions=(1.0, 60.0, 25.0, 1.0)),
                           EXACT)
    assert got is not None and got.field == "precisions[0]"
    got = first_difference(bleu(), bleu(bp=0.5, score=1.0), EXACT)
    assert got is not None and got.field == "bp"


def test_rouge_stage_order() -> None:
    # ROUGE: ref_total, hyp_total, matches, recall, precision, fmeasure.
    a = RougeResult(0.5, 0.25, 1 / 3, 1.0, 4.0, 2.0)
    b = RougeResult(0.5, 0.5, 0.5, 1.0, 2.0, 2.0)  # hyp_total and P and F differ
    assert first_difference(a, b, EXACT) == Difference("hyp_total", 4.0, 2.0)
    c = RougeResult(0.4, 0.25, 1 / 3, 1.0, 4.0, 2.0)  # only recall
    assert first_difference(a, c, EXACT) == Difference("recall", 0.5, 0.4)
    d = RougeResult(0.5, 0.25, 0.3, 1.0, 4.0, 2.0)  # only F
    assert first_difference(a, d, EXACT) == Difference("fmeasure", 1 / 3, 0.3)


def test_a_missing_order_differs_where_it_starts_from_either_side() -> None:
    # Three orders against four, equal on everything the first has except the
    # score: the first statistic that differs is counts[3], which one side lacks
    # (compare.first_difference's docstring), whichever side is passed first.
    three = BleuResult(50.0, (50.0, 50.0, 50.0), 1.0, 4, 4.0, (2, 1, 1), (4, 3, 2))
    four = BleuResult(40.0, (50.0, 50.0, 50.0, 25.0), 1.0, 4, 4.0, (2, 1, 1, 0), (4, 3, 2, 1))
    forward = first_difference(four, three, EXACT)
    backward = first_difference(three, four, EXACT)
    assert forward is not None and backward is not None
    assert forward.field == backward.field == "counts[3]"
    assert forward.a == 0.0 and math.isnan(forward.b)
    assert math.isnan(backward.a) and backward.b == 0.0


def test_equal_within_tolerance_is_no_difference() -> None:
    a = bleu()
    # 1e-12 relative on the score: inside the default relative 1e-9.
    assert first_difference(a, bleu(score=a.score * (1 + 1e-12)), EXACT) is None
    # 0.004 absolute on a precision: inside absolute 0.005, outside the default.
    close = bleu(precisions=(500 / 6 + 0.004, 60.0, 25.0, 100 / 6))
    assert first_difference(a, close, Tolerance(absolute=0.005)) is None
    got = first_difference(a, close, EXACT)
    assert got is not None and got.field == "precisions[0]"
    # a relative tolerance scales with the value: 1 % of 37.99 is 0.38
    assert first_difference(a, bleu(score=38.3), Tolerance(relative=0.01)) is None
    assert first_difference(a, bleu(score=38.5), Tolerance(relative=0.01)) == Difference(
        "score", a.score, 38.5
    )


def test_nan_equals_only_nan() -> None:
    a = RougeResult(NAN, 0.5, NAN)
    assert first_difference(a, RougeResult(NAN, 0.5, NAN), EXACT) is None
    got = first_difference(a, RougeResult(0.0, 0.5, NAN), EXACT)
    assert got is not None and got.field == "recall" and math.isnan(got.a) and got.b == 0.0
    got = first_difference(RougeResult(0.0, 0.5, 0.0), a, EXACT)
    assert got is not None and got.field == "recall"
    # an absolute tolerance does not make NaN equal to a number
    assert first_difference(a, RougeResult(0.0, 0.5, 0.0), Tolerance(absolute=1e9)) is not None


def test_headline_delta_is_the_quoted_number() -> None:
    # BLEU: the score on 0-100; nothing else counts.
    assert headline_delta(bleu(score=40.0), bleu(score=37.5, bp=0.1)) == pytest.approx(2.5)
    assert headline_delta(bleu(score=37.5), bleu(score=40.0)) == pytest.approx(2.5)
    # ROUGE: F on 0-1, not recall.
    a = RougeResult(0.9, 0.5, 0.6)
    b = RougeResult(0.1, 0.5, 0.45)
    assert headline_delta(a, b) == pytest.approx(0.15)
    assert headline_delta(a, a) == 0.0
    assert math.isnan(headline_delta(RougeResult(0.5, 0.5, NAN), a))


def test_headlines_differ() -> None:
    # Statistics may differ while the quoted number agrees.
    assert not headlines_differ(bleu(), bleu(counts=(5, 3, 1, 1)), EXACT)
    assert headlines_differ(bleu(score=40.0), bleu(score=37.5), EXACT)
    assert not headlines_differ(bleu(score=40.0), bleu(score=37.5), Tolerance(absolute=3.0))
    assert not headlines_differ(RougeResult(0.5, 0.5, NAN), RougeResult(0.1, 0.1, NAN), EXACT)
    assert headlines_differ(RougeResult(0.5, 0.5, NAN), RougeResult(0.5, 0.5, 0.5), EXACT)

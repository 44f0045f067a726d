"""BLEU of many sums of statistics at once (``segment_rows.bleu_scores``, a fast
path): equal to the reference's ``bleu_from_statistics`` on every profile it
vectorises (a property test), and, in float32 under sacrebleu's profile, equal to
the last bit to what sacrebleu's own ``BLEU._compute_score_from_stats`` gives for
the same float32 sums (as its ``significance.py`` calls it)."""

from __future__ import annotations

import math

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metricdiff.conclusions.segment_rows import bleu_scores, rows_of
from metricdiff.impls.reference.bleu import bleu_from_statistics
from metricdiff.profiles import BleuOptions, RougeOptions
from metricdiff.statistics import BleuResult, BleuStats, RougeResult

PROFILES = [
    BleuOptions(),
    BleuOptions(smoothing="exp", all_zero="zero"),
    BleuOptions(smoothing="floor"),
    BleuOptions(smoothing="add-k"),
    BleuOptions(smoothing="add-k", smooth_orders="all", smooth_value=0.5),
    BleuOptions(smoothing="epsilon"),
    BleuOptions(smoothing="float-min", empty_bp="zero", all_zero="zero"),
    BleuOptions(smoothing="skip"),
    BleuOptions(empty_order="effective-order", smoothing="exp"),
    BleuOptions(empty_order="ignore"),
    BleuOptions(max_order=2, weights=(0.7, 0.3)),
    BleuOptions(empty_policy="one"),
    BleuOptions(smoothing="cc4"),
]


@st.composite
def statistics(draw):
    """Pooled statistics as segments make them: totals t_n = max(c - n + 1, 0)
    summed, matches at most the totals and never more than the order below (an
    n-gram that matches has matching (n-1)-grams)."""
    lengths = draw(st.lists(st.integers(0, 30), min_size=1, max_size=6))
    totals = [sum(max(c - n, 0) for c in lengths) for n in range(4)]
    matches: list[int] = []
    for total in totals:
        matches.append(draw(st.integers(0, min(total, matches[-1] if matches else total))))
    ref_len = draw(st.integers(0, 200))
    return [sum(lengths), ref_len, *matches, *totals]


@settings(max_examples=300, deadline=None)
@given(st.lists(statistics(), min_size=1, max_size=8), st.sampled_from(PROFILES))
def test_equal_to_the_reference(rows, options):
    orders = options.max_order
    matrix = numpy.array([[r[0], r[1], *r[2:2 + orders], *r[6:6 + orders]] for r in rows],
                         dtype=numpy.float64)
    found = bleu_scores(matrix, options)
    for row, score in zip(rows, found, strict=True):
        stats = BleuStats(tuple(row[2:2 + orders]), tuple(row[6:6 + orders]), row[0],
                          float(row[1]))
        expected = bleu_from_statistics(stats, options).score
        assert score == pytest.approx(expected, rel=1e-9, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(st.lists(statistics(), min_size=1, max_size=8),
       st.sampled_from(["none", "floor", "add-k", "exp"]), st.booleans())
def test_float32_is_sacrebleus_own_arithmetic(rows, method, effective):
    from sacrebleu.metrics.bleu import BLEU

    bleu = BLEU(smooth_method=method, effective_order=effective)
    options = BleuOptions(tokenize="13a", smoothing=method, all_zero="zero",
                          empty_order="effective-order" if effective else "zero")
    sums = numpy.array(rows, dtype=numpy.float32)
    found = bleu_scores(sums, options)
    for row, score in zip(sums, found, strict=True):
        expected = bleu._compute_score_from_stats(row.copy()).score
        assert score == expected or (math.isnan(score) and math.isnan(expected))


def test_rows_say_what_they_were_made_of():
    # multi-bleu.perl prints precisions, not counts: "the cat sat on the mat" vs
    # "the cat sat on a mat" has precisions 5/6, 3/5, 2/4, 1/3 of totals 6, 5, 4, 3.
    printed = BleuResult(53.73, (83.3, 60.0, 50.0, 33.3), 1.0, 6, 6.0, (), (),
                         unknown=frozenset({"counts", "totals"}))
    rows = rows_of([printed], BleuOptions(tokenize="whitespace-ascii"))
    assert rows.recovered and not rows.from_scores
    assert rows.matrix.tolist() == [[6, 6, 5, 3, 2, 1, 6, 5, 4, 3]]
    only_score = BleuResult(53.73, (), math.nan, math.nan, math.nan, (), (),
                            unknown=frozenset({"precisions", "bp", "sys_len", "ref_len",
                                               "counts", "totals"}))
    rows = rows_of([only_score, only_score], BleuOptions())
    assert rows.from_scores and not rows.exact and rows.corpus == pytest.approx(53.73)
    pairs = [RougeResult(0.5, 0.25, 1 / 3, 1, 4, 2), RougeResult(1.0, 1.0, 1.0, 3, 3, 3)]
    macro = rows_of(pairs, RougeOptions(report="f"))
    assert macro.corpus == pytest.approx(100 * (1 / 3 + 1) / 2)
    micro = rows_of(pairs, RougeOptions(report="recall", corpus_average="micro"))
    assert micro.corpus == pytest.approx(100 * 4 / 5)  # pooled: 4 matches of 5 reference units

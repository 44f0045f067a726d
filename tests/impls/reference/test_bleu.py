"""Reference BLEU against values derived by hand from the formulas.

Each expected value is worked out in the comment beside it; none comes from
running the code under test.
"""

from __future__ import annotations

import math
import sys

import pytest

from metricdiff.impls.reference.bleu import (
    brevity_penalty,
    effective_ref_length,
    sentence_bleu,
)
from metricdiff.profiles import BleuOptions

HYP = "a b c d e"  # 5 tokens: 5 unigrams, 4 bigrams, 3 trigrams, 2 4-grams
REF = "a b c x y z"  # 6 tokens; matches: 3 unigrams (a b c), 2 bigrams (a b, b c),
#                      1 trigram (a b c), 0 4-grams


def score(**axes) -> float:
    return sentence_bleu(HYP, [REF], BleuOptions(**axes)).score


def test_brevity_penalty_by_hand():
    # BP = e^(1 - r/c) for c <= r (Papineni §2.3): c=5, r=6 gives e^(1-6/5) = e^-0.2.
    assert brevity_penalty(5, 6) == pytest.approx(math.exp(-0.2), rel=1e-15)
    assert brevity_penalty(7, 6) == 1.0  # c > r
    assert brevity_penalty(6, 6) == 1.0  # c = r: e^0
    assert brevity_penalty(0, 6) == 0.0  # c = 0: the limit of e^(1-r/c)
    assert brevity_penalty(0, 0) == 1.0  # nothing to fall short of
    assert brevity_penalty(0, 0, "zero") == 0.0  # empty_bp=zero: every empty hypothesis
    assert brevity_penalty(0, 6, "zero") == 0.0  # c = 0 < r: the limit, either way


@pytest.mark.parametrize(
    ("lengths", "hyp_len", "axes", "expected"),
    [
        ((4, 6), 5, {}, 4.0),  # tie |4-5| = |6-5|: the shorter wins
        ((6, 4), 5, {"closest_tie": "first"}, 6.0),  # tie: the first listed wins
        ((3, 9), 8, {}, 9.0),  # plainly closest
        ((3, 9), 8, {"ref_length": "shortest"}, 3.0),
        ((3, 9), 8, {"ref_length": "average"}, 6.0),  # (3 + 9) / 2
    ],
)
def test_effective_reference_length(lengths, hyp_len, axes, expected):
    assert effective_ref_length(hyp_len, lengths, BleuOptions(**axes)) == expected


def test_no_smoothing_gives_zero_with_an_empty_order_of_matches():
    # p_4 = 0/2, and the paper's geometric mean of a zero precision is 0.
    assert score() == 0.0


def test_floor_smoothing_by_hand():
    # p = 3/5, 2/4, 1/3, 0.1/2 (floor epsilon 0.1 over total 2); BP = e^-0.2.
    expected = math.exp(-0.2) * (3 / 5 * 2 / 4 * 1 / 3 * 0.1 / 2) ** 0.25
    assert score(smoothing="floor") == pytest.approx(100 * expected, rel=1e-12)


def test_exp_smoothing_by_hand():
    # The first zero order gets 1/(2^1 * total) = 1/4.
    expected = math.exp(-0.2) * (3 / 5 * 2 / 4 * 1 / 3 * 1 / 4) ** 0.25
    assert score(smoothing="exp") == pytest.approx(100 * expected, rel=1e-12)


def test_add_k_smoothing_by_hand():
    # k = 1 added to matches and totals for n > 1: 3/5, 3/5, 2/4, 1/3.
    expected = math.exp(-0.2) * (3 / 5 * 3 / 5 * 2 / 4 * 1 / 3) ** 0.25
    assert score(smoothing="add-k") == pytest.approx(100 * expected, rel=1e-12)
    # smooth_orders=all also turns 3/5 into 4/6 for unigrams.
    expected_all = math.exp(-0.2) * (4 / 6 * 3 / 5 * 2 / 4 * 1 / 3) ** 0.25
    assert score(smoothing="add-k", smooth_orders="all") == pytest.approx(
        100 * expected_all, rel=1e-12
    )


def test_cc4_smoothing_by_hand():
    # invcnt = K / ln(c) = 5 / ln 5 for the first zero order; p_4 = (1/invcnt) / 2.
    p4 = (math.log(5) / 5) / 2
    expected = math.exp(-0.2) * (3 / 5 * 2 / 4 * 1 / 3 * p4) ** 0.25
    assert score(smoothing="cc4") == pytest.approx(100 * expected, rel=1e-12)


def test_cc5_smoothing_by_hand():
    # Matched counts m = 3, 2, 1, 0 and m_5 = 0 (the one 5-gram "a b c d e" misses);
    # totals 5, 4, 3, 2.  m'_0 = m_1 + 1 = 4; m'_1 = (4 + 3 + 2)/3 = 3;
    # m'_2 = (3 + 2 + 1)/3 = 2; m'_3 = (2 + 1 + 0)/3 = 1; m'_4 = (1 + 0 + 0)/3 = 1/3.
    # p = 3/5, 2/4, 1/3, (1/3)/2.
    expected = math.exp(-0.2) * (3 / 5 * 2 / 4 * 1 / 3 * (1 / 3) / 2) ** 0.25
    assert score(smoothing="cc5") == pytest.approx(100 * expected, rel=1e-12)


def test_cc5_keeps_a_perfect_match_at_100():
    # "a b c d e" against itself: m = 5, 4, 3, 2 and m_5 = 1; m'_0 = 6, m'_1 = (6+5+4)/3 = 5,
    # m'_2 = (5+4+3)/3 = 4, m'_3 = (4+3+2)/3 = 3, m'_4 = (3+2+1)/3 = 2: every p_n = 1.
    assert sentence_bleu(HYP, [HYP], BleuOptions(smoothing="cc5")).score == pytest.approx(100.0)


def test_cc6_smoothing_by_hand():
    # n >= 3: P_n = (m_n + 5 P0) / (t_n + 5), P0 = P_{n-1}^2 / P_{n-2}.
    p1, p2 = 3 / 5, 2 / 4
    p3 = (1 + 5 * (p2**2 / p1)) / (3 + 5)
    p4 = (0 + 5 * (p3**2 / p2)) / (2 + 5)
    expected = math.exp(-0.2) * (p1 * p2 * p3 * p4) ** 0.25
    assert score(smoothing="cc6") == pytest.approx(100 * expected, rel=1e-12)


def test_float_min_smoothing_by_hand():
    expected = math.exp(-0.2) * (3 / 5 * 2 / 4 * 1 / 3 * sys.float_info.min) ** 0.25
    assert score(smoothing="float-min") == pytest.approx(100 * expected, rel=1e-9)


def test_epsilon_smoothing_by_hand():
    # pycocoevalcap: (m + 1e-15) / (t + 1e-9) on every order, and BP from
    # ratio = (c + 1e-15) / (r + 1e-9) with c = 5, r = 6: exp(1 - 1 / ratio).
    product = 1.0
    for m, t in ((3, 5), (2, 4), (1, 3), (0, 2)):
        product *= (m + 1e-15) / (t + 1e-9)
    expected = math.exp(1 - (6 + 1e-9) / (5 + 1e-15)) * product**0.25
    assert score(smoothing="epsilon") == pytest.approx(100 * expected, rel=1e-12)


class TestShortHypothesis:
    """"a b" against "a b c": no trigrams or 4-grams exist at all."""

    def run(self, **axes) -> float:
        return sentence_bleu("a b", ["a b c"], BleuOptions(**axes)).score

    def test_zero(self):
        assert self.run(empty_order="zero") == 0.0

    def test_effective_order(self):
        # p1 = p2 = 1; two orders kept, weights 1/2 each; BP = e^(1 - 3/2).
        assert self.run(empty_order="effective-order") == pytest.approx(
            100 * math.exp(-0.5), rel=1e-12
        )

    def test_ignore(self):
        # log p3 = log p4 = 0, still divided by N = 4: exp(0) = 1, times BP.
        assert self.run(empty_order="ignore") == pytest.approx(100 * math.exp(-0.5), rel=1e-12)

    def test_denominator_one(self):
        # totals become max(1, 0) = 1, matches 0: p3 = 0/1, so the score is 0 unsmoothed,
        # and with floor smoothing p3 = p4 = 0.1 / 1.
        assert self.run(empty_order="denominator-one") == 0.0
        assert self.run(empty_order="denominator-one", smoothing="floor") == pytest.approx(
            100 * math.exp(-0.5) * (1 * 1 * 0.1 * 0.1) ** 0.25, rel=1e-12
        )


def test_all_zero_returns_before_smoothing():
    # No unigram matches: floor smoothing would give (0.1/2)^... > 0, all_zero=zero gives 0.
    opts = {"smoothing": "floor", "max_order": 2}
    assert sentence_bleu("x y", ["a b"], BleuOptions(all_zero="zero", **opts)).score == 0.0
    smoothed = sentence_bleu("x y", ["a b"], BleuOptions(all_zero="smooth", **opts)).score
    # p1 = 0.1/2, p2 = 0.1/1, BP = 1 (c = r = 2).
    assert smoothed == pytest.approx(100 * math.sqrt(0.05 * 0.1), rel=1e-12)


@pytest.mark.parametrize(("policy", "expected"), [("zero", 0.0), ("one", 100.0)])
def test_empty_policy(policy, expected):
    assert sentence_bleu("", [""], BleuOptions(empty_policy=policy)).score == expected


def test_empty_policy_error():
    with pytest.raises(ValueError, match="empty"):
        sentence_bleu("", [""], BleuOptions(empty_policy="error"))


def test_missing_and_dropped_references():
    # An empty reference of length 0 is closest to the 1-token hypothesis "a" (|0-1| = |2-1|,
    # tie to the shorter), so r = 0 and BP = 1; dropping it leaves r = 2.
    keep = sentence_bleu("a", ["", "a b"], BleuOptions(max_order=1))
    drop = sentence_bleu("a", ["", "a b"], BleuOptions(max_order=1, empty_reference="dropped"))
    assert keep.ref_len == 0.0 and keep.bp == 1.0
    assert drop.ref_len == 2.0 and drop.bp == pytest.approx(math.exp(1 - 2 / 1))

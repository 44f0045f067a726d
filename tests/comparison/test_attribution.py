"""The Shapley attribution of a gap to convention axes
(``metricdiff.comparison.attribution``, ``metricdiff.comparison.inert``).

Expected contributions are worked out by hand from the definition
φ_i = Σ_S |S|!(n−|S|−1)!/n! · (v(S ∪ {i}) − v(S)), on games whose corner values
are written down by hand too (from the ROUGE-1 formula for the one case that
runs the reference)."""

from __future__ import annotations

import math
from collections.abc import Callable

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metricdiff.comparison.attribution import (
    CONFIDENCE,
    SAMPLED_PERMUTATIONS,
    attribute,
    hoeffding_bound,
    sampled_shapley_values,
    shapley_values,
)
from metricdiff.comparison.inert import inert_axes
from metricdiff.impls.reference import bleu, rouge_corpus
from metricdiff.profiles import BleuOptions
from metricdiff.profiles.metrics import Options, paper_options


def table(values: dict[str, float]) -> Callable[[frozenset[str]], float]:
    """A game given as a table: coalition written as sorted letters -> value."""
    return lambda coalition: values["".join(sorted(coalition))]


def test_two_players_with_an_interaction_split_it_equally():
    # v(∅)=0, v(A)=10, v(B)=0, v(AB)=30: switching B first adds 0, after A it adds
    # 20, so the order matters.  By hand: φ_A = ½[(10−0) + (30−0)] = 20,
    # φ_B = ½[(0−0) + (30−10)] = 10; sum 30 = v(AB) − v(∅).
    game = table({"": 0.0, "A": 10.0, "B": 0.0, "AB": 30.0})
    assert shapley_values(["A", "B"], game) == pytest.approx({"A": 20.0, "B": 10.0})


def test_glove_game():
    # The textbook glove game: A holds a left glove, B and C a right one; a
    # coalition is worth 1 with a pair.  A is pivotal in the 4 of 6 orders where
    # it does not come first → φ_A = 4/6; B is pivotal only in (A, B, C) → 1/6.
    values = {"": 0, "A": 0, "B": 0, "C": 0, "AB": 1, "AC": 1, "BC": 0, "ABC": 1}
    found = shapley_values(["A", "B", "C"], table({k: float(v) for k, v in values.items()}))
    assert found == pytest.approx({"A": 2 / 3, "B": 1 / 6, "C": 1 / 6})


def test_each_coalition_is_scored_once():
    calls: list[frozenset[str]] = []

    def game(coalition: frozenset[str]) -> float:
        calls.append(coalition)
        return float(len(coalition))

    shapley_values(["A", "B", "C"], game)
    # 2^3 coalitions, each asked for once.
    assert sorted(map(sorted, calls)) == sorted(
        map(sorted, [set(), {"A"}, {"B"}, {"C"}, {"A", "B"}, {"A", "C"}, {"B", "C"},
                     {"A", "B", "C"}]))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.floats(-100, 100), min_size=2 ** n, max_size=2 ** n))))
def test_contributions_always_sum_to_the_whole_gap(case):
    # Efficiency, on arbitrary games: Σ φ_i = v(N) − v(∅), to 1e-9.
    size, values = case
    players = [f"p{i}" for i in range(size)]

    def game(coalition: frozenset[str]) -> float:
        return values[sum(1 << players.index(p) for p in coalition)]

    found = shapley_values(players, game)
    assert math.fsum(found.values()) == pytest.approx(values[-1] - values[0], abs=1e-9)


def test_sampling_is_exact_on_an_additive_game_and_bounded():
    # In an additive game every marginal effect of i is w_i, whatever the order,
    # so the sampled value is w_i exactly; 12 players is beyond the exact limit.
    weights = {f"p{i}": float(i) - 5.5 for i in range(12)}
    found = sampled_shapley_values(list(weights), lambda s: sum(weights[p] for p in s), 50)
    assert found == pytest.approx(weights)
    # Hoeffding with a union bound, by hand: ε = W·sqrt(2·ln(2n/δ)/m) with W=100,
    # n=12, δ=0.05, m=2000: sqrt(2·ln(480)/2000) = 0.07857 → 7.857.
    assert hoeffding_bound(100.0, 2000, 12) == pytest.approx(7.857, abs=1e-3)
    assert CONFIDENCE == 0.95 and SAMPLED_PERMUTATIONS == 2000


def test_sampling_on_a_glove_game_stays_within_its_bound():
    # One left glove (L) and 11 right gloves: φ_L = 11/12 (L is pivotal whenever
    # some right glove comes before it), each right glove 1/132.
    rights = [f"r{i}" for i in range(11)]

    def game(coalition: frozenset[str]) -> float:
        return 1.0 if "L" in coalition and coalition & set(rights) else 0.0

    found = sampled_shapley_values(["L", *rights], game, SAMPLED_PERMUTATIONS)
    bound = hoeffding_bound(1.0, SAMPLED_PERMUTATIONS, 12)
    assert abs(found["L"] - 11 / 12) <= bound
    assert math.fsum(found.values()) == pytest.approx(1.0, abs=1e-9)


# ------------------------------------------------------------ on profiles


def test_rouge1_tokenize_and_lowercase_interact():
    # hyp "The cat sat." against ref "the cat sat", ROUGE-1 F, by hand:
    #   tokenize=none, lowercase=none:   [The, cat, sat.] vs [the, cat, sat] → 1 match, F = 1/3
    #   lowercase=unicode only:          [the, cat, sat.] → 2 matches, F = 2/3
    #   tokenize=rouge-score only:       it lowercases and drops '.' → 3 matches, F = 1
    #   both:                            F = 1
    # ×100.  φ_tokenize = ½[(100 − 33.3) + (100 − 66.7)] = 50,
    #        φ_lowercase = ½[(66.7 − 33.3) + (100 − 100)] = 16.67.
    a = attrs.evolve(paper_options("rouge-1"), report="f")
    b = attrs.evolve(a, tokenize="rouge-score", lowercase="unicode")

    def score(options: Options) -> float:
        result = rouge_corpus.corpus_rouge(["The cat sat."], [["the cat sat"]], options)
        return 100.0 * result.fmeasure

    found = attribute(a, b, score)
    assert {c.axis: c.points for c in found.contributions} == pytest.approx(
        {"tokenize": 50.0, "lowercase": 100 / 6})
    assert found.start == pytest.approx(100 / 3) and found.end == pytest.approx(100.0)
    # Largest magnitude first, each with its two values.
    assert [(c.axis, c.before, c.after) for c in found.contributions] == [
        ("tokenize", "none", "rouge-score"), ("lowercase", "none", "unicode")]


def test_dependent_axes_become_one_player_beyond_the_exact_limit():
    # 11 differing axes, a fake score: +10 for tokenize, +4 only when lowercase
    # and lowercase_stage are both switched.  Merged with the axis each depends
    # on, they are 8 players (exact); lowercase,lowercase_stage is one of them and
    # gets the whole 4 by hand.
    a = paper_options("rouge-1")
    b = attrs.evolve(a, tokenize="13a", lowercase="unicode", lowercase_stage="after-tokenize",
                     stemmer="porter-nltk", stem_min_length=2, stopwords="smart",
                     counts="set", f_measure="beta=1.2", rounding="perl-5dp",
                     truncate="words:5", truncate_side="both")

    def score(options: Options) -> float:
        both = options.lowercase == "unicode" and options.lowercase_stage == "after-tokenize"
        return 10.0 * (options.tokenize == "13a") + 4.0 * both

    found = attribute(a, b, score)
    points = {c.axis: c.points for c in found.contributions}
    assert found.method == "exact" and found.error_bound == 0.0
    assert points["tokenize"] == pytest.approx(10.0)
    assert points["lowercase,lowercase_stage"] == pytest.approx(4.0)
    assert math.fsum(points.values()) == pytest.approx(14.0, abs=1e-9)


def test_axes_that_cannot_change_the_variant_are_no_axes_of_the_gap():
    # ROUGE-W's weight and ROUGE-S's skip mean nothing to ROUGE-L.
    a = paper_options("rouge-l")
    b = attrs.evolve(a, weight=1.5, skip=4, tokenize="13a")
    found = attribute(a, b, lambda options: 5.0 * (options.tokenize == "13a"))
    assert [c.axis for c in found.contributions] == ["tokenize"]


def test_inert_axes_are_listed_with_zero_and_never_scored():
    a = BleuOptions()
    b = attrs.evolve(a, ref_length="shortest", tokenize="13a")
    inert = inert_axes(a, b, [["one ref"], ["another"]])
    assert inert == {"ref_length"}
    seen: list[Options] = []

    def score(options: Options) -> float:
        seen.append(options)
        return 1.0 * (options.tokenize == "13a")

    found = attribute(a, b, score, inert=inert)
    assert {c.axis: c.points for c in found.contributions} == {"tokenize": 1.0,
                                                               "ref_length": 0.0}
    assert all(options.ref_length == "closest" for options in seen)


# The inert rules, checked against the reference itself on generated corpora:
# switching an axis the rules call inert never changes the score.
_WORDS = st.sampled_from(["the", "cat", "Cat", "sat", "on", "mat", "a", "dog", "."])
_SEGMENT = st.lists(_WORDS, min_size=1, max_size=8).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(_SEGMENT, _SEGMENT), min_size=1, max_size=4))
def test_inert_rules_hold_for_the_reference(pairs):
    hyps = [h for h, _ in pairs]
    refs = [[r] for _, r in pairs]
    bleu_a = BleuOptions()
    bleu_b = attrs.evolve(bleu_a, ref_length="average", closest_tie="first",
                          empty_reference="dropped", lowercase_stage="after-tokenize")
    assert inert_axes(bleu_a, bleu_b, refs) == {
        "ref_length", "closest_tie", "empty_reference", "lowercase_stage"}
    assert bleu.corpus_bleu(hyps, refs, bleu_a) == bleu.corpus_bleu(hyps, refs, bleu_b)
    rouge_a = paper_options("rouge-l")
    rouge_b = attrs.evolve(rouge_a, multi_ref="best-f", truncate_side="both",
                           stem_min_length=5, lowercase_stage="after-tokenize")
    assert inert_axes(rouge_a, rouge_b, refs) == {
        "multi_ref", "truncate_side", "stem_min_length", "lowercase_stage"}
    assert (rouge_corpus.corpus_rouge(hyps, refs, rouge_a)
            == rouge_corpus.corpus_rouge(hyps, refs, rouge_b))


def test_several_references_make_multi_ref_live():
    a = paper_options("rouge-1")
    b = attrs.evolve(a, multi_ref="best-f")
    assert inert_axes(a, b, [["one", "two"]]) == frozenset()


def test_an_attribution_scored_together_is_the_one_scored_profile_by_profile() -> None:
    # A user's corpus of hundreds of segments: every coalition's profile is
    # scored in one pass (``ReferenceScorer.prepare``).  The oracle: the same
    # attribution, each profile scored alone by the reference's corpus_score.
    from helpers import large_corpus
    from metricdiff.comparison.scorer import ReferenceScorer
    from metricdiff.impls.reference.adapter import ReferenceRougeAdapter
    from metricdiff.profiles import with_overrides
    from metricdiff.profiles.metrics import paper_options

    made, references = large_corpus(ReferenceRougeAdapter.FAST_FROM + 5)
    hyps, refs = tuple(made), tuple(tuple(seg) for seg in references)
    a = paper_options("rouge-1")
    b = with_overrides(a, {"lowercase": "unicode", "counts": "set", "f_measure": "beta=1.2",
                           "corpus_average": "micro"})
    together = ReferenceScorer("rouge-1", (hyps, refs))
    alone = ReferenceScorer("rouge-1", (hyps, refs))
    assert attribute(a, b, together, prepare=together.prepare) == attribute(a, b, alone)
    assert len(together.known) == 2 ** 4  # every coalition, scored in the one pass

"""Greedy minimisation (``metricdiff.findings.shrink``) under synthetic predicates.

The expected minimal forms are derived by hand from the documented rules: each
round judges the candidates (segments dropped, then references dropped, then
token runs of halves ... single tokens, then single characters of texts of at
most 24 characters), only those strictly smaller than the current sample, in
batches of ``BATCH``; the smallest winner of the first batch with a winner is
kept (the first one on ties); rounds repeat until none wins.  Size is the number
of characters plus 10 per text.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metricdiff.findings import shrink
from metricdiff.findings.shrink import BATCH, MAX_CANDIDATES, Sample, minimise, size


class Judge:
    """A predicate on samples that records the batches it was given."""

    def __init__(self, predicate):  # type: ignore[no-untyped-def]
        self.predicate = predicate
        self.batches: list[int] = []
        self.judged: list[Sample] = []

    def __call__(self, samples: Sequence[Sample]) -> list[bool]:
        self.batches.append(len(samples))
        self.judged += samples
        return [bool(self.predicate(sample)) for sample in samples]


def needle_in_hypothesis(sample: Sample) -> bool:
    return any("x" in hyp for hyp in sample[0])


def test_a_needle_is_kept_and_everything_else_goes() -> None:
    start: Sample = (("a b x c d",), (("p q", "r"),))
    judge = Judge(needle_in_hypothesis)
    # By hand, round by round (size = characters + 10 per text; start 9+3+1+30 = 43):
    #  1. dropping reference "p q" saves 13, more than anything else: refs ("r",)
    #  2. token runs of "a b x c d": "x c d" (drop "a b ", -4) is the biggest saving
    #  3. "x c d": dropping "c " or "d" saves 2; "x d" comes first
    #  4. "x d": "x " (drop "d") and "xd" (drop the space) save 1; "x " comes first
    #  5. "x ": its only token run is "" (no needle); next come the references'
    #     token runs: "r" -> "" saves 1, before the characters' "x"
    #  6. "x " -> "x" (a character)
    #  7. nothing smaller holds ("" has no needle; one reference cannot be dropped)
    assert minimise(start, judge) == (("x",), (("",),))
    # one batch per round, and the last round has no winner
    assert len(judge.batches) == 7


def test_segments_and_references_without_the_needle_are_dropped() -> None:
    start: Sample = (
        ("a b", "c x d", "e"),
        (("p", "q q"), ("r x", "s", "t t t"), ("u",)),
    )

    def needle_everywhere(sample: Sample) -> bool:
        hyps, refs = sample
        return any("x" in hyp for hyp in hyps) and any(
            r is not None and "x" in r for seg in refs for r in seg
        )

    # By hand: the only segment with the needle in its hypothesis is the second,
    # and the needle in the references is in that segment's first reference;
    # everything else, and every other character, goes.
    assert minimise(start, Judge(needle_everywhere)) == (("x",), (("x",),))


def test_a_missing_reference_stays_missing() -> None:
    # None (a missing reference) is not a text: nothing is shortened into it and
    # it cannot become one; dropping the other reference is all there is.
    start: Sample = (("a x",), ((None, "b"),))
    assert minimise(start, Judge(needle_in_hypothesis)) == (("x",), ((None,),))


def test_the_result_always_holds_for_a_non_monotone_predicate() -> None:
    # Holds when the hypothesis has an odd number of tokens, so most candidates fail.
    def odd(sample: Sample) -> bool:
        return len(sample[0][0].split()) % 2 == 1

    start: Sample = (("a b c d e f g",), (("h i j", "k"),))
    judge = Judge(odd)
    got = minimise(start, judge)
    assert odd(got)
    # By hand: the token runs of 7 tokens are 3 wide (7 // 2), then 1 wide (3 // 2),
    # so a run removal leaves 7 - 3 = 4 or 7 - 1 = 6 tokens, and a
    # character removal either empties a token or joins two: 6 tokens.  All even:
    # the hypothesis cannot shrink greedily (two tokens are never removed at once).
    # The references: "h i j" is dropped (-15), then "k" -> "" (-1).
    assert got == (("a b c d e f g",), (("",),))


@settings(max_examples=40, deadline=None, database=None)
@given(
    hyps=st.lists(st.text(alphabet="ab x", max_size=12), min_size=1, max_size=3),
    salt=st.integers(0, 2**16),
)
def test_never_returns_a_sample_that_does_not_hold(hyps: list[str], salt: int) -> None:
    refs = tuple(("a b", "x") for _ in hyps)
    start: Sample = (tuple(hyps), refs)

    def arbitrary(sample: Sample) -> bool:  # a fixed pseudo-random verdict per sample
        return sample == start or zlib.crc32(repr((salt, sample)).encode()) % 3 == 0

    judge = Judge(arbitrary)
    got = minimise(start, judge)
    assert arbitrary(got)
    assert got == start or got in judge.judged  # it was judged, and held
    assert size(got) <= size(start)
    assert all(1 <= n <= BATCH for n in judge.batches)


def test_candidates_come_in_batches_of_at_most_batch() -> None:
    # 40 tokens (more than 24 characters: no character candidates): 2 + 4 + 8 + 20
    # + 40 token runs (widths 20, 10, 5, 2, 1), and the reference "r" -> "" (its
    # character candidate is the same text, judged once): 75 candidates; none
    # holds, so one round of two batches: BATCH and the rest.
    hypothesis = " ".join(f"w{i}" for i in range(40))
    start: Sample = ((hypothesis,), (("r",),))
    judge = Judge(lambda sample: False)
    assert minimise(start, judge) == start
    assert judge.batches == [BATCH, 75 - BATCH]


def test_the_number_of_candidates_judged_is_bounded() -> None:
    # A needle at the end of 400 tokens: many rounds; never more than
    # MAX_CANDIDATES judged in all, never more than BATCH at a time.
    hypothesis = " ".join(["a"] * 400 + ["x"])
    judge = Judge(needle_in_hypothesis)
    got = minimise(((hypothesis,), (("r",),)), judge)
    assert needle_in_hypothesis(got)
    assert sum(judge.batches) <= MAX_CANDIDATES
    assert max(judge.batches) <= BATCH


def test_a_round_makes_only_the_candidates_it_judges(monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus of 300 segments has thousands of candidates a round (by hand:
    299 runs of segments dropped, halves to singles, then token runs of each of
    its 600 texts), each as long as the corpus.  With 8 judgements to spend, 4
    at a time, the first round's first candidate (the first half dropped) wins
    and the second round's 4 lose: 8 candidates are made and judged, and each
    is sized once, with the two samples and the one winner."""
    made: list[Sample] = []
    real = shrink.size

    def counted(sample: Sample) -> int:
        made.append(sample)
        return real(sample)

    monkeypatch.setattr(shrink, "size", counted)
    monkeypatch.setattr(shrink, "MAX_CANDIDATES", 8)
    hyps = tuple(f"the cat sat on mat {i}" for i in range(300))
    refs = tuple((f"a cat sat on the mat {i}",) for i in range(300))
    judge = Judge(lambda sample: sample == (hyps[150:], refs[150:]))
    assert shrink.minimise((hyps, refs), judge, first_batch=4) == (hyps[150:], refs[150:])
    assert judge.batches == [4, 4]
    assert len(made) == 8 + 2 + 1


def test_batches_can_start_small_and_double() -> None:
    # The same 75 candidates as above (none holds), first batch 8: by hand the
    # widths double, 8 + 16 + 32, and the rest, 75 - 56 = 19, comes last.
    hypothesis = " ".join(f"w{i}" for i in range(40))
    start: Sample = ((hypothesis,), (("r",),))
    judge = Judge(lambda sample: False)
    assert minimise(start, judge, first_batch=8) == start
    assert judge.batches == [8, 16, 32, 19]


def test_a_small_first_batch_reaches_the_same_needle() -> None:
    # The first test's case and predicate: the minimal form, derived by hand there,
    # does not depend on how a round's candidates are cut into batches.
    start: Sample = (("a b x c d",), (("p q", "r"),))
    assert minimise(start, Judge(needle_in_hypothesis), first_batch=1) == (("x",), (("",),))


def test_an_earlier_example_is_tried_first_smallest_first_in_one_batch() -> None:
    from metricdiff.findings.minimise import smallest_holding

    start: Sample = (("a b x c d e f",), (("p q r",),))
    known: list[Sample] = [
        (("x y",), (("",),)),  # size 3 + 20 = 23: holds
        (("x",), (("",),)),  # 1 + 20 = 21: holds, the smallest that does
        (("y",), (("",),)),  # 21 as well, no needle: does not hold
        start,  # not smaller than the start: never judged
    ]
    judge = Judge(needle_in_hypothesis)
    assert smallest_holding(known, start, judge) == (("x",), (("",),))
    assert judge.batches == [3]
    assert smallest_holding([], start, judge) is None


def test_the_budget_counts_judgements_and_names_the_findings_it_cut() -> None:
    from metricdiff.findings.minimise import Budget

    # Two judgements allowed: the first two calls are granted, whoever asks;
    # finding 3's second call and finding 4's call are refused, so both were cut.
    budget = Budget(left=2)
    budget.finding = 1
    assert budget.spend()
    budget.finding = 3
    assert budget.spend()
    assert not budget.spend()
    budget.finding = 4
    assert not budget.spend()
    assert budget.cut == {3, 4}

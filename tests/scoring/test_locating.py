"""``scoring.locating.with_segment_named``: which segment of a corpus raises an
implementation's exception.  The expected segments follow from the rules of
``fake_adapters.PickyAdapter``, written out by hand in each test."""

from __future__ import annotations

import math
from pathlib import Path

import attrs
import pytest

import fake_adapters
from metricdiff.profiles import with_overrides
from metricdiff.profiles.metrics import paper_options
from metricdiff.scoring.isolated import Request, score_requests
from metricdiff.scoring.locating import with_segment_named

NO_HANG = fake_adapters.NO_HANG


def located(hyps: list[str]) -> str:
    """The error ``with_segment_named`` gives the corpus ``hyps``."""
    request = Request(fake_adapters.PickyAdapter(), "rouge-1",
                      [(tuple(hyps), tuple(("a reference",) for _ in hyps))])
    [[outcome]] = score_requests([request], timeout=NO_HANG)
    assert outcome.raised is not None and outcome.raised.type == "KeyError"
    [told] = with_segment_named([request], [outcome], timeout=NO_HANG, workers=2)
    return told.error


def fine(count: int) -> list[str]:
    return [f"fine text {i}" for i in range(count)]


@pytest.mark.parametrize("position", [0, 1, 36, 62, 63])
def test_the_segment_that_raises_alone_is_named_wherever_it_is(position: int) -> None:
    hyps = fine(64)
    hyps[position] = "BAD"  # the only segment that raises: every corpus holding it raises
    assert located(hyps).endswith(f"(segment {position + 1} raises it alone)")


def test_the_first_segment_that_raises_is_named_when_two_do() -> None:
    hyps = fine(40)
    hyps[9] = hyps[30] = "BAD"  # the shortest prefix that raises ends with segment 10
    assert located(hyps).endswith("(segment 10 raises it alone)")


def test_an_exception_of_two_segments_together_is_no_segment_alone() -> None:
    hyps = fine(20)
    hyps[4], hyps[15] = "X", "Y"  # neither raises alone
    assert located(hyps).endswith("(no segment raises it alone)")


def test_where_the_halving_ends_on_a_pair_each_segment_is_scored_alone() -> None:
    # Cut in four, X, Y and Z each fall in a piece of four segments that does not
    # raise (X and Y only raise together, Z only alone): every segment is then
    # scored alone, and Z (segment 12) raises.
    hyps = fine(16)
    hyps[2], hyps[5], hyps[11] = "X", "Y", "Z"
    assert located(hyps).endswith("(segment 12 raises it alone)")


@pytest.fixture
def calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file ``PickyAdapter`` writes the size of each corpus it is given to."""
    written = tmp_path / "calls.txt"
    monkeypatch.setenv("METRICDIFF_FAKE_CALLS", str(written))
    return written


def sizes_in(calls: Path) -> list[int]:
    """The sizes written so far, and a fresh file for the next ones."""
    sizes = [int(line) for line in calls.read_text(encoding="utf-8").split()]
    calls.unlink()
    return sizes


def bad_at_199() -> Request:
    hyps = fine(500)
    hyps[198] = "BAD"
    return Request(fake_adapters.PickyAdapter(), "rouge-1",
                   [(tuple(hyps), tuple(("a reference",) for _ in hyps))])


def test_the_search_scores_fewer_segments_than_each_alone_would(calls: Path) -> None:
    assert located(list(bad_at_199().cases[0][0])).endswith("(segment 199 raises it alone)")
    sizes = sizes_in(calls)
    assert sizes[0] == 500 and sizes[-1] == 1  # the corpus first, the segment last
    # Cut in four each round: 500, 125, 32, 8, 2, then single segments: five
    # rounds of at most four calls, 667 segments in all (500 alone would be 500 calls).
    assert len(sizes) - 1 <= 4 * math.ceil(math.log(500, 4)), sizes
    assert sum(sizes[1:]) <= 500 + 125 + 32 + 8 + 2, sizes


def test_one_search_serves_every_metric_that_raised_the_same_error(calls: Path) -> None:
    request = bad_at_199()
    crashed = [c[0] for c in score_requests([request, request], timeout=NO_HANG)]
    sizes_in(calls)
    alone = with_segment_named([request], crashed[:1], timeout=NO_HANG, workers=2)
    one = len(sizes_in(calls))
    told = with_segment_named([request, request], crashed, timeout=NO_HANG, workers=2)
    assert [t.error for t in told] == [alone[0].error] * 2
    assert alone[0].error.endswith("(segment 199 raises it alone)")
    # the second request's segment 199 checked alone: one call more than one search
    assert len(sizes_in(calls)) == one + 1


def test_a_metric_that_dies_elsewhere_on_a_corpus_as_long_gets_its_own_search() -> None:
    # Two corpora of 30 segments, the same error: the first search names segment
    # 8, which is fine in the second corpus; the second's own search names 21.
    first, second = fine(30), fine(30)
    first[7], second[20] = "BAD", "BAD"
    requests = [Request(fake_adapters.PickyAdapter(), "rouge-1",
                        [(tuple(hyps), tuple(("a reference",) for _ in hyps))])
                for hyps in (first, second)]
    crashed = [c[0] for c in score_requests(requests, timeout=NO_HANG)]
    assert crashed[0].error == crashed[1].error
    told = with_segment_named(requests, crashed, timeout=NO_HANG, workers=2)
    assert told[0].error.endswith("(segment 8 raises it alone)")
    assert told[1].error.endswith("(segment 21 raises it alone)")


# The suspect: the first segment whose hypothesis or a reference the request's
# tokenizer empties.  Under ``tokenize=rouge155`` (ROUGE-1.5.5's: ASCII letters and
# digits only) "Земля" has no token left, and PickyAdapter raises ZeroDivisionError
# on a reference with no ASCII letter.
ASCII_ONLY = with_overrides(paper_options("rouge-1"), {"tokenize": "rouge155"})


def suspected(hyps: list[str], refs: list[str]) -> str:
    """The error ``with_segment_named`` gives the corpus under ``ASCII_ONLY``."""
    request = Request(fake_adapters.PickyAdapter(), "rouge-1",
                      [(tuple(hyps), tuple((ref,) for ref in refs))], ASCII_ONLY)
    [[outcome]] = score_requests([request], timeout=NO_HANG)
    assert outcome.raised is not None
    [told] = with_segment_named([request], [outcome], timeout=NO_HANG, workers=2)
    return told.error


def test_the_segment_the_tokenizer_empties_is_checked_first(calls: Path) -> None:
    refs = ["a reference"] * 500
    refs[198] = refs[300] = "Земля"  # both raise; 199 is the first
    assert suspected(fine(500), refs).endswith("(segment 199 raises it alone)")
    # the corpus, then one call: segment 199 alone
    assert sorted(sizes_in(calls)) == [1, 500]


def test_a_suspect_that_does_not_raise_alone_leaves_it_to_the_narrowing(calls: Path) -> None:
    hyps, refs = fine(40), ["a reference"] * 40
    hyps[4] = "Земля"  # emptied, but a hypothesis: PickyAdapter takes it
    hyps[29] = "BAD"
    assert suspected(hyps, refs).endswith("(segment 30 raises it alone)")
    sizes = sizes_in(calls)
    assert sizes[1] == 1  # the suspect first: 5 alone, then the narrowing's quarters
    assert sizes[2:6] == [10, 10, 10, 10]


def test_a_suspect_that_raises_alone_is_named_without_checking_the_segments_before() -> None:
    # Segment 10's reference is emptied and raises alone.  Segment 3's reference
    # "123" keeps a token under rouge155 (no suspect) and has no letter, so
    # PickyAdapter raises on it too; the segments before the suspect are not
    # checked, and segment 10, which does raise alone, is named: true, and the
    # one the tokenizer explains.
    refs = ["a reference"] * 20
    refs[2], refs[9] = "123", "Земля"
    assert suspected(fine(20), refs) == (
        "ZeroDivisionError: a reference with no token (segment 10 raises it alone)")


def test_the_first_checks_scored_with_the_corpus_are_not_scored_again(
        calls: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: ``compare`` foresees that pyrouge dies on a corpus where the
    reference under pyrouge's profile refuses a segment, and scores the search's
    first case (the suspect alone) with the corpus,
    beside the other implementations, instead of after all of them.  The search
    then takes their outcomes and scores nothing more."""
    from metricdiff.scoring import locating
    from metricdiff.scoring.locating import first_checks

    refs = ["a reference"] * 500
    refs[198] = refs[300] = "Земля"  # both raise; 199 is the first
    corpus = (tuple(fine(500)), tuple((ref,) for ref in refs))
    checks = first_checks(corpus, ASCII_ONLY)
    # segment 199 alone, by hand
    assert checks == [(("fine text 198",), (("Земля",),))]
    request = Request(fake_adapters.PickyAdapter(), "rouge-1", [corpus], ASCII_ONLY)
    [found] = score_requests([attrs.evolve(request, cases=[corpus, *checks])], timeout=NO_HANG)
    assert sorted(sizes_in(calls)) == [1, 500]

    def no_more(*args: object, **kwargs: object) -> None:
        raise AssertionError("scored again")

    monkeypatch.setattr(locating, "score_requests", no_more)
    known = {(0, case): outcome for case, outcome in zip(checks, found[1:], strict=True)}
    [told] = with_segment_named([request], found[:1], timeout=NO_HANG, workers=2, known=known)
    assert told.error.endswith("(segment 199 raises it alone)")


def test_a_corpus_without_a_suspect_has_no_first_checks() -> None:
    from metricdiff.scoring.locating import first_checks

    corpus = (tuple(fine(10)), tuple(("a reference",) for _ in range(10)))
    assert first_checks(corpus, ASCII_ONLY) == []  # every text keeps an ASCII token
    one = (("Земля",), (("Земля",),))
    assert first_checks(one, ASCII_ONLY) == []  # one segment: the corpus is the segment

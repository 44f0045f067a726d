"""The result types every implementation returns, the reference and the adapters
alike, so that two results can be compared stage by stage."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

#: What a statistic the implementation did not report holds (see ``unknown``):
#: one NaN object, so that two results with the same gaps still compare equal.
MISSING = math.nan


#: The ``unknown`` of a result that reports everything: one object for all of them
#: (an empty frozenset made per result costs 216 bytes, and a large audit's
#: reports read millions of results back).
_ALL_REPORTED: frozenset[str] = frozenset()


def _unreported(data: dict[str, Any]) -> frozenset[str]:
    """The fields of a ``to_json`` that are null: statistics not reported."""
    missing = [key for key, value in data.items() if value is None]
    return frozenset(missing) if missing else _ALL_REPORTED


def _number(value: Any) -> Any:
    return MISSING if value is None else value


def _numbers(value: Any) -> tuple[Any, ...]:
    return () if value is None else tuple(value)


def _with_gaps(data: dict[str, Any], unknown: frozenset[str],
               resolution: float = 0.0) -> dict[str, Any]:
    """``data`` with the unreported statistics written as null, and the
    headline's ``resolution`` when it has one (only then: it is no statistic)."""
    shown = {key: None if key in unknown else value for key, value in data.items()}
    if resolution:
        shown[RESOLUTION] = resolution
    return shown


#: The key of ``to_json`` that holds a printed headline's resolution: not a
#: statistic, so what lists a result's statistics leaves it out.
RESOLUTION = "resolution"


def statistics_of(data: dict[str, Any]) -> dict[str, Any]:
    """A ``to_json`` without its ``resolution``: the statistics alone."""
    return {key: value for key, value in data.items() if key != RESOLUTION}


@attrs.frozen
class BleuStats:
    """BLEU's sufficient statistics (spec clause BLEU-STATS).

    They add up over segments, so a corpus score needs only their sum:
    ``matches[n-1]`` is the clipped n-gram match count, ``totals[n-1]`` the
    number of hypothesis n-grams, ``hyp_len`` is c and ``ref_len`` is r.
    """

    matches: tuple[int, ...]
    totals: tuple[int, ...]
    hyp_len: int
    ref_len: float

    @classmethod
    def zero(cls, orders: int) -> BleuStats:
        return cls((0,) * orders, (0,) * orders, 0, 0.0)

    def __add__(self, other: BleuStats) -> BleuStats:
        return BleuStats(
            tuple(a + b for a, b in zip(self.matches, other.matches, strict=True)),
            tuple(a + b for a, b in zip(self.totals, other.totals, strict=True)),
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
        )


@attrs.frozen
class BleuResult:
    """A BLEU score with everything behind it, on sacrebleu's 0-100 scale.

    ``counts`` and ``totals`` are the clipped matches and n-gram totals before
    smoothing; ``precisions`` are the (smoothed) modified precisions p_n x 100;
    ``bp`` is the brevity penalty.  ``unknown`` names the statistics the
    implementation did not report (a user's own may give the score alone): they
    hold placeholders (``MISSING``, or ``()`` per order), are never compared, and
    ``to_json`` writes them as null.
    """

    score: float
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: float
    counts: tuple[float, ...]
    totals: tuple[float, ...]
    unknown: frozenset[str] = attrs.field(default=frozenset(), kw_only=True)
    #: The unit of the last decimal the score was printed with, on this scale
    #: (0.1 for a program's "48.9"), or 0 for a number as computed: a printed
    #: number stands for anything within half a unit of it (``comparison.stages``).
    resolution: float = attrs.field(default=0.0, kw_only=True)

    @property
    def headline(self) -> float:
        """The one number people quote: the BLEU score."""
        return self.score

    def to_json(self) -> dict[str, Any]:
        return _with_gaps({
            "score": self.score,
            "precisions": list(self.precisions),
            "bp": self.bp,
            "sys_len": self.sys_len,
            "ref_len": self.ref_len,
            "counts": list(self.counts),
            "totals": list(self.totals),
        }, self.unknown, self.resolution)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BleuResult:
        """The result ``to_json`` gave (numbers keep their int or float type)."""
        return cls(
            data["score"],
            _numbers(data["precisions"]),
            _number(data["bp"]),
            _number(data["sys_len"]),
            _number(data["ref_len"]),
            _numbers(data["counts"]),
            _numbers(data["totals"]),
            unknown=_unreported(data),
            resolution=data.get(RESOLUTION, 0.0),
        )


@attrs.frozen
class RougeResult:
    """A ROUGE score on the 0-1 scale with the counts behind it.

    ``matches`` is what hypothesis and reference share (clipped n-gram matches,
    LCS length, weighted LCS, skip-bigram matches); ``hyp_total`` and ``ref_total``
    are the denominators of precision and recall.  For a multi-reference or corpus
    result they are the counts of the pairs that the aggregation used.  ``unknown``:
    the statistics not reported, as in ``BleuResult``.
    """

    recall: float
    precision: float
    fmeasure: float
    matches: float = 0.0
    hyp_total: float = 0.0
    ref_total: float = 0.0
    unknown: frozenset[str] = attrs.field(default=frozenset(), kw_only=True)
    #: As ``BleuResult.resolution``, of F.
    resolution: float = attrs.field(default=0.0, kw_only=True)

    @property
    def headline(self) -> float:
        """The number shown in tables: F (the ``report`` axis says what a paper
        quotes)."""
        return self.fmeasure

    def to_json(self) -> dict[str, Any]:
        return _with_gaps({
            "recall": self.recall,
            "precision": self.precision,
            "fmeasure": self.fmeasure,
            "matches": self.matches,
            "hyp_total": self.hyp_total,
            "ref_total": self.ref_total,
        }, self.unknown, self.resolution)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RougeResult:
        """The result ``to_json`` gave (numbers keep their int or float type)."""
        return cls(
            _number(data["recall"]),
            _number(data["precision"]),
            data["fmeasure"],
            _number(data["matches"]),
            _number(data["hyp_total"]),
            _number(data["ref_total"]),
            unknown=_unreported(data),
            resolution=data.get(RESOLUTION, 0.0),
        )


def summed_counts(results: Sequence[RougeResult]) -> tuple[float, float, float]:
    """Matches, hypothesis and reference totals, each summed over ``results``
    (several references of a segment, or the segments of a corpus)."""
    return (
        math.fsum(r.matches for r in results),
        math.fsum(r.hyp_total for r in results),
        math.fsum(r.ref_total for r in results),
    )

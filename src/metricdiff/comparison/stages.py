"""Comparing two results stage by stage, so a difference is localised to where it
starts: lengths and counts before precisions, precisions before the score."""

from __future__ import annotations

import math
from collections.abc import Iterator

import attrs

from metricdiff.impls.base import Tolerance
from metricdiff.profiles.metrics import Result
from metricdiff.statistics import BleuResult

#: The order in which statistics are produced, so the first differing one is the
#: earliest stage that went its own way.
BLEU_STAGES = ("sys_len", "ref_len", "counts", "totals", "precisions", "bp", "score")
ROUGE_STAGES = ("ref_total", "hyp_total", "matches", "recall", "precision", "fmeasure")
#: ROUGE's counts: the stages before any score.
ROUGE_COUNTS = frozenset(ROUGE_STAGES[:3])


@attrs.frozen
class Difference:
    """The first statistic on which two results differ, e.g. ``counts[2]``."""

    field: str
    a: float
    b: float

    def __str__(self) -> str:
        return f"{self.field}: {self.a:.10g} vs {self.b:.10g}"


def stages(result: Result) -> tuple[str, ...]:
    return BLEU_STAGES if isinstance(result, BleuResult) else ROUGE_STAGES


def _flatten(result: Result, skip: frozenset[str] = frozenset()) -> Iterator[tuple[str, float]]:
    """Every statistic of ``result`` as (field, value), in stage order, but for
    the stages in ``skip``."""
    data = result.to_json()
    for stage in stages(result):
        if stage in skip:
            continue
        value = data[stage]
        if isinstance(value, list):
            for index, item in enumerate(value):
                yield f"{stage}[{index}]", float(item)
        else:
            yield stage, float(value)


def printed(tolerance: Tolerance, a: Result, b: Result) -> Tolerance:
    """``tolerance`` for the headlines of ``a`` and ``b``: at least half a unit of
    the last decimal either was printed with (``resolution``: a program's "48.9"
    stands for anything from 48.85 to 48.95)."""
    half = max(a.resolution, b.resolution) / 2
    if half <= tolerance.absolute:
        return tolerance
    return attrs.evolve(tolerance, absolute=half)


def _same(a: float, b: float, tolerance: Tolerance) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return tolerance.allows(a, b, 0.0)


def first_difference(a: Result, b: Result, tolerance: Tolerance) -> Difference | None:
    """The earliest statistic on which ``a`` and ``b`` differ beyond ``tolerance``
    (counts with a different number of orders differ at the first missing one).
    A statistic either side did not report (``unknown``) is not compared.
    Equal results have none (an infinite statistic equals itself), which the
    audit's explaining asks a hundred thousand times a metric."""
    if a == b:
        return None
    unreported = a.unknown | b.unknown
    left, right = dict(_flatten(a, unreported)), dict(_flatten(b, unreported))
    order = stages(a)
    headline = order[-1]
    at_headline = printed(tolerance, a, b)

    def position(field: str) -> tuple[int, int]:
        stage, _, index = field.partition("[")
        return order.index(stage), int(index.rstrip("]") or -1)

    # In stage order on both sides, so a missing order is found where it starts.
    # ``_flatten`` yields stage order already: sorting is needed only when the
    # two sides report different fields.
    fields = list(left) if left.keys() == right.keys() else sorted(
        set(left) | set(right), key=position
    )
    for field in fields:
        if field not in left or field not in right:
            return Difference(field, left.get(field, math.nan), right.get(field, math.nan))
        if not _same(left[field], right[field],
                     at_headline if field == headline else tolerance):
            return Difference(field, left[field], right[field])
    return None


def headline_delta(a: Result, b: Result) -> float:
    """|a - b| on the number people quote (BLEU score 0-100, ROUGE F 0-1)."""
    return abs(a.headline - b.headline)


def headlines_differ(a: Result, b: Result, tolerance: Tolerance) -> bool:
    """Whether the quoted numbers differ: what a user of both would trip over."""
    return quoted_differ(a.headline, b.headline, printed(tolerance, a, b))


def quoted_differ(a: float, b: float, tolerance: Tolerance) -> bool:
    """``headlines_differ`` on the two headlines alone."""
    return not _same(a, b, tolerance)

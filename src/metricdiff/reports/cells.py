"""How a report writes what it shows, the same in report.md and report.html: a
number in points, a finding's implementations, an example's segments and the
cases a finding lists."""

from __future__ import annotations

from metricdiff.findings.finding import FAILURES, Example, Finding
from metricdiff.findings.pairs import PairCause

#: How many of a finding's case IDs report.json lists (the audit folder's
#: findings.json has them all).
CASES_LISTED = 3


def implementations(finding: Finding) -> str:
    """``a vs b``, or ``a`` alone for a failure."""
    return f"{finding.impl_a} vs {finding.impl_b}" if finding.impl_b else finding.impl_a


def number(value: float | None) -> str:
    """A headline number or difference, short: four significant digits."""
    return "–" if value is None else f"{value:.4g}"


def points(value: float | None) -> str:
    """A number in points, as papers print them: two decimals."""
    return "–" if value is None else f"{value:.2f}"


def largest(finding: Finding, scale: float = 1.0) -> str:
    """A finding's largest difference in points (``scale``: what a headline
    difference is multiplied by); none for a run that gave no result."""
    return "–" if finding.kind in FAILURES else points(finding.max_delta * scale)


def example_texts(example: Example) -> list[tuple[int, str | None, tuple[str | None, ...]]]:
    """The example's segments: each one's number (from 1, in the whole case),
    hypothesis and references."""
    numbers = example.shown or tuple(range(1, len(example.hyps) + 1))
    return list(zip(numbers, example.hyps, example.refs, strict=True))


def excerpt_note(example: Example) -> str:
    """What an excerpt shows of its case: ``3 of 332 segments of h.txt:corpus``."""
    if not example.segments:
        return ""
    return (f"{len(example.hyps)} of {example.segments} segments of {example.case_id} "
            "(the shrinking budget ran out; the most telling shown)")


def headlines(finding: Finding | PairCause, scale: float) -> tuple[str, str]:
    """Each side's headline number on the example, in points (``–`` for none),
    with as many decimals as it takes to tell two different numbers apart."""
    example = finding.example
    values = [None if r is None else r.headline * scale
              for r in (example.result_a, example.result_b)]
    a, b = values
    for decimals in range(2, 13):
        shown = ["–" if v is None else f"{v:.{decimals}f}" for v in values]
        if a is None or b is None or a == b or shown[0] != shown[1]:
            break
    return shown[0], shown[1]


def listed_cases(finding: Finding) -> tuple[tuple[str, ...], int]:
    """The first ``CASES_LISTED`` of a finding's case IDs, and how many more it has."""
    return finding.cases[:CASES_LISTED], max(0, len(finding.cases) - CASES_LISTED)


def anchor(metric: str, index: int) -> str:
    """The HTML id of a metric's ``index``-th finding's example (from 1)."""
    return f"example-{metric}-{index}"

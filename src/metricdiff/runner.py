"""Running fixture cases through implementations and judging the results.

A case's options are the axes its expected value depends on; they are applied on
top of each implementation's declared default profile, so every implementation is
judged as its users would run it with those few choices pinned.  An implementation
that cannot honour a pinned axis is "n/a" for that case, not a failure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from metricdiff.adapters import AdapterUnavailable, AnyAdapter, UnsupportedOption
from metricdiff.adapters.base import Tolerance
from metricdiff.conventions import ConventionError
from metricdiff.fixtures import Case, Expectation
from metricdiff.metrics import Result

EXACT = Tolerance()

#: Outcome statuses, by what they mean for the implementation.
PASS, FAIL, MATCHES, DIFFERS, REFUSED, ACCEPTED, NOT_APPLICABLE, CRASH = (
    "pass", "FAIL", "matches", "differs", "refused", "ACCEPTED", "n/a", "crash",
)


@attrs.frozen
class Outcome:
    """One implementation on one expectation of one case."""

    case_id: str
    impl: str
    when: Mapping[str, str]
    status: str
    detail: str
    result: Result | None = None
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.case_id,
            "impl": self.impl,
            "when": dict(self.when),
            "status": self.status,
            "detail": self.detail,
            "signature": self.signature,
            "result": None if self.result is None else self.result.to_json(),
        }


def _close(expected: Any, actual: Any, tolerance: Tolerance, floor: float) -> bool:
    if isinstance(expected, list):
        return (
            isinstance(actual, Sequence)
            and len(expected) == len(actual)
            and all(_close(e, a, tolerance, floor) for e, a in zip(expected, actual, strict=True))
        )
    if isinstance(actual, float) and math.isnan(actual):
        return False
    return tolerance.allows(float(expected), float(actual), floor)


def mismatches(
    result: Result, expectation: Expectation, tolerance: Tolerance = EXACT
) -> list[str]:
    """The expected fields ``result`` misses, each as ``field: expected X, got Y``;
    the case's tolerance and the implementation's stated one both apply."""
    actual = result.to_json()
    problems = []
    for field, expected in expectation.values.items():
        if field not in actual:
            problems.append(f"{field}: not a result field")
        elif not _close(expected, actual[field], tolerance, expectation.tolerance):
            problems.append(f"{field}: expected {expected}, got {actual[field]}")
    return problems


def _judge(
    case: Case, expectation: Expectation, result: Result, tolerance: Tolerance
) -> tuple[str, str]:
    problems = mismatches(result, expectation, tolerance)
    if case.verdict_class == "reject":
        return ACCEPTED, f"returned score {result.headline} instead of refusing"
    if case.verdict_class == "must":
        return (FAIL, "; ".join(problems)) if problems else (PASS, "")
    return (DIFFERS, "; ".join(problems)) if problems else (MATCHES, "")


def run_expectation(case: Case, expectation: Expectation, adapter: AnyAdapter) -> Outcome:
    """Score the case under the adapter's profile plus the case's pinned axes."""
    overrides = {**case.options, **expectation.when}
    base = Outcome(case.id, adapter.name, expectation.when, NOT_APPLICABLE, "")
    try:
        options = adapter.options(case.metric, overrides)
    except UnsupportedOption as error:
        return attrs.evolve(base, detail=str(error))
    except ConventionError as error:
        if case.verdict_class == "reject":
            return attrs.evolve(base, status=REFUSED, detail=str(error))
        return attrs.evolve(base, status=CRASH, detail=f"bad fixture options: {error}")
    signature = adapter.signature(case.metric, options)
    try:
        result = adapter.corpus_score(case.metric, case.hyps, case.refs, options)
    except (AdapterUnavailable, UnsupportedOption) as error:
        return attrs.evolve(base, detail=str(error), signature=signature)
    except Exception as error:  # a peer that raises is a finding, not our crash
        status = REFUSED if case.verdict_class == "reject" else CRASH
        return attrs.evolve(
            base, status=status, detail=f"{type(error).__name__}: {error}", signature=signature
        )
    status, detail = _judge(case, expectation, result, adapter.tolerance)
    return Outcome(case.id, adapter.name, expectation.when, status, detail, result, signature)


def run_cases(cases: Iterable[Case], adapters: Sequence[AnyAdapter]) -> list[Outcome]:
    """Every expectation of every case through every adapter."""
    return [
        run_expectation(case, expectation, adapter)
        for case in cases
        for expectation in case.expectations
        for adapter in adapters
        if case.metric in adapter.metrics
    ]

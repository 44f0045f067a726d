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

from metricdiff.cases.case import Case, Expectation
from metricdiff.implementations import AdapterUnavailable, AnyAdapter, UnsupportedOption
from metricdiff.implementations.base import Tolerance
from metricdiff.machine_paths import without_machine_paths
from metricdiff.profiles import ConventionError
from metricdiff.profiles.metrics import Result

EXACT = Tolerance()

#: Outcome statuses, by what they mean for the implementation.
PASS, FAIL, MATCHES, DIFFERS, REFUSED, ACCEPTED, NOT_APPLICABLE, CRASH = (
    "pass", "FAIL", "matches", "differs", "refused", "ACCEPTED", "n/a", "crash",
)


@attrs.frozen
class Outcome:
    """One implementation on one expectation of one case; ``expectation`` is the
    expectation's position among the case's ``[[case.expect]]`` blocks (from 0),
    which names it when its ``when`` does not tell it from another."""

    case_id: str
    impl: str
    when: Mapping[str, str]
    status: str
    detail: str
    result: Result | None = None
    signature: str = ""
    expectation: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.case_id,
            "impl": self.impl,
            "when": dict(self.when),
            "expectation": self.expectation,
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


def unreported(result: Result, expectation: Expectation) -> list[str]:
    """The expected fields ``result`` does not report (a user's own
    implementation may leave statistics out: ``Result.unknown``)."""
    return [field for field in expectation.values if field in result.unknown]


def mismatches(
    result: Result, expectation: Expectation, tolerance: Tolerance = EXACT
) -> list[str]:
    """The expected fields ``result`` misses, each as ``field: expected X, got Y``;
    the case's tolerance and the implementation's stated one both apply.  A field
    the result does not report is not compared (as ``compare.first_difference``
    does): it is neither right nor wrong, and ``unreported`` lists it."""
    actual = result.to_json()
    problems = []
    for field, expected in expectation.values.items():
        if field in result.unknown:
            continue
        if field not in actual:
            problems.append(f"{field}: not a result field")
        elif not _close(expected, actual[field], tolerance, expectation.tolerance):
            problems.append(f"{field}: expected {expected}, got {actual[field]}")
    return problems


def _judge(
    case: Case, expectation: Expectation, result: Result, tolerance: Tolerance
) -> tuple[str, str]:
    if case.verdict_class == "reject":
        return ACCEPTED, f"returned score {result.headline} instead of refusing"
    missing = unreported(result, expectation)
    if missing and len(missing) == len(expectation.values):
        # Nothing to judge: a pass here would claim what was never compared.
        return NOT_APPLICABLE, f"not reported: {', '.join(missing)}"
    problems = mismatches(result, expectation, tolerance)
    notes = list(problems)
    if missing:  # said, so that a pass is not read as covering them
        notes.append(f"not reported, not compared: {', '.join(missing)}")
    detail = "; ".join(notes)
    if case.verdict_class == "must":
        return (FAIL if problems else PASS), detail
    return (DIFFERS if problems else MATCHES), detail


def run_expectation(
    case: Case, expectation: Expectation, adapter: AnyAdapter, index: int | None = None
) -> Outcome:
    """Score the case under the adapter's profile plus the case's pinned axes;
    ``index``: the expectation's position in the case (found if not given)."""
    if index is None:
        index = case.expectations.index(expectation)
    overrides = {**case.options, **expectation.when}
    base = Outcome(case.id, adapter.name, expectation.when, NOT_APPLICABLE, "",
                   expectation=index)
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
            base, status=status, detail=without_machine_paths(f"{type(error).__name__}: {error}"),
            signature=signature,
        )
    status, detail = _judge(case, expectation, result, adapter.tolerance)
    return attrs.evolve(base, status=status, detail=detail, result=result,
                        signature=signature)


def run_cases(cases: Iterable[Case], adapters: Sequence[AnyAdapter]) -> list[Outcome]:
    """Every expectation of every case through every adapter."""
    return [
        run_expectation(case, expectation, adapter, index)
        for case in cases
        for index, expectation in enumerate(case.expectations)
        for adapter in adapters
        if case.metric in adapter.metrics
    ]

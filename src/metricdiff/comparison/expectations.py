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
from metricdiff.impls import AnyAdapter, UnsupportedOption
from metricdiff.impls.base import Tolerance
from metricdiff.profiles import ConventionError
from metricdiff.profiles.metrics import Options, Result
from metricdiff.scoring import DEFAULT_TIMEOUT, CaseResult, Request, score_requests

EXACT = Tolerance()

#: Outcome statuses, by what they mean for the implementation.  ``departs``: a
#: ``must_`` case the implementation misses by a convention it declares (its
#: default profile, which the reference configured as it reproduces): no failure.
PASS, FAIL, MATCHES, DIFFERS, REFUSED, ACCEPTED, NOT_APPLICABLE, CRASH, DEPARTS = (
    "pass", "FAIL", "matches", "differs", "refused", "ACCEPTED", "n/a", "crash", "departs",
)
#: The statuses that mean something is wrong with the implementation.
PROBLEMS = (FAIL, ACCEPTED, CRASH)


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


def _prepare(
    case: Case, expectation: Expectation, adapter: AnyAdapter, index: int
) -> tuple[Outcome, Options | None]:
    """The outcome before scoring, and the options to score with (None: the
    outcome is final, the options were refused)."""
    overrides = {**case.options, **expectation.when}
    base = Outcome(case.id, adapter.name, expectation.when, NOT_APPLICABLE, "",
                   expectation=index)
    try:
        options = adapter.options(case.metric, overrides)
    except UnsupportedOption as error:
        return attrs.evolve(base, detail=str(error)), None
    except ConventionError as error:
        if case.verdict_class == "reject":
            return attrs.evolve(base, status=REFUSED, detail=str(error)), None
        return attrs.evolve(base, status=CRASH, detail=f"bad fixture options: {error}"), None
    return attrs.evolve(base, signature=adapter.signature(case.metric, options)), options


def _conclude(
    case: Case, expectation: Expectation, base: Outcome, scored: CaseResult,
    tolerance: Tolerance, options: Options | None = None,
) -> Outcome:
    """``base`` with what the implementation gave.  An exception it raised is
    its refusal of a reject_ case (``UnsupportedOption``: the case does not
    apply); a crash, a hang or an invalid result is a ``crash`` whatever the
    case."""
    if scored.raised is not None and scored.raised.unsupported:
        return attrs.evolve(base, detail=scored.raised.message)
    if scored.raised is not None and case.verdict_class == "reject":
        return attrs.evolve(base, status=REFUSED, detail=scored.reason)
    if scored.result is None:
        return attrs.evolve(base, status=CRASH, detail=scored.reason)
    status, detail = _judge(case, expectation, scored.result, tolerance)
    if status == FAIL and options is not None:
        convention = declared_convention(case, expectation, options, scored.result, tolerance)
        if convention:
            status = DEPARTS
            detail = f"by its declared convention ({convention}): {detail}"
    return attrs.evolve(base, status=status, detail=detail, result=scored.result)


def declared_convention(case: Case, expectation: Expectation, options: Options,
                        result: Result, tolerance: Tolerance) -> str:
    """Why an implementation run under ``options`` (its declared profile and the
    case's pins) misses a ``must_`` expectation by its own conventions, as
    ``axis=value`` words, or ``""`` when it does not (a real failure).

    It does when the reference configured as ``options`` gives ``result`` (within
    ``tolerance``) while the reference under the paper's profile and the same pins
    gives the expected values: the difference is then a value the implementation
    declares, such as sacrebleu's ``smoothing=exp`` on a case the paper scores 0.
    The axes named are those of its departures from the paper that miss the
    expectation on their own; if none does alone, all of them."""
    from metricdiff.comparison.stages import first_difference
    from metricdiff.impls import get_adapter
    from metricdiff.profiles import profile_of, with_overrides
    from metricdiff.scoring import score

    reference = get_adapter("reference", case.metric)

    def reference_result(config: Options) -> Result | None:
        return score(reference, case.metric, case.hyps, case.refs, config).result

    try:
        paper = reference.options(case.metric, {**case.options, **expectation.when})
    except (UnsupportedOption, ConventionError):
        return ""
    mine = reference_result(options)
    at_paper = reference_result(paper)
    if (mine is None or first_difference(result, mine, tolerance) is not None
            or at_paper is None or mismatches(at_paper, expectation)):
        return ""
    before, after = profile_of(paper), profile_of(options)
    departing = [(axis, value) for axis, value in after.items()
                 if before.get(axis) != value]
    alone = []
    for axis, value in departing:
        try:
            one = reference_result(with_overrides(paper, {axis: value}))
        except (ConventionError, ValueError, TypeError):
            continue
        if one is not None and mismatches(one, expectation):
            alone.append((axis, value))
    return " ".join(f"{axis}={value}" for axis, value in (alone or departing))


def run_cases(
    cases: Iterable[Case], adapters: Sequence[AnyAdapter], *,
    timeout: float = DEFAULT_TIMEOUT, workers: int = 1,
) -> list[Outcome]:
    """Every expectation of every case through every adapter, each implementation
    isolated (``scoring.score_requests``: ``timeout`` seconds per call,
    ``workers`` processes)."""
    planned = [
        (case, expectation, adapter, *_prepare(case, expectation, adapter, index))
        for case in cases
        for index, expectation in enumerate(case.expectations)
        for adapter in adapters
        if case.metric in adapter.declared.metrics
    ]
    requests = [
        Request(adapter, case.metric, [(case.hyps, case.refs)], options)
        for case, _, adapter, _, options in planned
        if options is not None
    ]
    scored = iter(score_requests(requests, timeout=timeout, workers=workers))
    return [
        base if options is None
        else _conclude(case, expectation, base, next(scored)[0], adapter.declared.tolerance,
                       options)
        for case, expectation, adapter, base, options in planned
    ]


def run_expectation(
    case: Case, expectation: Expectation, adapter: AnyAdapter, index: int | None = None,
    *, timeout: float = DEFAULT_TIMEOUT,
) -> Outcome:
    """Score the case under the adapter's profile plus the case's pinned axes;
    ``index``: the expectation's position in the case (found if not given)."""
    if index is None:
        index = case.expectations.index(expectation)
    base, options = _prepare(case, expectation, adapter, index)
    if options is None:
        return base
    [[scored]] = score_requests(
        [Request(adapter, case.metric, [(case.hyps, case.refs)], options)], timeout=timeout
    )
    return _conclude(case, expectation, base, scored, adapter.declared.tolerance, options)

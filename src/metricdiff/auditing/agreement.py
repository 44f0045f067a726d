"""Agreement: participants against each other.  A difference is what users trip
over; its cause is the axis (or the fewest axes) on which their effective profiles
part that turns the reference as one into the other's result."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from metricdiff.auditing.scores import Scores
from metricdiff.cases.case import Case
from metricdiff.comparison.stages import first_difference, headline_delta, quoted_differ
from metricdiff.findings.explain import Reproducer, changed, explain
from metricdiff.findings.finding import Example, Finding
from metricdiff.findings.witness import Found, Participant, Witness, pair_tolerance, stage_of
from metricdiff.impls.base import Tolerance
from metricdiff.profiles import profile_of, with_overrides
from metricdiff.profiles.metrics import Options, Result
from metricdiff.scoring.outcomes import headlines


def _cause(
    metric: str,
    left: Options,
    right: Options,
    case: Case,
    target: Result,
    tolerance: Tolerance,
    tried: list[tuple[tuple[str, str], ...]],
) -> tuple[str, tuple[str, str]]:
    """The axis (or pair) on which two effective profiles part that turns the
    reference as ``left`` into ``right``'s result on ``case``."""
    a, b = profile_of(left), profile_of(right)
    differing = [(axis, b[axis]) for axis in a if a[axis] != b[axis] and axis != "n"]
    reproducer = Reproducer(metric, [case.sample], [target], tolerance)
    # Causes seen before on this pair usually hold again.
    seen = [(changes, options) for changes in tried
            if (options := changed(left, changes)) is not None]
    again = next(reproducer.reproducing([options for _, options in seen]), None)
    if again is not None:
        return _named(a, seen[again][0])
    explanation = explain(metric, left, [case.sample], [target], tolerance, differing)
    if explanation.explained and explanation.axis:
        changes = tuple(zip(explanation.axis.split(","), explanation.values[1].split(","),
                            strict=True))
        tried.append(changes)
        return _named(a, changes)
    # No one or two axes do it; all the axes on which the profiles part may.  Then
    # drop, one by one, every axis the reproduction does not need: the cause named
    # is a minimal set, not the whole difference of the two profiles.
    needed = list(differing)
    if len(needed) <= 2 or not reproducer.reproduces(with_overrides(left, dict(needed))):
        return "unexplained", ("", "")
    for change in list(needed):
        fewer = [c for c in needed if c != change]
        candidate = changed(left, fewer)
        if candidate is not None and reproducer.reproduces(candidate):
            needed = fewer
    found = tuple(needed)
    tried.append(found)
    return _named(a, found)


def _named(
    before: dict[str, str], changes: Sequence[tuple[str, str]]
) -> tuple[str, tuple[str, str]]:
    return (
        ",".join(axis for axis, _ in changes),
        (",".join(before[axis] for axis, _ in changes), ",".join(v for _, v in changes)),
    )


def agreement(
    metric: str,
    left: Participant,
    right: Participant,
    cases: Sequence[Case],
    scores: Scores,
    effective: dict[str, list[Options | None]],
) -> Found:
    """Two participants against each other, grouped by the axis that parts them."""
    tolerance = pair_tolerance(left, right)
    groups: dict[tuple[str, tuple[str, str]], list[tuple[int, str, float]]] = defaultdict(list)
    reproduce: dict[tuple[str, tuple[str, str]], Options | None] = {}
    bases: dict[tuple[str, tuple[str, str]], Options | None] = {}
    tried: list[tuple[tuple[str, str], ...]] = []
    # The headlines first, read without building every case's result: most
    # cases agree, and a large corpus has hundreds of thousands.
    left_heads, right_heads = headlines(scores.own[left.name]), headlines(scores.own[right.name])
    for index, case in enumerate(cases):
        x, y = left_heads[index], right_heads[index]
        if x is None or y is None or not quoted_differ(x, y, tolerance):
            continue
        a = scores.own[left.name][index].result
        b = scores.own[right.name][index].result
        assert a is not None and b is not None
        difference = first_difference(a, b, tolerance)
        left_profile = effective[left.name][index]
        right_profile = effective[right.name][index]
        if left_profile is None or right_profile is None:
            cause: tuple[str, tuple[str, str]] = ("unexplained", ("", ""))
        else:
            cause = _cause(metric, left_profile, right_profile, case, b, tolerance, tried)
        groups[cause].append((index, str(difference or ""), headline_delta(a, b)))
        if cause not in reproduce:
            reproduce[cause] = _reproducing(left_profile, cause)
            bases[cause] = left_profile
    findings: Found = []
    for (axis, values), members in groups.items():
        smallest = min(members, key=lambda m: cases[m[0]].size())
        case = cases[smallest[0]]
        finding = Finding(
            metric, left.name, right.name, "agreement", axis, values, smallest[1],
            len(members), max(m[2] for m in members),
            Example(case.id, case.hyps, case.refs, scores.own[left.name][smallest[0]].result,
                    scores.own[right.name][smallest[0]].result),
            {left.name: left.signature, right.name: right.signature},
            tuple(cases[m[0]].id for m in members), axis != "unexplained",
        )
        witness = Witness("agreement", left, right, reproduce[(axis, values)],
                          stage_of(smallest[1]), bases[(axis, values)])
        findings.append((finding, witness))
    return findings


def _reproducing(
    left: Options | None, cause: tuple[str, tuple[str, str]]
) -> Options | None:
    """The left profile with the cause's axes set to the right's values."""
    axis, (_, new) = cause
    if left is None or axis in ("", "unexplained"):
        return None
    try:
        return with_overrides(left, dict(zip(axis.split(","), new.split(","), strict=True)))
    except Exception:
        return None

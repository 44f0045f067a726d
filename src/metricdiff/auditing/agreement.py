"""Two sides compared case by case, their differences grouped by cause: the axis
(or the fewest axes) on which their effective profiles part that turns the
reference as one into the other's result.

The audit is a star: each implementation is explained once against the paper.

- ``departures``: an implementation against the reference under the paper's
  profile, on the cases where the reference reproduces it (``conformance.py``
  says where): each difference is one of its declared conventions at work (or an
  undeclared one that conformance found), grouped by cause, each cause shown on
  one minimal example.  A case where it is not reproduced is a conformance
  finding already, not a departure.
- ``agreement``: two implementations checked directly, for a pair with a side
  whose profile is inferred (``python:``, ``cmd:`` without ``-o``): an inferred
  profile can fit a defect, so its differences are not derived from it.

Every other pair's differences follow from the two stars (``pairs.py`` derives
them, on the reference alone, when asked)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import attrs

from metricdiff.cases.case import Case
from metricdiff.comparison.stages import (
    first_difference,
    headline_delta,
    headlines_differ,
    quoted_differ,
)
from metricdiff.findings.cause import UNEXPLAINED, Cause, Tried, cause_between, reproducing
from metricdiff.findings.finding import Example, Finding
from metricdiff.findings.witness import Found, Participant, Witness, pair_tolerance, stage_of
from metricdiff.profiles.metrics import Options
from metricdiff.scoring.jobs import CaseResult
from metricdiff.scoring.outcomes import headlines


@attrs.frozen
class Side:
    """One side of a comparison: who, its outcome on each case, and on each case
    the profile under which the reference reproduces it (None: it does not)."""

    person: Participant
    results: Sequence[CaseResult]
    profiles: Sequence[Options | None]


def departures(metric: str, paper: Side, person: Side, cases: Sequence[Case]) -> Found:
    """``person`` against the reference under the paper's profile, on the cases
    where the reference reproduces it: its departures at work, by cause."""
    return compared(metric, "departure", paper, person, cases, reproduced_only=True)


def agreement(metric: str, left: Side, right: Side, cases: Sequence[Case]) -> Found:
    """Two participants against each other, grouped by the axis that parts them
    (``unexplained`` where a side is not reproduced)."""
    return compared(metric, "agreement", left, right, cases, reproduced_only=False)


@attrs.frozen
class _Member:
    case: int
    difference: str
    delta: float


def compared(metric: str, kind: str, left: Side, right: Side, cases: Sequence[Case],
             reproduced_only: bool) -> Found:
    """The differences of ``right`` from ``left`` on the headline number, grouped
    by cause; with ``reproduced_only``, only on the cases where both are
    reproduced."""
    tolerance = pair_tolerance(left.person, right.person)
    groups: dict[Cause, list[_Member]] = defaultdict(list)
    reproduce: dict[Cause, Options | None] = {}
    bases: dict[Cause, Options | None] = {}
    tried: Tried = []
    # The headlines first, read without building every case's result: most
    # cases agree, and a large corpus has hundreds of thousands.
    left_heads, right_heads = headlines(left.results), headlines(right.results)
    for index, case in enumerate(cases):
        x, y = left_heads[index], right_heads[index]
        if x is None or y is None or not quoted_differ(x, y, tolerance):
            continue
        left_profile, right_profile = left.profiles[index], right.profiles[index]
        if reproduced_only and (left_profile is None or right_profile is None):
            continue
        a, b = left.results[index].result, right.results[index].result
        assert a is not None and b is not None
        if not headlines_differ(a, b, tolerance):  # within a printed number's rounding
            continue
        difference = first_difference(a, b, tolerance)
        if left_profile is None or right_profile is None:
            cause = UNEXPLAINED
        else:
            cause = cause_between(metric, left_profile, right_profile, case, b, tolerance, tried)
        groups[cause].append(_Member(index, str(difference or ""), headline_delta(a, b)))
        if cause not in reproduce:
            reproduce[cause] = reproducing(left_profile, cause)
            bases[cause] = left_profile
    findings: Found = []
    for cause, members in groups.items():
        axis, values = cause
        smallest = min(members, key=lambda m: cases[m.case].size())
        case = cases[smallest.case]
        finding = Finding(
            metric, left.person.name, right.person.name, kind, axis, values,
            smallest.difference, len(members), max(m.delta for m in members),
            Example(case.id, case.hyps, case.refs, left.results[smallest.case].result,
                    right.results[smallest.case].result),
            {left.person.name: left.person.signature, right.person.name: right.person.signature},
            tuple(cases[m.case].id for m in members), axis != "unexplained",
        )
        witness = Witness(kind, left.person, right.person, reproduce[cause],
                          stage_of(smallest.difference), bases[cause])
        findings.append((finding, witness))
    return findings

"""Pairs derived from the star, on demand: the pairs named with ``--pair A,B``
and the few that differ most (the report's detail for its largest gaps).

Nothing is run for them: where the reference reproduces both sides of a case
(``conformance.py`` recorded under which profile), the pair's difference there
is the reference's under the two profiles, and its cause is searched on the
reference alone (in this process, remembered: ``findings/explain.py``), then
shown on a minimal example the reference alone shrinks to (``surrogate.py``).
See ``findings/pairs.py``."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from metricdiff.auditing.agreement import Side
from metricdiff.cases.case import Case, Sample, size
from metricdiff.comparison.stages import headlines_differ, quoted_differ
from metricdiff.findings.cause import Cause, Tried, cause_between, reproducing
from metricdiff.findings.explain import Reproducer, reference_score
from metricdiff.findings.finding import Example
from metricdiff.findings.pairs import ASKED, DerivedPair, PairCause
from metricdiff.findings.shrink import minimise
from metricdiff.findings.surrogate import FIRST_BATCH
from metricdiff.findings.witness import pair_tolerance
from metricdiff.impls.base import Tolerance
from metricdiff.profiles.metrics import Options, Result
from metricdiff.scoring.outcomes import headlines

#: How many of a metric's pairs the audit derives unasked: those whose typical
#: difference is largest.
LARGEST_GAPS = 3
#: At most about this many cases rank the pairs (``largest_gaps``).
RANKED_CASES = 2000


def derive_pair(metric: str, left: Side, right: Side, cases: Sequence[Case],
                why: str = ASKED) -> DerivedPair:
    """``left`` and ``right`` on every case both scored, their differences
    derived from their stars (see the module's docstring)."""
    tolerance = pair_tolerance(left.person, right.person)
    left_heads, right_heads = headlines(left.results), headlines(right.results)
    compared = differing = 0
    unpredicted: dict[str, int] = defaultdict(int)
    groups: dict[Cause, list[tuple[int, float]]] = defaultdict(list)
    bases: dict[Cause, tuple[Options, Options]] = {}
    tried: Tried = []
    for index, case in enumerate(cases):
        x, y = left_heads[index], right_heads[index]
        if x is None or y is None:
            continue
        compared += 1
        if not quoted_differ(x, y, tolerance):
            continue
        a, b = left.results[index].result, right.results[index].result
        assert a is not None and b is not None
        if not headlines_differ(a, b, tolerance):  # within a printed number's rounding
            continue
        differing += 1
        mine, theirs = left.profiles[index], right.profiles[index]
        if mine is None or theirs is None:
            unpredicted[left.person.name if mine is None else right.person.name] += 1
            continue
        target = _reference(metric, theirs, case.sample)
        if target is None:  # the reference refuses the right-hand profile here
            unpredicted[right.person.name] += 1
            continue
        cause = cause_between(metric, mine, theirs, case, target, tolerance, tried)
        groups[cause].append((index, abs(x - y)))
        bases.setdefault(cause, (mine, theirs))
    causes = [_shown(metric, cause, members, *bases[cause], cases, tolerance)
              for cause, members in groups.items()]
    causes.sort(key=lambda c: (-c.count, c.axis, c.values))
    return DerivedPair(metric, left.person.name, right.person.name, why, compared, differing,
                       sum(c.count for c in causes), dict(unpredicted), tuple(causes))


def _reference(metric: str, options: Options, sample: Sample) -> Result | None:
    hyps, refs = sample
    return reference_score(metric, options, tuple(hyps), tuple(tuple(seg) for seg in refs))


def _shown(metric: str, cause: Cause, members: Sequence[tuple[int, float]], base: Options,
           target: Options, cases: Sequence[Case], tolerance: Tolerance) -> PairCause:
    """A cause with its count, largest difference and an example: its smallest
    case, shrunk with the reference standing in for both sides, as long as the
    two profiles still differ there and the cause still turns one into the
    other."""
    axis, values = cause
    smallest = min(members, key=lambda member: cases[member[0]].size())
    case = cases[smallest[0]]
    reproduce = reproducing(base, cause)
    sample: Sample = case.sample
    case_id = case.id
    if reproduce is not None:
        def one(candidate: Sample) -> bool:
            a, b = _reference(metric, base, candidate), _reference(metric, target, candidate)
            if a is None or b is None or not headlines_differ(a, b, tolerance):
                return False
            hyps, refs = candidate
            return Reproducer(metric, [(hyps, refs)], [b], tolerance).reproduces(reproduce)

        smaller = minimise(sample, lambda samples: [one(s) for s in samples], FIRST_BATCH)
        if size(smaller) < size(sample):
            sample, case_id = smaller, f"{case.id}~min"
    hyps, refs = sample
    example = Example(case_id, hyps, refs, _reference(metric, base, sample),
                      _reference(metric, target, sample))
    return PairCause(axis, values, len(members), max(delta for _, delta in members), example)


def largest_gaps(sides: Sequence[Side], cases: Sequence[Case],
                 count: int = LARGEST_GAPS) -> list[tuple[Side, Side]]:
    """The ``count`` pairs of ``sides`` whose average |Δ| on the headline number
    is largest, over the user's segments if the audit has some, else over the
    fixtures, else over every case (the reference under the paper's profile is
    no side of one: a side's differences from it are its departures)."""
    for origin in ("user", "fixture", None):
        chosen = [i for i, case in enumerate(cases)
                  if origin is None or (case.origin == origin and len(case.hyps) == 1)]
        if chosen:
            break
    # A ranking: an even sample of a large corpus's cases ranks the pairs as well.
    chosen = chosen[::max(1, len(chosen) // RANKED_CASES)]
    heads = {side.person.name: headlines(side.results) for side in sides}
    ranked = []
    for place, left in enumerate(sides):
        for right in sides[place + 1:]:
            gaps = [abs(x - y) for i in chosen
                    if (x := heads[left.person.name][i]) is not None
                    and (y := heads[right.person.name][i]) is not None]
            if gaps:
                ranked.append((math.fsum(gaps) / len(gaps), left, right))
    ranked.sort(key=lambda item: -item[0])
    return [(left, right) for typical, left, right in ranked[:count] if typical > 0]


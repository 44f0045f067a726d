"""Inferring the profile of an implementation that declares none (a user's own,
``python:`` or ``cmd:`` without ``-o``): the configuration of the reference that
reproduces its results on every case the audit scored.

The search is the explainer's (``explain.explain``: the current profile, then one
axis changed, then two), repeated: when no one or two changes reproduce every
case, the single change that brings the reference closest -- most cases
reproduced, then the first difference latest in the order statistics are
produced (lengths, counts, precisions, score) -- is taken, and the explainer runs
again from there, up to ``MAX_ROUNDS`` times.  Once a configuration reproduces
every case, each other value one step away that reproduces them too is listed:
those axes are not pinned down by the cases (say, how ties in reference length
are broken, when no case has a tie).

A profile that fits is not proof: on a few lines a defect (counts not clipped)
can give the numbers some convention gives (``period-split`` and lowercasing on
four lines).  So the inference counts the profiles that fit with as few
changes (``fits``) and knows how many of the cases were the bundled fixtures,
whose cases tell a defect from a convention; without them, or with several
profiles fitting, the line it prints says that a defect may explain the
results as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from metricdiff.cases.case import Sample
from metricdiff.comparison.stages import first_difference, stages
from metricdiff.findings.explain import (
    Explanation,
    Reproducer,
    changed,
    explain,
    search,
    single_changes,
)
from metricdiff.impls.base import Tolerance
from metricdiff.profiles import profile_of
from metricdiff.profiles.metrics import Options, Result
from metricdiff.wording import plural

#: How many greedy steps may precede the last search of one or two changes: at
#: most 2 + MAX_ROUNDS - 1 axes away from the paper's profile.
MAX_ROUNDS = 3
#: Profiles that fit are counted up to this many ("at least ...").
MAX_FITS = 50


@attrs.frozen
class Inference:
    """The profile inferred for ``impl`` on ``metric``, and how well it holds.

    ``options`` reproduces ``reproduced`` of ``total`` cases (all of them, when
    the profile was found); ``loose`` lists each axis the cases leave open with
    the other values that reproduce them as well; ``first_difference`` is where
    the best configuration still differs on the first case it misses."""

    impl: str
    metric: str
    start: Options
    options: Options
    reproduced: int
    total: int
    loose: tuple[tuple[str, tuple[str, ...]], ...] = ()
    first_difference: str = ""
    #: How many configurations reproduce every case with as few changes as
    #: ``options`` (itself included; at most ``MAX_FITS``).
    fits: int = 1
    #: How many of the cases were bundled fixtures.
    fixtures: int = 0

    @property
    def uncertain(self) -> bool:
        """Whether a defect may fit the results as well as the profile: no bundled
        fixture among the cases, or several profiles fitting them."""
        return self.found and (self.fixtures == 0 or self.fits > 1)

    def caveat(self) -> str:
        """What the profile found is worth, when it may be a defect's disguise."""
        if not self.uncertain:
            return ""
        many = (f"at least {MAX_FITS}" if self.fits >= MAX_FITS else str(self.fits))
        fitting = (f"{many} profiles fit them with as few changes" if self.fits > 1
                   else "no other profile fits them with as few changes")
        why = ("" if self.fixtures else
               "; inferred from your cases alone: the bundled fixtures, left out here "
               "(--no-fixtures), tell the two apart")
        return f"; {fitting}, and a defect may explain them as well{why}"

    @property
    def found(self) -> bool:
        return self.total > 0 and self.reproduced == self.total

    def changes(self) -> dict[str, str]:
        """The axes on which the inferred profile departs from the paper's."""
        before, after = profile_of(self.start), profile_of(self.options)
        return {axis: value for axis, value in after.items() if before[axis] != value}

    def describe(self) -> str:
        """One line for the audit's text output."""
        if self.total == 0:
            return f"inferred profile of {self.impl}: nothing to infer from (no case scored)"
        changes = " ".join(f"{a}={v}" for a, v in self.changes().items()) or "the paper's"
        tally = f"reproduces {self.reproduced}/{plural(self.total, 'case')}"
        if self.found:
            line = f"inferred profile of {self.impl}: {changes} ({tally}{self.caveat()})"
            if self.loose:
                open_axes = ", ".join(
                    f"{axis} ({'|'.join((profile_of(self.options)[axis], *values))})"
                    for axis, values in self.loose
                )
                line += f"; not pinned down by these cases: {open_axes}"
            return line
        return (
            f"inferred profile of {self.impl}: not found; the closest, {changes}, {tally} "
            f"(first difference: {self.first_difference or 'the reference fails'})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "impl": self.impl,
            "metric": self.metric,
            "found": self.found,
            "changes": self.changes(),
            "profile": profile_of(self.options),
            "reproduced": self.reproduced,
            "total": self.total,
            "loose": {axis: list(values) for axis, values in self.loose},
            "first_difference": self.first_difference,
            "fits": self.fits,
            "fixtures": self.fixtures,
            "uncertain": self.uncertain,
        }


def _closeness(reproducer: Reproducer, options: Options) -> tuple[int, int]:
    """(cases reproduced, how far into the statistics the cases agree)."""
    reproduced = depth = 0
    for index, target in enumerate(reproducer.targets):
        result = reproducer.score(options, index)
        if result is None:
            continue
        order = stages(target)
        difference = first_difference(target, result, reproducer.tolerance)
        if difference is None:
            reproduced += 1
            depth += len(order)
        else:
            depth += order.index(difference.field.partition("[")[0])
    return reproduced, depth


def _closer(reproducer: Reproducer, options: Options) -> Options | None:
    """The one change that brings the reference closest, if any brings it closer."""
    best, best_score = None, _closeness(reproducer, options)
    for change in single_changes(options):
        candidate = changed(options, [change])
        if candidate is None:
            continue
        score = _closeness(reproducer, candidate)
        if score > best_score:
            best, best_score = candidate, score
    return best


def _loose(reproducer: Reproducer, options: Options) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each axis with the other values under which every case is reproduced too."""
    others: dict[str, list[str]] = {}
    for axis, value in single_changes(options):
        candidate = changed(options, [(axis, value)])
        if candidate is not None and reproducer.reproduces(candidate):
            others.setdefault(axis, []).append(value)
    return tuple((axis, tuple(values)) for axis, values in others.items())


def _fits(reproducer: Reproducer, base: Options, found: Explanation) -> int:
    """How many configurations as few changes from ``base`` as ``found``'s
    reproduce every case (at most ``MAX_FITS``): the explainer stops at the first."""
    size = len(found.axis.split(",")) if found.axis else 0
    if size == 0:
        return 1
    fitting = 0
    for changes, _ in search(base, reproducer, single_changes(base)):
        if len(changes) > size:
            break
        fitting += 1
        if fitting >= MAX_FITS:
            break
    return max(fitting, 1)


def infer(
    impl: str,
    metric: str,
    start: Options,
    samples: Sequence[Sample],
    targets: Sequence[Result],
    tolerance: Tolerance,
    fixtures: int = 0,
) -> Inference:
    """The configuration of the reference, searched from ``start``, that
    reproduces ``targets`` (the implementation's results) on ``samples``, of
    which ``fixtures`` are bundled fixtures."""
    reproducer = Reproducer(metric, samples, targets, tolerance)
    current = start
    fits = 1
    for _ in range(MAX_ROUNDS):
        explanation = explain(metric, current, samples, targets, tolerance)
        if explanation.options is not None:
            fits = _fits(reproducer, current, explanation)
            current = explanation.options
            break
        step = _closer(reproducer, current)
        if step is None:
            break
        current = step
    reproduced, _ = _closeness(reproducer, current)
    if reproduced == len(targets):
        return Inference(impl, metric, start, current, reproduced, len(targets),
                         _loose(reproducer, current), fits=fits, fixtures=fixtures)
    difference = reproducer.difference(current)
    return Inference(impl, metric, start, current, reproduced, len(targets),
                     first_difference=str(difference or ""), fixtures=fixtures)

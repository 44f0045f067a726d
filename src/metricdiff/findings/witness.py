"""Who a finding is about and how it was established: the ``Participant``s
compared (an implementation under one profile) and the ``Witness`` that lets a
smaller case be checked for the same cause (``minimise.py``)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from metricdiff.cases.case import Sample
from metricdiff.findings.finding import Finding
from metricdiff.impls.base import Tolerance
from metricdiff.profiles.metrics import Options
from metricdiff.scoring.jobs import Job

#: The reference's name among the implementations.
REFERENCE = "reference"


@attrs.frozen
class Participant:
    """An implementation under one profile: ``declared``, ``stemmed``, ``paper``,
    ``unknown`` (a user's own without ``-o``), or one of the adapter's named
    ``variants``."""

    impl: str
    label: str
    metric: str
    options: Options
    tolerance: Tolerance
    signature: str

    @property
    def name(self) -> str:
        own = ("declared", "paper", "unknown")
        return self.impl if self.label in own else f"{self.impl}+{self.label}"

    def job(self, samples: Sequence[Sample], impl: str | None = None,
            label: str | None = None) -> Job:
        """The job that scores ``samples`` under this participant's profile: with its
        own implementation, or with ``impl`` (the reference configured as it)."""
        return Job(impl or self.impl, self.metric, self.options, tuple(samples),
                   label or self.name)


@attrs.frozen
class Witness:
    """How to tell whether a smaller case still shows a finding with the same
    cause: who is compared, and the configuration under which the reference must
    reproduce the right-hand side (None: only that they still differ)."""

    kind: str
    left: Participant
    right: Participant | None
    reproduce: Options | None
    stage: str
    #: The profile under which the reference reproduces the left-hand side.
    base: Options | None = None


def stage_of(difference: str) -> str:
    """The statistic a first difference is in (``counts``, ``bp``...), without its
    index and values: what a smaller case must still differ in."""
    return difference.split("[")[0].split(":")[0]


def pair_tolerance(left: Participant, right: Participant | None) -> Tolerance:
    """The tolerance two sides are compared within: a participant's own against
    the reference configured as it (``right`` None), the larger of the two's
    between two participants."""
    if right is None:
        return left.tolerance
    mine, theirs = left.tolerance, right.tolerance
    return Tolerance(max(mine.absolute, theirs.absolute), max(mine.relative, theirs.relative))


#: Findings, each with how it was established.
Found = list[tuple[Finding, Witness]]

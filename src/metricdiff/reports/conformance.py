"""Conformance to the spec, clause by clause: for each implementation and each
clause of ``spec/bleu.md`` or ``spec/rouge.md`` that a convention axis concerns
(``metricdiff.profiles.clauses``):

- **conforms**: its declared profile takes the paper's value on every axis of the
  clause, and no conformance finding names one of them;
- **departs on axis X**: its declared profile takes another value on X, or a
  conformance finding (the implementation does not do what it declares) names X;
- **not applicable**: none of the clause's axes matters to the metric.

The paper's profile is ``metricdiff.profiles.metrics.paper_options(metric)``.
"""

from __future__ import annotations

import attrs

from metricdiff.findings.finding import Finding
from metricdiff.profiles import profile_of
from metricdiff.profiles.clauses import clauses_of, metric_axes
from metricdiff.profiles.metrics import paper_options
from metricdiff.reports.model import Implementation, MetricRecord

CONFORMS = "conforms"
DEPARTS = "departs"
NOT_APPLICABLE = "not applicable"


@attrs.frozen
class ClauseStatus:
    """One implementation against one clause."""

    clause: str
    status: str
    #: (axis, value) where the declared profile departs from the paper.
    declared: tuple[tuple[str, str], ...] = ()
    #: (axis, value) that a conformance finding says the implementation behaves as.
    found: tuple[tuple[str, str], ...] = ()

    @property
    def axes(self) -> tuple[str, ...]:
        """The axes on which it departs, in clause order, each once."""
        return tuple(dict.fromkeys(axis for axis, _ in (*self.declared, *self.found)))

    def text(self) -> str:
        """``conforms``, ``not applicable`` or ``departs on tokenize (13a)``; what a
        finding shows is marked ``found``: ``departs on tokenize (intl; found: zh)``."""
        if self.status != DEPARTS:
            return self.status
        declared, found = dict(self.declared), dict(self.found)
        shown = []
        for axis in self.axes:
            values = [declared[axis]] if axis in declared else []
            values += [f"found: {found[axis]}"] if axis in found else []
            shown.append(f"{axis} ({'; '.join(values)})")
        return "departs on " + ", ".join(shown)


@attrs.frozen
class ConformanceRow:
    """One implementation's status on every clause of its family."""

    implementation: str
    cells: tuple[ClauseStatus, ...]


def paper_profile(metric: str) -> dict[str, str]:
    """The paper's value on every axis of ``metric``'s family, as text."""
    return profile_of(paper_options(metric))


def departures(metric: str, profile: dict[str, str]) -> tuple[str, ...]:
    """The axes that matter to ``metric`` on which ``profile`` departs from the paper."""
    paper = paper_profile(metric)
    return tuple(axis for axis in metric_axes(metric)
                 if axis in profile and profile[axis] != paper.get(axis))


def found_values(findings: tuple[Finding, ...], name: str) -> dict[str, str]:
    """Axis -> the value the implementation behaves as, from its explained
    conformance findings (``values`` is declared value, found value)."""
    found: dict[str, str] = {}
    for finding in findings:
        if finding.kind != "conformance" or finding.impl_a != name or not finding.explained:
            continue
        if finding.axis in ("", "unexplained"):
            continue
        axes = finding.axis.split(",")
        values = finding.values[1].split(",")
        if len(values) != len(axes):
            values = [finding.values[1]] * len(axes)
        for axis, value in zip(axes, values, strict=True):
            found.setdefault(axis, value)
    return found


def clause_status(
    metric: str, clause: str, axes: tuple[str, ...], person: Implementation,
    found: dict[str, str],
) -> ClauseStatus:
    """One implementation against one clause."""
    relevant = [axis for axis in axes if axis in metric_axes(metric)]
    if not relevant:
        return ClauseStatus(clause, NOT_APPLICABLE)
    departing = set(departures(metric, person.profile))
    declared = tuple((axis, person.profile[axis]) for axis in relevant if axis in departing)
    seen = tuple((axis, found[axis]) for axis in relevant if axis in found)
    if declared or seen:
        return ClauseStatus(clause, DEPARTS, declared, seen)
    return ClauseStatus(clause, CONFORMS)


def conformance(record: MetricRecord) -> tuple[tuple[str, ...], tuple[ConformanceRow, ...]]:
    """The clause IDs of the metric's family and one row per implementation."""
    clauses = clauses_of(record.metric)
    rows = []
    for person in record.implementations:
        found = found_values(record.findings, person.name)
        rows.append(ConformanceRow(person.name, tuple(
            clause_status(record.metric, clause, axes, person, found)
            for clause, axes in clauses
        )))
    return tuple(clause for clause, _ in clauses), tuple(rows)


def unexplained(record: MetricRecord) -> tuple[Finding, ...]:
    """Conformance findings that no axis explains: they belong to no clause."""
    return tuple(f for f in record.findings
                 if f.kind == "conformance" and (not f.explained or f.axis in ("", "unexplained")))

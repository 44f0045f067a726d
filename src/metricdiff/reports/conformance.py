"""Conformance to the spec, clause by clause: for each implementation and each
clause of ``spec/bleu.md`` or ``spec/rouge.md`` that the metric depends on,
``conforms``, ``departs on`` an axis, or ``fails``.

Each clause is a column (``metricdiff.profiles.clauses``; a family of variant
clauses such as ``BLEU-TOK-*`` is one column, and each cell names the member the
implementation follows), and each cell says:

- **conforms**: its declared profile takes the paper's value on every axis of the
  clause, and no conformance finding lands in it;
- **departs on axis X**: its declared profile takes another value on X, or an
  explained conformance finding (the implementation does not do what it
  declares) names X;
- **fails**: a conformance finding that no axis explains starts at a statistic
  the clause produces (``clause_of_statistic``: ``counts`` is BLEU-CLIP, ``bp``
  BLEU-BP...).

The paper's profile is ``metricdiff.profiles.metrics.paper_options(metric)``.
"""

from __future__ import annotations

from collections import defaultdict

import attrs

from metricdiff.findings.finding import Finding
from metricdiff.profiles import profile_of
from metricdiff.profiles.clauses import clause_of_statistic, metric_axes, metric_clauses
from metricdiff.profiles.metrics import paper_options
from metricdiff.reports.model import Implementation, MetricRecord
from metricdiff.wording import plural

CONFORMS = "conforms"
DEPARTS = "departs"
FAILS = "fails"


@attrs.frozen
class ClauseStatus:
    """One implementation against one clause (or family of variant clauses)."""

    clause: str
    status: str
    #: (axis, value) where the declared profile departs from the paper.
    declared: tuple[tuple[str, str], ...] = ()
    #: (axis, value) that a conformance finding says the implementation behaves as.
    found: tuple[tuple[str, str], ...] = ()
    #: The member of a family of variant clauses the implementation follows
    #: (``BLEU-TOK-13A``); empty for a single clause.
    member: str = ""
    #: (first difference, cases) of each unexplained conformance finding here.
    failures: tuple[tuple[str, int], ...] = ()

    @property
    def axes(self) -> tuple[str, ...]:
        """The axes on which it departs, in clause order, each once."""
        return tuple(dict.fromkeys(axis for axis, _ in (*self.declared, *self.found)))

    def text(self) -> str:
        """``conforms``, ``departs on tokenize (13a)`` or ``fails: counts[0]: 2 vs 1
        (3 cases)``, after the member's name for a family (``BLEU-TOK-13A:
        departs on tokenize (13a)``); what a finding shows is marked ``found``:
        ``departs on tokenize (intl; found: zh)``."""
        parts = []
        if self.declared or self.found:
            declared, found = dict(self.declared), dict(self.found)
            shown = []
            for axis in self.axes:
                values = [declared[axis]] if axis in declared else []
                values += [f"found: {found[axis]}"] if axis in found else []
                shown.append(f"{axis} ({'; '.join(values)})")
            parts.append("departs on " + ", ".join(shown))
        if self.failures:
            parts.append("fails: " + "; ".join(f"{difference} ({plural(count, 'case')})"
                                               for difference, count in self.failures))
        text = "; ".join(parts) or CONFORMS
        return f"{self.member}: {text}" if self.member else text


@attrs.frozen
class ConformanceRow:
    """One implementation's status on every clause the metric depends on."""

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


def _own(findings: tuple[Finding, ...], name: str) -> list[Finding]:
    """The conformance findings of implementation ``name``."""
    return [f for f in findings if f.kind == "conformance" and f.impl_a == name]


def is_unexplained(finding: Finding) -> bool:
    return not finding.explained or finding.axis in ("", "unexplained")


def found_values(metric: str, findings: list[Finding], person: Implementation
                 ) -> dict[str, dict[str, str]]:
    """Clause -> axis -> the value the implementation behaves as, from its
    explained conformance findings (``values`` is declared value, found value).
    An axis of no clause the metric depends on (``variant``: it behaves as
    another metric) lands in the clause of the first differing statistic."""
    paper = paper_profile(metric)
    columns = metric_clauses(metric)
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for finding in findings:
        if is_unexplained(finding):
            continue
        axes = finding.axis.split(",")
        values = finding.values[1].split(",")
        if len(values) != len(axes):
            values = [finding.values[1]] * len(axes)
        for axis, value in zip(axes, values, strict=True):
            home = next((c for c in columns if axis in c.axes), None)
            if home is None:
                home = clause_of_statistic(metric, finding.first_difference, person.profile,
                                           paper)
            found[home.id].setdefault(axis, value)
    return found


def failures(metric: str, findings: list[Finding], person: Implementation
             ) -> dict[str, list[tuple[str, int]]]:
    """Clause -> (first difference, cases) of each unexplained conformance finding
    whose first differing statistic that clause produces."""
    paper = paper_profile(metric)
    landed: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for finding in findings:
        if is_unexplained(finding):
            home = clause_of_statistic(metric, finding.first_difference, person.profile, paper)
            landed[home.id].append((finding.first_difference, finding.count))
    return landed


def conformance(record: MetricRecord) -> tuple[tuple[str, ...], tuple[ConformanceRow, ...]]:
    """The clauses ``record``'s metric depends on and one row per implementation."""
    metric = record.metric
    columns = metric_clauses(metric)
    relevant = set(metric_axes(metric))
    rows = []
    for person in record.implementations:
        own = _own(record.findings, person.name)
        found = found_values(metric, own, person)
        failed = failures(metric, own, person)
        departing = set(departures(metric, person.profile))
        cells = []
        for clause in columns:
            axes = [axis for axis in clause.axes if axis in relevant]
            declared = tuple((axis, person.profile[axis]) for axis in axes if axis in departing)
            seen = tuple(found[clause.id].items())
            here = tuple(failed[clause.id])
            status = FAILS if here else DEPARTS if declared or seen else CONFORMS
            member = clause.member(person.profile) if clause.named_by else ""
            cells.append(ClauseStatus(clause.id, status, declared, seen, member, here))
        rows.append(ConformanceRow(person.name, tuple(cells)))
    return tuple(clause.id for clause in columns), tuple(rows)


def unexplained(record: MetricRecord) -> tuple[Finding, ...]:
    """Conformance findings that no axis explains (each also fails a clause)."""
    return tuple(f for f in record.findings if f.kind == "conformance" and is_unexplained(f))

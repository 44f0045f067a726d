"""What a report says, before it is written as Markdown, HTML or JSON: one section
per metric with its profile table, findings, conformance, agreement matrix and
cases x implementations matrix, all derived from an ``AuditRecord``."""

from __future__ import annotations

from collections import Counter

import attrs

from metricdiff.findings.finding import KINDS, Finding
from metricdiff.impls.base import Tolerance
from metricdiff.profiles.clauses import metric_axes
from metricdiff.reports.conformance import (
    ConformanceRow,
    conformance,
    departures,
    paper_profile,
    unexplained,
)
from metricdiff.reports.matrix import (
    Agreement,
    CaseRow,
    PatternGroup,
    agreement,
    case_rows,
    pattern_groups,
)
from metricdiff.reports.model import AuditRecord, Implementation, MetricRecord
from metricdiff.wording import could_not_score, plural

#: Where each family's paper profile comes from.
PAPERS = {"bleu": "Papineni et al. 2002", "rouge": "Lin 2004"}
#: What a difference of headline numbers is measured in.
UNITS = {"bleu": "BLEU points, 0-100", "rouge": "F, 0-1"}
FAILURES = ("crash", "timeout", "invalid-output")
#: What the table of the user's corpus is, before the causes behind it.
CORPUS_INTRO = (
    "Each implementation's score on your whole corpus under its declared profile, "
    "its difference from the paper's profile (Δ paper), and each gap between two "
    "implementations split by convention axis (Shapley values) plus the residual "
    "that no declared convention explains. The causes and minimal examples behind "
    "these gaps follow."
)
#: How many of a finding's case IDs report.json lists (the audit folder's
#: findings.json has them all).
CASES_LISTED = 3


@attrs.frozen
class ProfileRow:
    """One implementation's declared value on each axis, and whether it departs."""

    person: Implementation
    values: tuple[tuple[str, bool], ...]

    @property
    def departures(self) -> tuple[str, ...]:
        return tuple(value for value, departs in self.values if departs)


@attrs.frozen
class MetricReport:
    """Everything a report shows about one metric."""

    record: MetricRecord
    axes: tuple[str, ...]
    paper: tuple[str, ...]
    profiles: tuple[ProfileRow, ...]
    clauses: tuple[str, ...]
    conformance: tuple[ConformanceRow, ...]
    unexplained: tuple[Finding, ...]
    agreement: Agreement
    rows: tuple[CaseRow, ...]
    groups: tuple[PatternGroup, ...]

    @property
    def metric(self) -> str:
        return self.record.metric

    @property
    def family(self) -> str:
        return self.record.family

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.record.findings

    @property
    def tolerances(self) -> tuple[tuple[str, Tolerance], ...]:
        """Implementations whose tolerance is not the default one."""
        return tuple((p.name, p.tolerance) for p in self.record.implementations
                     if (p.tolerance.absolute, p.tolerance.relative)
                     != (Tolerance().absolute, Tolerance().relative))


@attrs.frozen
class Report:
    """The whole report."""

    metrics: tuple[MetricReport, ...]
    #: Shown only when asked for: reports are otherwise the same bytes every time.
    timestamp: str | None = None

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for m in self.metrics for f in m.findings)

    def summary(self) -> str:
        """One sentence: metrics, cases, findings by kind, unexplained."""
        findings = self.findings
        counts = Counter(f.kind for f in findings)
        kinds = ", ".join(f"{counts[kind]} {kind}" for kind in KINDS if counts[kind])
        lost = sum(1 for f in findings
                   if f.kind in ("conformance", "agreement") and not f.explained)
        cases = sum(len(m.record.cases) for m in self.metrics)
        return (f"{plural(len(self.metrics), 'metric')}, {plural(cases, 'case')}, "
                f"{plural(len(findings), 'finding')}"
                + (f" ({kinds}; {lost} unexplained)" if findings else "")
                + could_not_score([n for m in self.metrics for n in m.record.unscored()])
                + ".")


def metric_report(record: MetricRecord) -> MetricReport:
    axes = metric_axes(record.metric)
    paper = paper_profile(record.metric)
    profiles = []
    for person in record.implementations:
        departing = set(departures(record.metric, person.profile))
        profiles.append(ProfileRow(person, tuple(
            (person.profile.get(axis, ""), axis in departing) for axis in axes
        )))
    clauses, rows = conformance(record)
    cases = case_rows(record)
    return MetricReport(
        record, axes, tuple(paper[axis] for axis in axes), tuple(profiles), clauses, rows,
        unexplained(record), agreement(record), cases, pattern_groups(cases),
    )


def build(audit: AuditRecord, timestamp: str | None = None) -> Report:
    """The report of an audit."""
    return Report(tuple(metric_report(record) for record in audit.metrics), timestamp)


# ------------------------------------------------------------- shared wording


def implementations(finding: Finding) -> str:
    """``a vs b``, or ``a`` alone for a failure."""
    return f"{finding.impl_a} vs {finding.impl_b}" if finding.impl_b else finding.impl_a


def number(value: float | None) -> str:
    """A headline number or difference, short: four significant digits."""
    return "–" if value is None else f"{value:.4g}"


def largest(finding: Finding) -> str:
    """A finding's largest difference; none for a run that gave no result."""
    return "–" if finding.kind in FAILURES else number(finding.max_delta)


def example_texts(finding: Finding) -> list[tuple[str | None, tuple[str | None, ...]]]:
    """The example's segments: each hypothesis with its references."""
    return list(zip(finding.example.hyps, finding.example.refs, strict=True))


def listed_cases(finding: Finding) -> tuple[tuple[str, ...], int]:
    """The first ``CASES_LISTED`` of a finding's case IDs, and how many more it has."""
    return finding.cases[:CASES_LISTED], max(0, len(finding.cases) - CASES_LISTED)


def anchor(metric: str, index: int) -> str:
    """The HTML id of a metric's ``index``-th finding's example (from 1)."""
    return f"example-{metric}-{index}"

"""What a report says, before it is written as Markdown, HTML or JSON, all
derived from an ``AuditRecord``: first the package verdict table, then per
metric the user's corpus (each implementation's score, its gap to the paper
split by axis, the input its tokenizer drops), each implementation's departures
from the paper (grouped by cause, with how much each moves the corpus score and
one minimal example), the conformance findings and defects, the agreement
matrices (the user's text, the fixtures and the generated edge cases apart),
the pairs derived from the star, the profile table and the conformance per
clause."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import attrs

from metricdiff.comparison.gaps import MetricComparison, signed
from metricdiff.findings.finding import KINDS, Finding
from metricdiff.findings.pairs import DerivedPair
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
    POINTS,
    Agreement,
    CaseRow,
    PatternGroup,
    agreements,
    case_rows,
    pattern_groups,
)
from metricdiff.reports.model import AuditRecord, CacheUse, Implementation, MetricRecord
from metricdiff.reports.packages import PackageRow, package_rows
from metricdiff.wording import could_not_score, from_cache, not_applicable, plural

#: Where each family's paper profile comes from.
PAPERS = {"bleu": "Papineni et al. 2002", "rouge": "Lin 2004"}
#: What a difference of headline numbers is shown in (``points``).
UNITS = {"bleu": "BLEU points, 0-100", "rouge": "ROUGE F × 100"}
#: What the table of the user's corpus is.
CORPUS_INTRO = (
    "Each implementation's score on your whole corpus under its declared profile, "
    "the share of your text its tokenizer drops (lost input), its difference from "
    "the paper's profile (Δ paper), and that difference split by convention axis "
    "(Shapley values) plus the residual that no declared convention explains."
)
#: What the departures are.
DEPARTURES_INTRO = (
    "Each implementation against the reference under the paper's profile, on the "
    "cases where the reference reproduces it (configured as the implementation "
    "declares, or as a conformance finding below says it behaves): each cause is "
    "the fewest axes that account for the difference, with the implementations it "
    "parts from the paper, on how many cases, how much it moves the score of your "
    "corpus (its Shapley contribution, when the audit had your corpus), and one "
    "minimal example."
)
DEFECTS_INTRO = (
    "Each implementation against the reference configured as it declares itself: "
    "a difference that an axis explains is a convention it does not declare; one "
    "that none explains (unexplained), a crash, a timeout or invalid output is a "
    "defect, of the implementation or of metricdiff's model of it."
)
#: What the agreement matrices are.
def agreement_intro(section: MetricReport) -> str:
    return (
        "Each cell: on what share of the cases both scored the two implementations "
        "differ beyond their tolerances, then the median and the 95th percentile of "
        f"|Δ| over those cases ({UNITS[section.family]}); `0%`: they agree on every "
        "one. The user's own text, the fixtures and the generated edge cases are "
        "apart: an edge case always finds some difference, and says little of how two "
        "implementations differ on real text."
    )


PAIRS_INTRO = (
    "Nothing is run for these: where the reference reproduces both implementations "
    "of a pair on a case, their difference there is the reference's under their two "
    "profiles, and its cause (the fewest axes on which the profiles part that account "
    "for it) is found on the reference alone and shown on a minimal example; where a "
    "side is not reproduced, that side's conformance finding or defect above says why."
)
#: Why a pair was derived, as a report says it.
WHY = {"asked": "asked for", "largest": "one of the largest differences"}
#: How many of a derived pair's causes a report shows (pairs.json has them all).
PAIR_CAUSES = 4


def pair_summary(pair: DerivedPair) -> str:
    """``differ on 40 of 2047 cases (2%); their profiles predict 38; 2 where
    jury is not reproduced``."""
    text = (f"differ on {pair.differing} of {plural(pair.compared, 'case')} "
            f"({share(pair.differing / pair.compared if pair.compared else 0.0)})")
    if pair.differing:
        text += f"; their profiles predict {pair.predicted}"
    text += "".join(f"; {count} where {name} is not reproduced"
                    for name, count in pair.unpredicted.items())
    return text


def share(value: float) -> str:
    """A share as a whole percentage, never rounding a non-zero one to 0%."""
    if 0 < value < 0.005:
        return "<1%"
    return f"{value:.0%}"


def short(value: float | None) -> str:
    """A difference in points, short: ``0.42``, ``3.1``, ``27``."""
    if value is None:
        return "–"
    if value >= 10:
        return f"{value:.0f}"
    return f"{value:.1f}" if value >= 1 else f"{value:.2f}"


#: How a case's source is counted in a report.
_SOURCES = {"user": "of your text", "fixture": "fixture", "generated": "generated"}
#: No cell of a report is longer than this (in characters); report.json has the
#: rest, under the case ID the cell names.
CELL_LIMIT = 500


@attrs.frozen
class ProfileRow:
    """One implementation's declared value on each axis, and whether it departs."""

    person: Implementation
    values: tuple[tuple[str, bool], ...]

    @property
    def departures(self) -> tuple[str, ...]:
        return tuple(value for value, departs in self.values if departs)


@attrs.frozen
class Departed:
    """One implementation that a cause parts from the paper: its departure
    finding, its number among the metric's findings (from 1), the cause's Shapley
    contribution to its gap to the paper on the user's corpus (None without one,
    or for a participant the corpus table does not have), and whether every
    axis of the cause is one it declares."""

    finding: Finding
    number: int
    corpus: float | None
    declared: bool

    @property
    def name(self) -> str:
        return self.finding.impl_b

    def said(self) -> str:
        """What follows its name in a report: ``389 (+0.93 on your corpus)``."""
        return (f"{self.finding.count}" + ("" if self.declared else " (not declared)")
                + ("" if self.corpus is None else f" ({signed(self.corpus)} on your corpus)"))


@attrs.frozen
class DepartureGroup:
    """One cause of departure from the paper's profile, and whom it parts."""

    axis: str
    values: tuple[str, str]
    members: tuple[Departed, ...]

    @property
    def cases(self) -> int:
        return sum(member.finding.count for member in self.members)

    def changes(self) -> list[tuple[str, str, str]]:
        """Each axis of the cause with the paper's value and the implementations'."""
        return axis_changes(self.axis, self.values)

    @property
    def max_delta(self) -> float:
        return max(member.finding.max_delta for member in self.members)

    @property
    def shown(self) -> Departed:
        """The member whose example is shown: the smallest."""
        return min(self.members, key=lambda m: (_size(m.finding), m.number))


def axis_changes(axis: str, values: tuple[str, str]) -> list[tuple[str, str, str]]:
    """``tokenize,smoothing`` with ``none,none`` and ``13a,exp`` as one
    (axis, before, after) per axis (the values of a numeric axis such as
    ``f_measure`` never hold a comma)."""
    axes = axis.split(",")
    before, after = values[0].split(","), values[1].split(",")
    if len(before) != len(axes) or len(after) != len(axes):
        return [(axis, values[0], values[1])]
    return list(zip(axes, before, after, strict=True))


def _size(finding: Finding) -> int:
    texts = [*finding.example.hyps, *(r or "" for refs in finding.example.refs for r in refs)]
    return sum(len(text) + 10 for text in texts)


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
    departures: tuple[DepartureGroup, ...]
    #: Per implementation, the declared departures that part it from the paper
    #: on no case here.
    quiet: tuple[tuple[str, tuple[str, ...]], ...]
    #: Conformance findings, the pairs checked directly, failures: each with
    #: its number among the metric's findings.
    defects: tuple[tuple[int, Finding], ...]
    matrices: tuple[Agreement, ...]
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
    def corpus(self) -> MetricComparison | None:
        return self.record.corpus

    @property
    def points(self) -> float:
        """What a headline difference is multiplied by to be in points."""
        return POINTS[self.family]

    @property
    def tolerances(self) -> tuple[tuple[str, Tolerance], ...]:
        """Implementations whose tolerance is not the default one."""
        return tuple((p.name, p.tolerance) for p in self.record.implementations
                     if (p.tolerance.absolute, p.tolerance.relative)
                     != (Tolerance().absolute, Tolerance().relative))

    def counts(self) -> str:
        """``12 implementations, 2047 cases (47 fixtures, 2000 generated)``."""
        sources = Counter(case.source for case in self.record.cases)
        parts = ", ".join(f"{count} {_SOURCES.get(source, source)}"
                          + ("s" if source == "fixture" and count != 1 else "")
                          for source, count in sources.items())
        return (f"{plural(len(self.record.implementations), 'implementation')}, "
                f"{plural(len(self.record.cases), 'case')}"
                + (f" ({parts})" if len(sources) > 1 else ""))


@attrs.frozen
class Report:
    """The whole report."""

    metrics: tuple[MetricReport, ...]
    packages: tuple[PackageRow, ...] = ()
    #: Shown only when asked for: reports are otherwise the same bytes every time.
    timestamp: str | None = None
    #: With ``--cache``: how many peer scores came from it.
    cache: CacheUse | None = None

    def cache_sentence(self, folder: Callable[[str], str] = str) -> str | None:
        """``1,234 of 5,678 peer scores came from the cache in DIR.``, with ``--cache``
        (the folder written by ``folder``: a Markdown code span, say)."""
        if self.cache is None:
            return None
        return from_cache(self.cache.hits, self.cache.asked, folder(self.cache.folder)) + "."

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
                + not_applicable([n for m in self.metrics for n in m.record.not_applicable()])
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
    numbered = list(enumerate(record.findings, start=1))
    groups = departure_groups(record, numbered)
    return MetricReport(
        record, axes, tuple(paper[axis] for axis in axes), tuple(profiles), clauses, rows,
        unexplained(record), groups, quiet_departures(record, groups),
        tuple((n, f) for n, f in numbered if f.kind != "departure"),
        agreements(record), cases, pattern_groups(cases),
    )


def departure_groups(record: MetricRecord, numbered: Sequence[tuple[int, Finding]]
                     ) -> tuple[DepartureGroup, ...]:
    """The metric's departure findings grouped by cause, the most cases first."""
    people = {p.name: p for p in record.implementations}
    groups: dict[tuple[str, tuple[str, str]], list[Departed]] = {}
    for number, finding in numbered:
        if finding.kind != "departure":
            continue
        person = people.get(finding.impl_b)
        declared = person is not None and set(finding.axis.split(",")) <= set(
            departures(record.metric, person.profile))
        groups.setdefault((finding.axis, finding.values), []).append(
            Departed(finding, number, corpus_share(record.corpus, finding), declared))
    made = [DepartureGroup(axis, values, tuple(members))
            for (axis, values), members in groups.items()]
    made.sort(key=lambda group: (-group.cases, group.axis, group.values))
    return tuple(made)


def corpus_share(corpus: MetricComparison | None, finding: Finding) -> float | None:
    """The Shapley contribution of a departure's axes to its implementation's
    gap to the paper on the user's corpus, or None."""
    if corpus is None:
        return None
    gap = next((g for g in corpus.gaps if (g.impl_a, g.impl_b) == ("reference",
                                                                    finding.impl_b)), None)
    if gap is None or gap.attribution is None:
        return None
    axes = set(finding.axis.split(","))
    return sum(c.points for c in gap.attribution.contributions
               if set(c.axis.split(",")) & axes)


def quiet_departures(record: MetricRecord, groups: Sequence[DepartureGroup]
                     ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per implementation, its declared departures that no departure finding
    names: they change no score here."""
    named: dict[str, set[str]] = {}
    for group in groups:
        for member in group.members:
            named.setdefault(member.name, set()).update(group.axis.split(","))
    quiet = []
    for person in record.implementations:
        if person.impl == "reference":
            continue
        axes = tuple(axis for axis in departures(record.metric, person.profile)
                     if axis not in named.get(person.name, set()))
        if axes:
            quiet.append((person.name, axes))
    return tuple(quiet)


def build(audit: AuditRecord, timestamp: str | None = None) -> Report:
    """The report of an audit."""
    return Report(tuple(metric_report(record) for record in audit.metrics),
                  tuple(package_rows(audit.metrics)), timestamp, audit.cache)

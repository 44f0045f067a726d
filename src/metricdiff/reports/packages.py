"""The package verdict table: one row per implementation that took part in the
audit, with its version, a one-word verdict, its departures from the paper and
its defects with the cases each affects -- the review of BLEU and ROUGE packages
that *Rogue Scores* (Grusky, ACL 2023) made by hand, made from the audit.  Every
report leads with it, and ``packages.md`` (which the README links) is it alone.

It is built from the audit folder's records alone, so every audit regenerates it
and a new adapter appears in it without code here: the package and version are
what the adapter's metadata gave the audit.  A profile variant (``sacrebleu+intl``,
``rouge-score+stemmed``) is a row of its package, not a package: its findings
count for the package, its departures are not the package's defaults.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import attrs

from metricdiff.findings.finding import FAILURES, Finding
from metricdiff.impls.settings import parse_spec
from metricdiff.markdown_text import code, escape
from metricdiff.reports.conformance import departures, is_unexplained
from metricdiff.reports.model import MetricRecord
from metricdiff.wording import plural

PACKAGES_NAME = "packages.md"

#: The implementation that defines the paper's values: not a package under review.
REFERENCE = "reference"

#: The profile labels that are an implementation's own defaults.
_OWN_LABELS = ("declared", "unknown")

#: Where a defect is listed in more metrics than this with the same count of
#: cases, it is said once: ``42 cases in each of 8 metrics``.
_SPELLED_OUT = 3


@attrs.define
class PackageRow:
    """One implementation: what the audit knows about it, over every metric."""

    implementation: str
    package: str = ""
    version: str = ""
    metrics: list[str] = attrs.field(factory=list)
    #: Metric family -> ``axis=value`` where its declared profile departs from
    #: the paper's.
    departures: dict[str, list[str]] = attrs.field(factory=dict)
    #: Metric family -> ``axis=value`` that explain a conformance finding:
    #: undeclared conventions.
    found: dict[str, list[str]] = attrs.field(factory=dict)
    #: defect (``unexplained``, ``crash ValueError``...) -> metric -> cases affected.
    defects: dict[str, dict[str, int]] = attrs.field(factory=dict)

    @property
    def verdict(self) -> str:
        """``defect`` if anything is unexplained or broken, else ``convention`` if
        it departs from the paper on some axis, else ``conforms``."""
        if self.defects:
            return "defect"
        if self.departures or self.found:
            return "convention"
        return "conforms"

    def cases(self, defect: str) -> int:
        return sum(self.defects[defect].values())


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _implementation(name: str) -> str:
    """The implementation a participant's ``impl`` names, settings aside."""
    return parse_spec(name).name


def defect_of(finding: Finding) -> str | None:
    """The defect a finding shows, as the table names it (``unexplained``,
    ``crash ValueError``), or None for one that shows none."""
    if finding.kind in FAILURES:
        # The error's type, or what it says without its numbers (``recall 1.1
        # outside [0, 1]`` and ``recall 2 outside [0, 1]`` are one defect).
        what = re.sub(r" -?[0-9][0-9.e+-]* outside", " outside",
                      finding.example.error.split(":")[0])
        return f"{finding.kind} {what}".strip()
    if finding.kind == "conformance" and is_unexplained(finding):
        return "unexplained"
    return None


def package_rows(records: Sequence[MetricRecord]) -> list[PackageRow]:
    """The rows of the table, in the order the implementations first take part."""
    rows: dict[str, PackageRow] = {}
    for record in records:
        owner: dict[str, str] = {}
        for person in record.implementations:
            name = _implementation(person.impl)
            if name == REFERENCE:
                continue
            owner[person.name] = name
            row = rows.setdefault(name, PackageRow(name))
            row.package = row.package or person.package
            row.version = row.version or person.version
            _add(row.metrics, record.metric)
            if person.label in _OWN_LABELS:
                for axis in departures(record.metric, person.profile):
                    _add(row.departures.setdefault(record.family, []),
                         f"{axis}={person.profile[axis]}")
        for finding in record.findings:
            if finding.impl_a not in owner or finding.kind not in ("conformance", *FAILURES):
                continue
            row = rows[owner[finding.impl_a]]
            defect = defect_of(finding)
            if defect is not None:
                counts = row.defects.setdefault(defect, {})
                counts[record.metric] = counts.get(record.metric, 0) + finding.count
            elif finding.kind == "conformance" and finding.axis:
                for axis, value in zip(finding.axis.split(","), finding.values[1].split(","),
                                       strict=False):
                    _add(row.found.setdefault(record.family, []), f"{axis}={value}")
    return list(rows.values())


def departures_cell(row: PackageRow) -> str:
    """``axis=value``, each in a code span, and the ones found undeclared; by
    metric family (``BLEU: ...; ROUGE: ...``) for a package of both."""
    families = list(dict.fromkeys([*row.departures, *row.found]))
    parts = []
    for family in families:
        text = _cell(row.departures.get(family, []))
        if row.found.get(family):
            text += f"; found: {_cell(row.found[family])}"
        parts.append(f"{family.upper()}: {text}" if len(families) > 1 else text)
    return "; ".join(parts) or "none"


def defects_cell(row: PackageRow) -> str:
    """Each defect with the cases it affects, metric by metric."""
    parts = []
    for defect, counts in row.defects.items():
        kind, _, detail = defect.partition(" ")
        name = f"{escape(kind)} {code(detail)}" if detail else escape(kind)
        values = set(counts.values())
        if len(counts) > _SPELLED_OUT and len(values) == 1:
            where = f"{plural(values.pop(), 'case')} in each of {len(counts)} metrics"
        else:
            where = ", ".join(f"{metric} {count}" for metric, count in counts.items())
            where = f"{plural(sum(counts.values()), 'case')}: {where}"
        parts.append(f"{name} ({where})")
    return "; ".join(parts) or "none"


def _cell(items: Iterable[str]) -> str:
    return ", ".join(code(item) for item in items) or "none"


HEADERS = ("implementation", "package", "version", "verdict", "departures from the paper",
           "defects (cases)")
HEADER = ("| " + " | ".join(HEADERS) + " |\n|" + "|".join("---" for _ in HEADERS) + "|")


def table(rows: Iterable[PackageRow]) -> str:
    """The table itself, as ``packages.md`` shows it."""
    lines = [HEADER]
    for row in rows:
        lines.append(
            f"| {code(row.implementation)} | {escape(row.package) or '—'} "
            f"| {escape(row.version) or '—'} | **{row.verdict}** | {departures_cell(row)} "
            f"| {defects_cell(row)} |"
        )
    return "\n".join(lines) + "\n"


INTRO = (
    "Every implementation the audit ran, one row each (a profile variant such as "
    "`sacrebleu+intl` counts for its package). The **verdict**: `conforms` (the "
    "paper's definition), `convention` (departs only on named axes), `defect` "
    "(something unexplained or broken). **Departures from the paper** are the axes "
    "on which its declared default profile differs from the paper's; `found:` "
    "axes are conventions the audit caught it using without declaring them. "
    "**Defects** are its conformance findings that no convention explains "
    "(`unexplained`), its crashes, timeouts and invalid outputs, with the cases "
    "affected in each metric."
)

_HEAD = """\
# Packages

<!-- Written by `metricdiff audit --out DIR` (and `metricdiff report`) from the
     audit's own data, like report.md: edit the adapters, not this file. -->

"""


def render(rows: Iterable[PackageRow]) -> str:
    """The whole of ``packages.md``."""
    return (_HEAD + INTRO + " The axes are those of "
            "[docs/conventions.md](../docs/conventions.md).\n\n" + table(rows))

"""``packages.md``: the package table, one row per implementation that took part
in the audit, with its departures from the paper, its defects and a one-word
verdict -- the review of BLEU and ROUGE packages that *Rogue Scores* (Grusky,
ACL 2023) made by hand, made from the audit.

It is built from ``report.json``'s data alone, so every audit regenerates it and
a new adapter appears in it without code here: the package and version are what
the adapter's metadata gave the audit.  A profile variant (``sacrebleu+intl``,
``rouge-score+stemmed``) is a row of its package, not a package: its findings
count for the package, its departures are not the package's defaults.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from metricdiff.impls.settings import parse_spec
from metricdiff.markdown_text import code, escape
from metricdiff.wording import plural

PACKAGES_NAME = "packages.md"

#: The implementation that defines the paper's values: not a package under review.
REFERENCE = "reference"

#: Finding kinds that are defects by themselves; an unexplained conformance
#: finding is the other defect.
FAILURES = ("crash", "timeout", "invalid-output")

#: The profile labels that are an implementation's own defaults.
_OWN_LABELS = ("declared", "unknown")


@attrs.define
class PackageRow:
    """One implementation: what the audit knows about it, over every metric."""

    implementation: str
    package: str = ""
    version: str = ""
    metrics: list[str] = attrs.field(factory=list)
    #: ``axis=value`` where its declared profile departs from the paper's.
    departures: list[str] = attrs.field(factory=list)
    #: ``axis=value`` that explain a conformance finding: undeclared conventions.
    found: list[str] = attrs.field(factory=list)
    #: defect (``unexplained``, ``crash``...) -> cases affected.
    defects: dict[str, int] = attrs.field(factory=dict)

    @property
    def verdict(self) -> str:
        """``defect`` if anything is unexplained or broken, else ``convention`` if
        it departs from the paper on some axis, else ``conforms``."""
        if self.defects:
            return "defect"
        if self.departures or self.found:
            return "convention"
        return "conforms"


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _implementation(name: str) -> str:
    """The implementation a participant's ``impl`` names, settings aside."""
    return parse_spec(name).name


def _add_participant(row: PackageRow, metric: str, person: Mapping[str, Any]) -> None:
    """Its package, version and metric, and, for its own defaults, the axes on
    which the report found them departing from the paper's."""
    row.package = row.package or str(person.get("package") or "")
    row.version = row.version or str(person.get("version") or "")
    _add(row.metrics, metric)
    if person.get("label") in _OWN_LABELS:
        for axis in person.get("departures", []):
            _add(row.departures, f"{axis}={person['profile'][axis]}")


def _add_finding(row: PackageRow, finding: Mapping[str, Any]) -> None:
    kind = finding["kind"]
    if kind in FAILURES:
        row.defects[kind] = row.defects.get(kind, 0) + int(finding["count"])
    elif kind == "conformance" and not finding.get("explained", True):
        row.defects["unexplained"] = row.defects.get("unexplained", 0) + int(finding["count"])
    elif kind == "conformance" and finding.get("axis"):
        for axis, value in zip(finding["axis"].split(","), finding["values"][1].split(","),
                               strict=False):
            _add(row.found, f"{axis}={value}")


def package_rows(report: Mapping[str, Any]) -> list[PackageRow]:
    """The rows of the table, from ``report.json``'s contents, in the order the
    implementations first take part."""
    rows: dict[str, PackageRow] = {}
    for section in report.get("metrics", []):
        owner: dict[str, str] = {}
        for person in section["implementations"]:
            name = _implementation(person["impl"])
            if name == REFERENCE:
                continue
            owner[person["name"]] = name
            row = rows.setdefault(name, PackageRow(name))
            _add_participant(row, section["metric"], person)
        for finding in section["findings"]:
            if finding["impl_a"] in owner and (finding["kind"] in FAILURES
                                               or finding["impl_b"] == REFERENCE):
                _add_finding(rows[owner[finding["impl_a"]]], finding)
    return list(rows.values())


def _cell(items: Iterable[str]) -> str:
    return ", ".join(code(item) for item in items) or "none"


def _departures(row: PackageRow) -> str:
    text = _cell(row.departures)
    if row.found:
        text += f"; found: {_cell(row.found)}"
    return text


def _defects(row: PackageRow) -> str:
    return ", ".join(f"{kind} ({plural(cases, 'case')})"
                     for kind, cases in row.defects.items()) or "none"


HEADER = ("| implementation | package | version | metrics | departures from the paper "
          "| defects found | verdict |\n|---|---|---|---|---|---|---|")


def table(rows: Iterable[PackageRow]) -> str:
    """The table itself, as the README shows it too."""
    lines = [HEADER]
    for row in rows:
        lines.append(
            f"| {code(row.implementation)} | {escape(row.package) or '—'} "
            f"| {escape(row.version) or '—'} | {escape(', '.join(row.metrics))} "
            f"| {_departures(row)} | {escape(_defects(row))} | **{row.verdict}** |"
        )
    return "\n".join(lines) + "\n"


_INTRO = """\
# Packages

<!-- Written by `metricdiff audit --out DIR` (and `metricdiff report`) from the
     audit's own data, like report.md: edit the adapters, not this file. -->

Every implementation the audit ran, one row each (a profile variant such as
`sacrebleu+intl` counts for its package). **Departures from the paper** are the
axes ([docs/conventions.md](../docs/conventions.md)) on which its declared
default profile differs from the paper's; `found:` axes are conventions the
audit caught it using without declaring them. **Defects found** are its
conformance findings that no convention explains (`unexplained`), its crashes,
timeouts and invalid outputs, with the number of cases affected. The
**verdict**: `conforms` (the paper's definition), `convention` (departs only on
named axes), `defect` (something unexplained or broken).

"""


def render(report: Mapping[str, Any]) -> str:
    """The whole of ``packages.md`` for ``report.json``'s contents."""
    return _INTRO + table(package_rows(report))

"""The package table (reports/packages.md, and the README's copy of it): rows,
departures, defects and verdicts on a small hand-made audit."""

from __future__ import annotations

from typing import Any

from helpers import ROOT
from metricdiff.reports.packages import HEADER, PackageRow, package_rows, table


def _person(name: str, impl: str, label: str, profile: dict[str, str],
            package: str = "") -> dict[str, Any]:
    departures = [axis for axis, value in profile.items() if value != PAPER[axis]]
    return {"name": name, "impl": impl, "label": label, "version": "1.0",
            "package": package, "profile": profile, "departures": departures}


PAPER = {"tokenize": "none", "smoothing": "none"}


def _finding(kind: str, a: str, b: str, count: int, axis: str = "",
             values: tuple[str, str] = ("", ""), explained: bool = True) -> dict[str, Any]:
    return {"kind": kind, "impl_a": a, "impl_b": b, "count": count, "axis": axis,
            "values": list(values), "explained": explained}


#: One metric, four implementations and a profile variant, made up so that each
#: verdict rule is met once.
REPORT: dict[str, Any] = {"metrics": [{
    "metric": "bleu",
    "implementations": [
        _person("reference", "reference", "paper", PAPER),
        _person("plain", "plain", "declared", PAPER, package="plain-bleu"),
        _person("smooth", "smooth", "declared", {**PAPER, "smoothing": "exp"}),
        _person("smooth+intl", "smooth", "intl", {"tokenize": "intl", "smoothing": "exp"}),
        _person("broken", "broken", "declared", PAPER),
        _person("sly", "sly", "declared", PAPER),
    ],
    "findings": [
        # agreement findings are between two peers: nobody's defect
        _finding("agreement", "plain", "smooth", 9, explained=False),
        _finding("agreement", "plain", "smooth", 5, "smoothing", ("none", "exp")),
        _finding("conformance", "broken", "reference", 2, "unexplained", explained=False),
        _finding("crash", "broken", "", 3),
        # the variant's crash counts for its package
        _finding("crash", "smooth+intl", "", 1),
        # an undeclared convention, named by the explainer
        _finding("conformance", "sly", "reference", 4, "empty_bp", ("one", "zero")),
    ],
}]}


def test_rows_group_variants_and_skip_the_reference() -> None:
    rows = {row.implementation: row for row in package_rows(REPORT)}
    assert list(rows) == ["plain", "smooth", "broken", "sly"]
    assert rows["plain"].package == "plain-bleu"
    assert rows["plain"].metrics == ["bleu"]


def test_departures_are_the_declared_profile_against_the_papers() -> None:
    rows = {row.implementation: row for row in package_rows(REPORT)}
    # smooth declares smoothing=exp; its +intl variant's tokenize is not its default
    assert rows["smooth"].departures == ["smoothing=exp"]
    assert rows["plain"].departures == []
    assert rows["sly"].found == ["empty_bp=zero"]


def test_verdicts_by_hand() -> None:
    rows = {row.implementation: row for row in package_rows(REPORT)}
    # plain: paper profile, no conformance finding, no failure
    assert rows["plain"].verdict == "conforms"
    assert rows["plain"].defects == {}
    # broken: 2 unexplained cases, 3 crashed ones
    assert rows["broken"].defects == {"unexplained": 2, "crash": 3}
    assert rows["broken"].verdict == "defect"
    # smooth: a declared departure, but its variant crashed once
    assert rows["smooth"].defects == {"crash": 1}
    assert rows["smooth"].verdict == "defect"
    # sly: no declared departure, one found by the explainer
    assert rows["sly"].verdict == "convention"


def test_a_row_as_markdown() -> None:
    row = PackageRow("smooth", "smooth-bleu", "2.0", ["bleu"], ["smoothing=exp"], [],
                     {"crash": 1})
    assert table([row]) == (
        HEADER + "\n| `smooth` | smooth-bleu | 2.0 | bleu | `smoothing=exp` "
        "| crash (1 case) | **defect** |\n"
    )


def _table_lines(text: str) -> list[str]:
    start = text.index(HEADER.splitlines()[0])
    lines = []
    for line in text[start:].splitlines():
        if not line.startswith("|"):
            break
        lines.append(line)
    return lines


def test_readme_shows_the_committed_package_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    committed = (ROOT / "reports" / "packages.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The package table"):]
    assert _table_lines(section) == _table_lines(committed), (
        "README.md's package table differs from reports/packages.md: copy the table "
        "from reports/packages.md into README.md's section 'The package table'"
    )

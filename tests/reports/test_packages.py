"""The package verdict table (every report leads with it; reports/packages.md,
which the README links): rows, departures, defects and verdicts on a small
hand-made audit."""

from __future__ import annotations

from helpers import ROOT
from metricdiff.findings.finding import Example, Finding
from metricdiff.impls.base import Tolerance
from metricdiff.reports.conformance import paper_profile
from metricdiff.reports.model import CaseInfo, Implementation, MetricRecord
from metricdiff.reports.packages import (
    HEADER,
    PackageRow,
    defects_cell,
    departures_cell,
    package_rows,
    table,
)

PAPER = {"tokenize": "none", "smoothing": "none"}
#: The paper's value on every BLEU axis (the profiles above override two).
_BLEU_PAPER = paper_profile("bleu")


def _person(name: str, impl: str, label: str, profile: dict[str, str],
            package: str = "") -> Implementation:
    return Implementation(name, impl, label, "1.0", f"bleu|impl:{impl}-1.0",
                          {**_BLEU_PAPER, **profile}, Tolerance(), package)


def _finding(kind: str, a: str, b: str, count: int, axis: str = "",
             values: tuple[str, str] = ("", ""), explained: bool = True,
             error: str = "") -> Finding:
    return Finding("bleu", a, b, kind, axis, values, "", count, 0.0,
                   Example("c1", ("x",), (("y",),), None, None, error), {}, (), explained)


#: One metric, four implementations and a profile variant, made up so that each
#: verdict rule is met once.
RECORD = MetricRecord(
    "bleu",
    (
        _person("reference", "reference", "paper", PAPER),
        _person("plain", "plain", "declared", PAPER, package="plain-bleu"),
        _person("smooth", "smooth", "declared", {**PAPER, "smoothing": "exp"}),
        _person("smooth+intl", "smooth", "intl", {"tokenize": "intl", "smoothing": "exp"}),
        _person("broken", "broken", "declared", PAPER),
        _person("sly", "sly", "declared", PAPER),
    ),
    (), (CaseInfo("c1", "fixture"),), {},
    (
        # departures and a pair checked directly are nobody's defect
        _finding("departure", "reference", "smooth", 5, "smoothing", ("none", "exp")),
        _finding("agreement", "plain", "smooth", 9, explained=False),
        _finding("conformance", "broken", "reference", 2, "unexplained", explained=False),
        _finding("crash", "broken", "", 3, error="ValueError: no"),
        # the variant's crash counts for its package
        _finding("crash", "smooth+intl", "", 1, error="KeyError: x"),
        # an undeclared convention, named by the explainer
        _finding("conformance", "sly", "reference", 4, "empty_bp", ("one", "zero")),
    ),
)


def test_rows_group_variants_and_skip_the_reference() -> None:
    rows = {row.implementation: row for row in package_rows([RECORD])}
    assert list(rows) == ["plain", "smooth", "broken", "sly"]
    assert rows["plain"].package == "plain-bleu"
    assert rows["plain"].metrics == ["bleu"]


def test_departures_are_the_declared_profile_against_the_papers() -> None:
    rows = {row.implementation: row for row in package_rows([RECORD])}
    # smooth declares smoothing=exp; its +intl variant's tokenize is not its default
    assert rows["smooth"].departures == {"bleu": ["smoothing=exp"]}
    assert rows["plain"].departures == {}
    assert rows["sly"].found == {"bleu": ["empty_bp=zero"]}


def test_verdicts_by_hand() -> None:
    rows = {row.implementation: row for row in package_rows([RECORD])}
    # plain: paper profile, no conformance finding, no failure
    assert rows["plain"].verdict == "conforms"
    assert rows["plain"].defects == {}
    # broken: 2 unexplained cases, 3 crashed ones
    assert rows["broken"].defects == {"unexplained": {"bleu": 2},
                                      "crash ValueError": {"bleu": 3}}
    assert rows["broken"].verdict == "defect"
    # smooth: a declared departure, but its variant crashed once
    assert rows["smooth"].defects == {"crash KeyError": {"bleu": 1}}
    assert rows["smooth"].verdict == "defect"
    # sly: no declared departure, one found by the explainer
    assert rows["sly"].verdict == "convention"


def test_a_row_as_markdown() -> None:
    row = PackageRow("smooth", "smooth-bleu", "2.0", ["bleu"], {"bleu": ["smoothing=exp"]}, {},
                     {"crash KeyError": {"bleu": 1}})
    assert table([row]) == (
        HEADER + "\n| `smooth` | smooth-bleu | 2.0 | **defect** | `smoothing=exp` "
        "| crash `KeyError` (1 case: bleu 1) |\n"
    )


def test_a_package_of_both_families_says_which_departures_are_whose() -> None:
    row = PackageRow("sumeval", departures={"bleu": ["tokenize=13a"],
                                            "rouge": ["tokenize=rouge155"]},
                     found={"rouge": ["variant=lsum"]})
    assert departures_cell(row) == ("BLEU: `tokenize=13a`; ROUGE: `tokenize=rouge155`; "
                                    "found: `variant=lsum`")


def test_a_defect_in_many_metrics_with_the_same_count_is_said_once() -> None:
    same = {metric: 42 for metric in ("rouge-1", "rouge-2", "rouge-l", "rouge-w")}
    row = PackageRow("pyrouge", defects={"crash RuntimeError": same})
    assert defects_cell(row) == "crash `RuntimeError` (42 cases in each of 4 metrics)"


def test_readme_links_the_committed_package_table() -> None:
    """The README once carried a copy of the table, some 40 lines of up to 400
    characters; a landing page links it instead (issue 28, item 9)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](reports/packages.md)" in readme
    assert HEADER.splitlines()[0] in (ROOT / "reports" / "packages.md").read_text(
        encoding="utf-8")

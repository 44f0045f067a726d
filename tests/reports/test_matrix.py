"""How much of the cases x implementations matrix a report spells out: every
fixture case; one generated case of each of the most frequent patterns only
(with twenty implementations nearly every generated case has a pattern of its
own); tooltips cut short."""

from __future__ import annotations

import string

from metricdiff.reports import html_cases
from metricdiff.reports.matrix import LISTED_PATTERNS, CaseRow, Cell, pattern_groups


def row(case: str, source: str, pattern: str) -> CaseRow:
    return CaseRow(case, source, tuple(Cell(k, "ok", 1.0, "") for k in pattern))


def test_generated_cases_are_listed_for_the_most_frequent_patterns_only():
    # Pattern k (k = 0 .. LISTED_PATTERNS + 4) has LISTED_PATTERNS + 10 - k generated
    # cases, so the order by frequency is k's; each pattern also has one fixture.
    patterns = [string.ascii_uppercase[k % 26] + string.ascii_uppercase[k // 26]
                for k in range(LISTED_PATTERNS + 5)]
    rows = []
    for k, pattern in enumerate(patterns):
        rows.append(row(f"fix_{k}", "fixture", pattern))
        rows += [row(f"gen_{k}_{i}", "generated", pattern)
                 for i in range(LISTED_PATTERNS + 10 - k)]
    groups = pattern_groups(rows)
    assert [g.pattern for g in groups] == patterns
    for k, group in enumerate(groups):
        listed = [r.case for r in group.listed]
        # Every fixture; the first generated case only among the first LISTED_PATTERNS.
        assert listed == ([f"fix_{k}", f"gen_{k}_0"] if k < LISTED_PATTERNS else [f"fix_{k}"])
        assert group.not_listed == len(group.rows) - len(listed)


def test_a_long_tooltip_is_cut():
    error = "UnsupportedOption: " + "x" * 300
    cell = html_cases._cell(Cell("-", "crash", None, error), "-")
    title = cell.split('title="', 1)[1].split('"', 1)[0]
    assert len(title) == html_cases.TITLE_LENGTH and title.endswith("…")
    assert title.startswith("crash: UnsupportedOption: xxx")

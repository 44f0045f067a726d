"""The two matrices of a report, computed from the recorded runs alone.

- **Agreement** (implementation x implementation): the largest difference between
  two implementations' headline numbers over the cases both scored, and on how many
  of those cases they differ beyond their tolerances.
- **Cases x implementations**, in the spirit of JSONTestSuite's results page: on
  each case every implementation gets a class — ``A`` for the value of the first
  implementation that scored it, ``B`` for the next distinct value, and so on;
  ``!`` for a crash, timeout or invalid output; ``-`` where the case does not apply
  to it; ``?`` where it gave a result without the headline number.  The string of
  classes is the case's *pattern of disagreement*; cases are grouped by pattern,
  the most frequent first.  A report lists every fixture case and every line of a
  user's files, but only the first ``LISTED_PER_PATTERN`` generated cases of a
  pattern (thousands of them, alike within a pattern), and says how many more
  there are.
"""

from __future__ import annotations

import string
from collections.abc import Sequence

import attrs

from metricdiff.impls.base import Tolerance
from metricdiff.reports.model import Implementation, MetricRecord, Run

#: The class of a run that failed, and of a case an implementation cannot take.
FAILED = "!"
NOT_APPLICABLE = "-"
#: The class of a result that does not report the headline number.
UNKNOWN = "?"
#: Class letters, in the order values are met.
LETTERS = string.ascii_uppercase + string.ascii_lowercase
#: How many of a pattern's generated cases a report lists, in how many of the
#: most frequent patterns: with twenty implementations nearly every generated case
#: has a pattern of its own, and listing one of each made report.html megabytes.
LISTED_PER_PATTERN = 1
LISTED_PATTERNS = 20
GENERATED = "generated"


def pair_tolerance(a: Implementation, b: Implementation) -> Tolerance:
    """The looser of two implementations' tolerances, as the audit compares them."""
    return Tolerance(max(a.tolerance.absolute, b.tolerance.absolute),
                     max(a.tolerance.relative, b.tolerance.relative))


def _same(a: float, b: float, tolerance: Tolerance) -> bool:
    return tolerance.allows(a, b, 0.0)


@attrs.frozen
class Agreement:
    """Implementation x implementation: ``max_delta[i][j]`` is the largest
    |headline_i - headline_j| over the cases both scored (None if there is none),
    ``differing[i][j]`` on how many of them they differ beyond tolerance, and
    ``compared[i][j]`` how many cases both scored."""

    names: tuple[str, ...]
    max_delta: tuple[tuple[float | None, ...], ...]
    differing: tuple[tuple[int, ...], ...]
    compared: tuple[tuple[int, ...], ...]

    @property
    def largest(self) -> float:
        """The largest difference in the matrix (0 if none)."""
        return max((d for row in self.max_delta for d in row if d is not None), default=0.0)


def agreement(record: MetricRecord) -> Agreement:
    """The agreement matrix of one metric's implementations."""
    people = record.implementations
    heads = {
        p.name: [_headline(record.run(p.name, case.id)) for case in record.cases]
        for p in people
    }
    deltas: list[tuple[float | None, ...]] = []
    differing: list[tuple[int, ...]] = []
    compared: list[tuple[int, ...]] = []
    for a in people:
        row_delta: list[float | None] = []
        row_differing: list[int] = []
        row_compared: list[int] = []
        for b in people:
            tolerance = pair_tolerance(a, b)
            pairs = [(x, y) for x, y in zip(heads[a.name], heads[b.name], strict=True)
                     if x is not None and y is not None]
            row_delta.append(max((abs(x - y) for x, y in pairs), default=None))
            row_differing.append(sum(1 for x, y in pairs if not _same(x, y, tolerance)))
            row_compared.append(len(pairs))
        deltas.append(tuple(row_delta))
        differing.append(tuple(row_differing))
        compared.append(tuple(row_compared))
    return Agreement(tuple(p.name for p in people), tuple(deltas), tuple(differing),
                     tuple(compared))


def _headline(run: Run | None) -> float | None:
    if run is None or run.status != "ok":
        return None
    return run.headline


# -------------------------------------------------------- cases x implementations


@attrs.frozen
class Cell:
    """One implementation on one case: its class and what it gave."""

    klass: str
    status: str
    headline: float | None
    error: str


@attrs.frozen
class CaseRow:
    """One case: its cells in implementation order and their pattern."""

    case: str
    source: str
    cells: tuple[Cell, ...]

    @property
    def pattern(self) -> str:
        return "".join(cell.klass for cell in self.cells)


@attrs.frozen
class PatternGroup:
    """The cases that share one pattern of disagreement."""

    pattern: str
    rows: tuple[CaseRow, ...]
    #: How many of its generated cases a report lists (0 past the most frequent
    #: ``LISTED_PATTERNS`` patterns).
    generated_listed: int = LISTED_PER_PATTERN

    @property
    def listed(self) -> tuple[CaseRow, ...]:
        """The rows a report spells out, in the audit's order: the first
        ``generated_listed`` generated cases and every other case."""
        chosen: list[CaseRow] = []
        generated = 0
        for row in self.rows:
            if row.source == GENERATED:
                generated += 1
                if generated > self.generated_listed:
                    continue
            chosen.append(row)
        return tuple(chosen)

    @property
    def not_listed(self) -> int:
        """How many of the pattern's cases a report leaves out."""
        return len(self.rows) - len(self.listed)

    @property
    def agree(self) -> bool:
        """Whether every implementation that scored these cases agrees."""
        return set(self.pattern) <= {"A", FAILED, NOT_APPLICABLE, UNKNOWN}


def _not_applicable(run: Run | None) -> bool:
    return run is None or run.error.startswith("UnsupportedOption")


def classify(people: Sequence[Implementation], runs: Sequence[Run | None]) -> tuple[Cell, ...]:
    """Each run's class: equal values (within the two implementations' tolerance
    of the first one met with that value) share a letter."""
    classes: list[tuple[Implementation, float]] = []  # (first member, its value)
    cells = []
    for person, run in zip(people, runs, strict=True):
        if _not_applicable(run):
            cells.append(Cell(NOT_APPLICABLE, "n/a" if run is None else run.status, None,
                              "" if run is None else run.error))
            continue
        assert run is not None
        value = run.headline
        if run.status != "ok":
            cells.append(Cell(FAILED, run.status, None, run.error))
            continue
        if value is None:
            cells.append(Cell(UNKNOWN, run.status, None, run.error))
            continue
        for index, (first, seen) in enumerate(classes):
            if _same(seen, value, pair_tolerance(first, person)):
                klass = LETTERS[min(index, len(LETTERS) - 1)]
                break
        else:
            klass = LETTERS[min(len(classes), len(LETTERS) - 1)]
            classes.append((person, value))
        cells.append(Cell(klass, run.status, value, run.error))
    return tuple(cells)


def case_rows(record: MetricRecord) -> tuple[CaseRow, ...]:
    """Every case of the metric, in the audit's order."""
    people = record.implementations
    return tuple(
        CaseRow(case.id, case.source,
                classify(people, [record.run(p.name, case.id) for p in people]))
        for case in record.cases
    )


def pattern_groups(rows: Sequence[CaseRow]) -> tuple[PatternGroup, ...]:
    """The rows grouped by pattern: most cases first, then by pattern; rows keep
    their order inside a group.  Generated cases are listed only in the first
    ``LISTED_PATTERNS`` groups."""
    groups: dict[str, list[CaseRow]] = {}
    for row in rows:
        groups.setdefault(row.pattern, []).append(row)
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    return tuple(PatternGroup(pattern, tuple(members),
                              LISTED_PER_PATTERN if rank < LISTED_PATTERNS else 0)
                 for rank, (pattern, members) in enumerate(ordered))

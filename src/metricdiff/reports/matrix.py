"""The two matrices of a report, computed from the recorded runs alone.

- **Agreement** (implementation x implementation), one per group of cases -- the
  user's own segments, the fixtures, the generated edge cases apart: on what
  share of the cases both scored two implementations differ beyond their
  tolerances, and by how much (the median and the 95th percentile of |Δ| over
  those cases; the mean over all, the typical difference, sets the colour).
- **Cases x implementations**, in the spirit of JSONTestSuite's results page: on
  each case every implementation gets a class — ``A`` for the value of the first
  implementation that scored it, ``B`` for the next distinct value, and so on;
  ``!`` for a crash, timeout or invalid output; ``-`` where the case does not apply
  to it; ``?`` where it gave a result without the headline number.  The string of
  classes is the case's *pattern of disagreement*; cases are grouped by pattern,
  the most frequent first.  A report lists every fixture case, but only the
  first ``USER_LINES_PER_PATTERN`` lines of a user's files and the first
  ``LISTED_PER_PATTERN`` generated cases of a pattern (hundreds or thousands of
  them, alike within a pattern), and says how many more there are.
"""

from __future__ import annotations

import math
import statistics
import string
from collections.abc import Mapping, Sequence

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
#: How many lines of a user's files a pattern lists: a corpus of hundreds of
#: lines with twenty implementations made report.html megabytes too.
USER_LINES_PER_PATTERN = 3
GENERATED = "generated"


def pair_tolerance(a: Implementation, b: Implementation) -> Tolerance:
    """The looser of two implementations' tolerances, as the audit compares them."""
    return Tolerance(max(a.tolerance.absolute, b.tolerance.absolute),
                     max(a.tolerance.relative, b.tolerance.relative))


def _same(a: float, b: float, tolerance: Tolerance) -> bool:
    return tolerance.allows(a, b, 0.0)


#: The groups of cases an agreement matrix is made for, in the order shown:
#: the user's own segments (each line; not the whole corpus), the fixtures,
#: the generated edge cases.
GROUPS = (("your text", "user"), ("fixtures", "fixture"), ("generated edge cases", GENERATED))
#: What a headline number is multiplied by to be in points: BLEU is 0-100
#: already, ROUGE's F is 0-1.
POINTS = {"bleu": 1.0, "rouge": 100.0}


@attrs.frozen
class PairCell:
    """Two implementations on the cases of one group both scored: on how many
    they differ beyond their tolerances, and how much: the median and the 95th
    percentile of |Δ| over those cases, and the mean |Δ| over every case
    compared (the typical difference: what the colour follows), in points."""

    compared: int
    differing: int
    median: float | None
    p95: float | None
    mean: float

    @property
    def share(self) -> float:
        return self.differing / self.compared if self.compared else 0.0


@attrs.frozen
class Agreement:
    """Implementation x implementation on one group of cases (``GROUPS``)."""

    group: str
    cases: int
    names: tuple[str, ...]
    cells: tuple[tuple[PairCell, ...], ...]


def quantile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank quantile of ``ordered`` (sorted, not empty)."""
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def agreements(record: MetricRecord) -> tuple[Agreement, ...]:
    """The agreement matrix of each group of cases the audit has."""
    people = record.implementations
    scale = POINTS[record.family]
    found = []
    for label, source in GROUPS:
        chosen = [case for case in record.cases
                  if case.source == source and (source != "user" or case.segments == 1)]
        if not chosen:
            continue
        heads = {p.name: [_headline(record.run(p.name, case.id)) for case in chosen]
                 for p in people}
        rows = []
        for a in people:
            rows.append(tuple(_pair_cell(heads[a.name], heads[b.name], pair_tolerance(a, b),
                                         scale) for b in people))
        found.append(Agreement(label, len(chosen), tuple(p.name for p in people), tuple(rows)))
    return tuple(found)


def _pair_cell(left: Sequence[float | None], right: Sequence[float | None],
               tolerance: Tolerance, scale: float) -> PairCell:
    # One loop with ``Tolerance.allows`` written out: a report of twenty
    # implementations on 2,000 cases compares a million pairs of numbers here.
    absolute, relative = tolerance.absolute, tolerance.relative
    deltas: list[float] = []
    differing: list[float] = []
    for x, y in zip(left, right, strict=True):
        if x is None or y is None:
            continue
        gap = abs(x - y)
        deltas.append(gap * scale)
        if gap > max(0.0, absolute + relative * abs(x)):  # not within the tolerance
            differing.append(gap * scale)
    if not differing:
        return PairCell(len(deltas), 0, None, None,
                        math.fsum(deltas) / len(deltas) if deltas else 0.0)
    differing.sort()
    return PairCell(len(deltas), len(differing), statistics.median(differing),
                    quantile(differing, 0.95), math.fsum(deltas) / len(deltas))


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
        ``generated_listed`` generated cases, the first ``USER_LINES_PER_PATTERN``
        of the user's, and every fixture."""
        chosen: list[CaseRow] = []
        seen = {GENERATED: 0, "user": 0}
        limits = {GENERATED: self.generated_listed, "user": USER_LINES_PER_PATTERN}
        for row in self.rows:
            if row.source in seen:
                seen[row.source] += 1
                if seen[row.source] > limits[row.source]:
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


def classify(people: Sequence[Implementation], runs: Sequence[Run | None],
             between: Mapping[tuple[str, str], Tolerance]) -> tuple[Cell, ...]:
    """Each run's class: equal values (within the two implementations' tolerance
    of the first one met with that value) share a letter.  ``between``: the
    tolerance of each pair of names (``pair_tolerance``), made once for every case
    of a metric (``case_rows``)."""
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
            if _same(seen, value, between[first.name, person.name]):
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
    between = _between(people)
    return tuple(
        CaseRow(case.id, case.source,
                classify(people, [record.run(p.name, case.id) for p in people], between))
        for case in record.cases
    )


def _between(people: Sequence[Implementation]) -> dict[tuple[str, str], Tolerance]:
    """The tolerance of each ordered pair of ``people``, by their names."""
    return {(a.name, b.name): pair_tolerance(a, b) for a in people for b in people}


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

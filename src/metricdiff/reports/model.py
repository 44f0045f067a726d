"""An audit folder as typed records, the only input of ``metricdiff report``
(``reports.reading`` reads them from the folder's files), and the names of those
files.

Reading the files (never the audit's objects in memory) is what makes the reports
of ``metricdiff audit --out DIR`` and ``metricdiff report --from DIR`` the same
bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence

import attrs

from metricdiff.comparison.gaps import MetricComparison
from metricdiff.findings.finding import Finding
from metricdiff.findings.pairs import DerivedPair
from metricdiff.impls.base import Tolerance
from metricdiff.profiles.metrics import Result, family

#: What ``audit.json`` holds: per metric, who took part (with profile, version and
#: tolerance), who was skipped and why, and the cases in order.  With
#: ``findings.json`` and ``results.jsonl`` it is all ``metricdiff report`` reads.
#: The audit writes these files; the reports read them, so the names live here.
AUDIT_NAME = "audit.json"
FINDINGS_NAME = "findings.json"
RESULTS_NAME = "results.jsonl"
#: Written only when the audit had the user's own corpus (``--hyp``/``--jsonl``):
#: each implementation's corpus score and each gap split by axis, as
#: ``metricdiff compare --format json`` prints them.
COMPARE_NAME = "compare.json"
#: The pairs derived from the star (``findings/pairs.py``): those asked for with
#: ``--pair`` and the largest gaps; an older audit folder has none.
PAIRS_NAME = "pairs.json"


@attrs.frozen
class Implementation:
    """One participant of the audit: an implementation under one profile."""

    name: str
    impl: str
    label: str
    version: str
    signature: str
    profile: dict[str, str]
    tolerance: Tolerance
    #: The distribution it comes from (``""``: none, or an older audit.json).
    package: str = ""


@attrs.frozen
class CaseInfo:
    """One case the audit scored."""

    id: str
    source: str
    klass: str = ""
    #: How many segments it has (the whole of a user's corpus has them all).
    segments: int = 1


def _quoted(result: Result | float | None) -> float | None:
    """The number people quote of a result (or that number itself), None if
    there is none or it is not reported (NaN)."""
    value = result if result is None or isinstance(result, (int, float)) else result.headline
    return None if value is None or math.isnan(value) else value


@attrs.frozen
class Run:
    """One implementation on one case: its status and, if it gave a result that
    reports one, the number people quote (BLEU 0-100, ROUGE F 0-1).  Given a
    result, the run keeps its headline: the reports show nothing else of it,
    and a large corpus has millions of runs."""

    status: str
    error: str
    headline: float | None = attrs.field(converter=_quoted)


class Runs(Mapping[tuple[str, str], Run]):
    """(implementation, case id) -> its run, held as one list per implementation
    in the order of ``cases``: an ordinary run (ok, with a headline) as its
    number alone, any other as its ``Run``, equal ones kept once."""

    def __init__(self, cases: Sequence[str]) -> None:
        self._index = {case: i for i, case in enumerate(cases)}
        self._rows: dict[str, list[float | Run | None]] = {}
        self._others: dict[tuple[str, str], Run] = {}  # a case not among ``cases``
        self._shared: dict[Run, Run] = {}

    def add(self, impl: str, case: str, run: Run) -> None:
        index = self._index.get(case)
        if index is None:
            self._others[impl, case] = run
            return
        row = self._rows.setdefault(impl, [None] * len(self._index))
        ordinary = run.status == "ok" and not run.error and run.headline is not None
        row[index] = run.headline if ordinary else self._shared.setdefault(run, run)

    def __getitem__(self, key: tuple[str, str]) -> Run:
        impl, case = key
        index = self._index.get(case)
        entry = None if index is None or impl not in self._rows else self._rows[impl][index]
        if entry is None:
            return self._others[key]
        return entry if isinstance(entry, Run) else Run("ok", "", entry)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for impl, row in self._rows.items():
            yield from ((impl, case) for case, i in self._index.items() if row[i] is not None)
        yield from self._others

    def __len__(self) -> int:
        return sum(len(row) - row.count(None) for row in self._rows.values()) + len(
            self._others)


@attrs.frozen
class MetricRecord:
    """Everything the audit recorded for one metric."""

    metric: str
    implementations: tuple[Implementation, ...]
    skipped: tuple[str, ...]
    cases: tuple[CaseInfo, ...]
    #: (implementation, case id) -> its run (``Runs`` when read from a folder).
    #: The rows of the reference as each implementation (``reference-as-<name>``)
    #: are checked on reading, not kept.
    runs: Mapping[tuple[str, str], Run]
    findings: tuple[Finding, ...]
    #: Every implementation's score on the user's corpus and each gap split by
    #: axis (``compare.json``); None when the audit had no corpus of the user's.
    corpus: MetricComparison | None = None
    #: The pairs derived from the star (``pairs.json``).
    pairs: tuple[DerivedPair, ...] = ()

    @property
    def family(self) -> str:
        return family(self.metric)

    def run(self, impl: str, case: str) -> Run | None:
        return self.runs.get((impl, case))

    def unscored(self) -> list[str]:
        """Implementations that gave no result on any case and failed on some
        (as MetricAudit.unscored)."""
        return [name for name, runs in self._runs_by_implementation()
                if all(run is None or run.status != "ok" for run in runs)
                and not all(_refused(run) for run in runs)]

    def not_applicable(self) -> list[str]:
        """Implementations that refused every case by a documented inability
        (as MetricAudit.not_applicable)."""
        return [name for name, runs in self._runs_by_implementation()
                if all(_refused(run) for run in runs)]

    def _runs_by_implementation(self) -> list[tuple[str, list[Run | None]]]:
        if not self.cases:
            return []
        return [(person.name, [self.run(person.name, case.id) for case in self.cases])
                for person in self.implementations]


def _refused(run: Run | None) -> bool:
    """A refusal by a documented inability (the error of an ``UnsupportedOption``)."""
    return run is not None and run.error.startswith("UnsupportedOption")


@attrs.frozen
class CacheUse:
    """How many of the audit's peer scores came from ``--cache`` (``audit.json``)."""

    hits: int
    asked: int
    folder: str


@attrs.frozen
class AuditRecord:
    """An audit folder: one record per metric, in the audit's order."""

    metrics: tuple[MetricRecord, ...]
    #: With ``--cache``: how many peer scores came from it.
    cache: CacheUse | None = None

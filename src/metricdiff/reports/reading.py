"""Reading an audit folder back: ``audit.json``, ``findings.json``,
``results.jsonl``, ``pairs.json`` and, when the audit had the user's corpus,
``compare.json``, into the records of ``reports.model``.

A missing or malformed file is an ``InputError`` naming the file (and the line,
for JSON Lines and JSON syntax errors).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import attrs

from metricdiff.cases.files import iter_segments
from metricdiff.comparison.gaps import Comparison, MetricComparison
from metricdiff.errors import InputError
from metricdiff.findings.finding import Example, Finding
from metricdiff.findings.pairs import DerivedPair
from metricdiff.impls.base import Tolerance
from metricdiff.input_files import Unreadable, load_json, read_file
from metricdiff.json_values import listed as _list
from metricdiff.json_values import number as _number
from metricdiff.json_values import text as _text
from metricdiff.limits import max_line_bytes
from metricdiff.profiles.metrics import METRICS, Result, family
from metricdiff.reports.model import (
    AUDIT_NAME,
    COMPARE_NAME,
    FINDINGS_NAME,
    PAIRS_NAME,
    RESULTS_NAME,
    AuditRecord,
    CacheUse,
    CaseInfo,
    Implementation,
    MetricRecord,
    Run,
    Runs,
)
from metricdiff.scoring.background import CAN_FORK, Background
from metricdiff.scoring.rows import outcome_from_row
from metricdiff.statistics import BleuResult, RougeResult

T = TypeVar("T")

def _read_text(path: Path) -> str:
    """A file of the folder, read whole within bounds (``input_files.read_file``:
    a regular file of at most ``limits.MAX_FILE_BYTES``)."""
    return read_file(path, InputError, "file of an audit folder")


def _parse_json(path: Path, text: str, line: int = 0) -> Any:
    try:
        return load_json(text)
    except json.JSONDecodeError as error:
        where = line or error.lineno
        raise InputError(f"{path}:{where}: not valid JSON ({error.msg})") from None
    except Unreadable as error:  # nested too deep, a number too long
        raise InputError(f"{path}:{line or 1}: {error}") from None


def _checked(path: Path, line: int, what: str, build: Callable[[], T]) -> T:
    """``build()``, with a malformed record turned into a one-line InputError."""
    try:
        return build()
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        detail = f"missing field {error}" if isinstance(error, KeyError) else str(error)
        raise InputError(f"{path}:{line}: malformed {what}: {detail}") from None


def _result(data: Any, metric_family: str) -> Result | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise TypeError(f"expected a result object, got {type(data).__name__}")
    if metric_family == "bleu":
        return BleuResult.from_json(data)
    return RougeResult.from_json(data)


def _implementation(data: Any) -> Implementation:
    tolerance = data["tolerance"]
    return Implementation(
        _text(data["name"]),
        _text(data["impl"]),
        _text(data["label"]),
        _text(data["version"]),
        _text(data["signature"]),
        {_text(axis): _text(value) for axis, value in data["profile"].items()},
        Tolerance(_number(tolerance["absolute"]), _number(tolerance["relative"]),
                  _text(tolerance["reason"])),
        _text(data.get("package", "")),
    )


@attrs.frozen
class _MetricHead:
    metric: str
    implementations: tuple[Implementation, ...]
    skipped: tuple[str, ...]
    cases: tuple[CaseInfo, ...]


def _metric_head(data: Any) -> _MetricHead:
    metric = _text(data["metric"])
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}")
    return _MetricHead(
        metric,
        tuple(_implementation(item) for item in data["participants"]),
        tuple(_text(reason) for reason in data["skipped"]),
        tuple(CaseInfo(_text(case["id"]), _text(case["source"]), _text(case.get("class", "")),
                       int(_number(case.get("segments", 1))))
              for case in data["cases"]),
    )


def _finding(data: Any, known: set[str]) -> Finding:
    metric = _text(data["metric"])
    if metric not in known:
        raise ValueError(f"metric {metric!r} is not in {AUDIT_NAME}")
    example = _example(family(metric), data["example"])
    values = tuple(_text(value) for value in data["values"])
    if len(values) != 2:
        raise ValueError(f"'values' has {len(values)} entries, not 2")
    return Finding(
        metric,
        _text(data["impl_a"]),
        _text(data["impl_b"]),
        _text(data["kind"]),
        _text(data["axis"]),
        (values[0], values[1]),
        _text(data["first_difference"]),
        int(_number(data["count"])),
        _number(data["max_delta"]),
        example,
        {_text(k): _text(v) for k, v in data["signatures"].items()},
        tuple(_text(case) for case in data.get("cases", ())),
        bool(data.get("explained", True)),
    )


def _example(metric_family: str, data: Any) -> Example:
    """An example: one segment (shown bare) or several, each side's result, and,
    for an excerpt, how many segments the whole case has and which are shown."""
    hypothesis = data["hypothesis"]
    if isinstance(hypothesis, str):
        hyps: tuple[str, ...] = (hypothesis,)
        refs: tuple[tuple[str | None, ...], ...] = (tuple(_list(data["references"])),)
    else:
        hyps = tuple(_text(hyp) for hyp in _list(hypothesis))
        refs = tuple(tuple(_list(segment)) for segment in _list(data["references"]))
    if len(refs) != len(hyps):
        raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
    for segment in refs:
        for ref in segment:
            if ref is not None:
                _text(ref)
    segments = int(_number(data.get("segments", 0)))
    shown = tuple(int(_number(number)) for number in _list(data.get("shown", [])))
    if segments and len(shown) != len(hyps):
        raise ValueError(f"an excerpt of {len(hyps)} segments names {len(shown)}")
    return Example(_text(data["case"]), hyps, refs, _result(data["result_a"], metric_family),
                   _result(data["result_b"], metric_family), _text(data.get("error", "")),
                   segments, shown)


def _run_row(data: Any, names: dict[str, set[str]]) -> tuple[str, str, str, Run]:
    metric = _text(data["metric"])
    if metric not in names:
        raise ValueError(f"metric {metric!r} is not in {AUDIT_NAME}")
    impl = _text(data["impl"])
    if impl not in names[metric]:
        raise ValueError(f"implementation {impl!r} did not take part in {metric}")
    outcome = outcome_from_row(data, family(metric))  # checked as every row read back
    run = Run(outcome.status, outcome.error, outcome.result)
    return metric, impl, _text(data["case"]), run


def _lines(path: Path, start: int = 0, stop: int | None = None, first: int = 1
           ) -> Iterator[tuple[int, str]]:
    """The file's lines that are not blank, with their numbers, read one at a
    time (``results.jsonl`` of a large corpus has millions); ``start``, ``stop``
    and ``first``: a part of the file (``input_files.lines``)."""
    segments = iter_segments(str(path), start=start, stop=stop, first=first)
    for number, line in enumerate(segments, start=first):
        if line.strip():
            yield number, line


#: A row of ``results.jsonl`` kept for the reports: metric, implementation, case, run.
KeptRow = tuple[str, str, str, Run]
#: From this size on, ``results.jsonl`` is read in two halves at once
#: (``_read_runs``): the main job's is 230 MB, twelve seconds read alone, at the
#: end of the audit with one core left idle.
HALVES_FROM = 16 << 20


def _read_runs(path: Path, names: dict[str, set[str]], shown: dict[str, set[str]],
               runs: dict[str, Runs]) -> None:
    """Every row of ``results.jsonl`` checked, and each participant's run kept in
    ``runs``.  A large file's second half is read by a forked process
    (``scoring.background``) while this one reads the first; should anything go
    wrong there, this process reads it again itself, so that a malformed row is
    named by its line as without the fork."""
    middle = _middle(path)
    later = None if middle is None else _SecondHalf(path, names, shown, middle)
    second = None if later is None else Background(later, fork=True)
    try:
        for metric, impl, case, run in _kept_rows(path, names, shown, stop=middle):
            runs[metric].add(impl, case, run)
        if later is not None and second is not None:
            later.here = True
            for metric, impl, case, run in second.result():
                runs[metric].add(impl, case, run)
    finally:
        if second is not None:
            second.cancel()


def _kept_rows(path: Path, names: dict[str, set[str]], shown: dict[str, set[str]],
               start: int = 0, stop: int | None = None, first: int = 1) -> Iterator[KeptRow]:
    """The rows of the participants (each row checked), in the file's order."""
    for number, line in _lines(path, start, stop, first):
        row = _parse_json(path, line, number)
        metric, impl, case, run = _checked(path, number, "result row",
                                           partial(_run_row, row, names))
        if impl in shown[metric]:  # the reference as a participant: checked, not
            yield metric, impl, case, run  # kept, as no report shows it (half the rows)


@attrs.define
class _SecondHalf:
    """The rows from byte ``start`` on (``_kept_rows``): in a forked process,
    numbered from 1 (a numbering only an error shows, and an error there makes
    this process read the half again); ``here``, numbered as in the file."""

    path: Path
    names: dict[str, set[str]]
    shown: dict[str, set[str]]
    start: int
    here: bool = False

    def __call__(self) -> list[KeptRow]:
        first = _lines_before(self.path, self.start) + 1 if self.here else 1
        return list(_kept_rows(self.path, self.names, self.shown, self.start, None, first))


def _middle(path: Path) -> int | None:
    """Where the line after the middle of ``path`` starts, if the file is large
    enough to be read in halves (``HALVES_FROM``) and this process can fork."""
    try:
        size = path.stat().st_size if path.is_file() else 0
        if size < HALVES_FROM or not CAN_FORK:
            return None
        with path.open("rb") as stream:
            stream.seek(size // 2)
            window = stream.read(max_line_bytes() + 2)
    except OSError:
        return None  # read in one piece, which says what is wrong
    end = window.find(b"\n")
    middle = size // 2 + end + 1
    return middle if end >= 0 and middle < size else None


def _lines_before(path: Path, offset: int) -> int:
    """How many lines of ``path`` end before byte ``offset``."""
    count = 0
    with path.open("rb") as stream:
        while offset > 0:
            block = stream.read(min(offset, 1 << 20))
            if not block:
                break
            count += block.count(b"\n")
            offset -= len(block)
    return count


def load_audit(folder: Path) -> AuditRecord:
    """The audit recorded in ``folder`` (what ``metricdiff audit --out`` wrote)."""
    about_path = folder / AUDIT_NAME
    about = _parse_json(about_path, _read_text(about_path))
    heads = _checked(about_path, 0, "audit description",
                     lambda: [_metric_head(item) for item in about["metrics"]])
    known = {head.metric for head in heads}
    # Who may appear in results.jsonl: each participant, and the reference as it.
    shown = {head.metric: {p.name for p in head.implementations} for head in heads}
    names = {
        head.metric: shown[head.metric] | {f"reference-as-{p.name}" for p in head.implementations}
        for head in heads
    }

    findings_path = folder / FINDINGS_NAME
    raw = _parse_json(findings_path, _read_text(findings_path))
    if not isinstance(raw, list):
        raise InputError(f"{findings_path}:1: expected a list of findings")
    findings: dict[str, list[Finding]] = {metric: [] for metric in known}
    for number, item in enumerate(raw, start=1):
        found = _checked(findings_path, 0, f"finding {number}", partial(_finding, item, known))
        findings[found.metric].append(found)

    results_path = folder / RESULTS_NAME
    runs = {head.metric: Runs([case.id for case in head.cases]) for head in heads}
    _read_runs(results_path, names, shown, runs)

    cache = _checked(about_path, 0, "audit description", lambda: _cache_use(about))
    corpus = _comparisons(folder / COMPARE_NAME, known)
    pairs = _pairs(folder / PAIRS_NAME, known)
    return AuditRecord(tuple(
        MetricRecord(head.metric, head.implementations, head.skipped, head.cases,
                     runs[head.metric], tuple(findings[head.metric]), corpus.get(head.metric),
                     tuple(pairs[head.metric]))
        for head in heads
    ), cache)


def _cache_use(about: Any) -> CacheUse | None:
    """The ``cache`` of ``audit.json``, if the audit had one (and says how many
    peer scores it asked of it: an audit.json before that does not)."""
    data = about.get("cache")
    if data is None or "asked" not in data:
        return None
    hits, asked = int(_number(data["hits"])), int(_number(data["asked"]))
    if not 0 <= hits <= asked:
        raise ValueError(f"cache: {hits} hits of {asked} peer scores asked")
    return CacheUse(hits, asked, _text(data["folder"]))


def _pairs(path: Path, known: set[str]) -> dict[str, list[DerivedPair]]:
    """Metric -> the pairs derived from its star, from ``pairs.json`` if the
    folder has one."""
    found: dict[str, list[DerivedPair]] = {metric: [] for metric in known}
    if not path.exists():
        return found
    raw = _parse_json(path, _read_text(path))
    if not isinstance(raw, list):
        raise InputError(f"{path}:1: expected a list of pairs")
    for number, item in enumerate(raw, start=1):
        pair = _checked(path, 0, f"pair {number}", partial(_pair, item, known))
        found[pair.metric].append(pair)
    return found


def _pair(data: Any, known: set[str]) -> DerivedPair:
    metric = _text(data["metric"])
    if metric not in known:
        raise ValueError(f"metric {metric!r} is not in {AUDIT_NAME}")
    return DerivedPair.from_json(data, partial(_example, family(metric)))


def _comparisons(path: Path, known: set[str]) -> dict[str, MetricComparison]:
    """Metric -> its comparison on the user's corpus, from ``compare.json`` if the
    folder has one."""
    if not path.exists():
        return {}
    raw = _parse_json(path, _read_text(path))

    def read() -> dict[str, MetricComparison]:
        found = Comparison.from_dict({"metrics": _list(raw)})
        unknown = [m.metric for m in found.metrics if m.metric not in known]
        if unknown:
            raise ValueError(f"metric {unknown[0]!r} is not in {AUDIT_NAME}")
        return {m.metric: m for m in found.metrics}

    return _checked(path, 0, "comparison", read)

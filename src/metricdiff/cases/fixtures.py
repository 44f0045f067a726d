"""Reading the shared test cases: the fixture format (``fixtures/README.md``).

A fixture file is TOML with ``format = 1`` and a list of ``[[case]]`` tables.  The
same case tables also appear in ``spec/*.md`` inside fenced ``toml
metricdiff-example`` blocks, so the spec's worked examples run as tests.  Each
case table becomes a ``Case`` (``case.py``) with its metric, options and
``Expectation``s.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from metricdiff.cases import bundled
from metricdiff.cases.case import Case, Expectation
from metricdiff.errors import FixtureError
from metricdiff.input_files import TOMLDecodeError, Unreadable, load_toml, read_file

FORMAT_VERSION = 1
VERDICT_CLASSES = ("must", "conv", "reject")
_ID_PATTERN = re.compile(r"^(must|conv|reject)_[a-z0-9_]+$")
_EXAMPLE_BLOCK = re.compile(r"^```toml metricdiff-example\n(.*?)^```", re.M | re.S)


_ID_LINE = re.compile(r'^[ \t]*id[ \t]*=[ \t]*"([^"\n]*)"', re.M)


def _id_lines(text: str) -> dict[str, int]:
    """The line where each ``id = "..."`` first stands, so errors can point at
    it: one pass over the document, not one search of it per case."""
    lines: dict[str, int] = {}
    line, counted = 1, 0
    for match in _ID_LINE.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        lines.setdefault(match.group(1), line)
    return lines


def _as_text_map(raw: Any, where: str) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise FixtureError(f"{where}: expected a table of axis = value")
    return {str(key): str(value) for key, value in raw.items()}


def _texts(raw: Any, what: str, where: str) -> tuple[str, ...]:
    """``raw`` as texts: a list of strings, or a FixtureError naming the first item
    that is not one (``hyps = [1]`` is no text: it is not made one)."""
    if not isinstance(raw, list):
        raise FixtureError(f"{where}: {what} must be a list of strings, not "
                           f"{type(raw).__name__}")
    for index, item in enumerate(raw):
        if not isinstance(item, str):
            shown = what if what == "metric" else f"{what}[{index}]"
            raise FixtureError(f"{where}: {shown} is {type(item).__name__} {item!r}, not a "
                               'string (quote it: "...")')
    return tuple(raw)


def _tolerance(raw: Any, where: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 0 <= raw < math.inf:
        raise FixtureError(f"{where}: tolerance must be a number of at least 0, not {raw!r}")
    return float(raw)


def _expectation(raw: Any, case_tolerance: float, case_source: str, where: str) -> Expectation:
    if not isinstance(raw, dict):
        raise FixtureError(f"{where}: each expect must be a table")
    body = dict(raw)
    when = _as_text_map(body.pop("when", {}), where)
    source = str(body.pop("source", case_source))
    tolerance = _tolerance(body.pop("tolerance", case_tolerance), where)
    error = body.pop("error", None)
    if not source:
        raise FixtureError(f"{where}: every expected value needs a source")
    return Expectation(when, body, source, tolerance, None if error is None else str(error))


def _case(raw: Any, path: Path, id_lines: dict[str, int], line_offset: int) -> Case:
    if not isinstance(raw, dict):
        raise FixtureError(f"{path}:{line_offset + 1}: [[case]] must be a table")
    case_id = str(raw.get("id", ""))
    where = f"{path}:{line_offset + id_lines.get(case_id, 1)}"
    if not _ID_PATTERN.match(case_id):
        raise FixtureError(
            f"{where}: case id {case_id!r} must be a slug starting with must_, conv_ or reject_"
        )
    missing = [key for key in ("hyps", "refs", "metric") if key not in raw]
    if missing:
        raise FixtureError(f"{where}: case {case_id} lacks {missing[0]}")
    hyps = _texts(raw["hyps"], "hyps", where)
    if not isinstance(raw["refs"], list):
        raise FixtureError(f"{where}: refs must be a list of lists of strings, one per hypothesis")
    refs = tuple(_texts(seg, f"refs[{i}]", where) for i, seg in enumerate(raw["refs"]))
    metric = _texts([raw["metric"]], "metric", where)[0]
    if len(hyps) != len(refs):
        raise FixtureError(
            f"{where}: case {case_id} has {len(hyps)} hypotheses but {len(refs)} reference lists"
        )
    tolerance = _tolerance(raw.get("tolerance", 1e-9), where)
    source = str(raw.get("source", ""))
    expectations = tuple(
        _expectation(item, tolerance, source, where) for item in raw.get("expect", [])
    )
    if not expectations:
        raise FixtureError(f"{where}: case {case_id} has no [[case.expect]]")
    return Case(
        hyps,
        refs,
        id=case_id,
        origin="fixture",
        klass=str(path),
        metric=metric,
        options=_as_text_map(raw.get("options", {}), where),
        expectations=expectations,
        description=str(raw.get("description", "")),
        location=where,
    )


def parse_cases(text: str, path: Path, line_offset: int = 0) -> list[Case]:
    """The cases in one TOML document (a fixture file or a spec example block)."""
    try:
        document = load_toml(text)
    except TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        line = line_offset + int(match.group(1)) if match else line_offset + 1
        raise FixtureError(f"{path}:{line}: not valid TOML: {error}") from None
    except Unreadable as error:
        raise FixtureError(f"{path}:{line_offset + 1}: {error}") from None
    version = document.get("format", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise FixtureError(f"{path}:1: fixture format {version!r} is not {FORMAT_VERSION}")
    id_lines = _id_lines(text)
    return [_case(raw, path, id_lines, line_offset) for raw in document.get("case", [])]


def load_file(path: Path) -> list[Case]:
    """The cases of one fixture file."""
    text = read_file(path, FixtureError, "fixture")
    return parse_cases(text, bundled.shown(path))


def load_spec_examples(path: Path) -> list[Case]:
    """The worked examples embedded in a literate spec file."""
    text = path.read_text(encoding="utf-8")
    cases: list[Case] = []
    for block in _EXAMPLE_BLOCK.finditer(text):
        first_line = text.count("\n", 0, block.start(1))
        cases += parse_cases(block.group(1), bundled.shown(path), first_line)
    return cases


def iter_fixture_files(root: Path) -> Iterator[Path]:
    """Every ``*.toml`` fixture file under ``root``, in a stable order."""
    yield from sorted(root.rglob("*.toml"))


def check_fixture_folder(root: Path) -> None:
    """Raise FixtureError, naming ``root``, unless it is a folder with at least one
    fixture file: a mistyped ``--fixtures`` would otherwise run 0 cases and pass."""
    if not root.exists():
        raise FixtureError(f"{root}: no such folder")
    if not root.is_dir():
        raise FixtureError(f"{root}: not a folder")
    if next(iter_fixture_files(root), None) is None:
        raise FixtureError(f"{root}: no fixture files (*.toml) in this folder")


def with_unique_ids(cases: Iterable[Case]) -> list[Case]:
    """``cases`` as a list; FixtureError, naming both places, at an ID seen twice."""
    kept: list[Case] = []
    seen: dict[str, str] = {}
    for case in cases:
        if case.id in seen:
            raise FixtureError(f"{case.location}: duplicate case id {case.id} "
                               f"(first at {seen[case.id]})")
        seen[case.id] = case.location
        kept.append(case)
    return kept


def load_all(root: Path) -> list[Case]:
    """Every case under ``root``; IDs must be unique across files."""
    return with_unique_ids(case for path in iter_fixture_files(root) for case in load_file(path))


def bundled_cases() -> list[Case]:
    """Every bundled case: the fixture files' and the specs' worked examples, with
    IDs unique across both (FixtureError, naming both places, if not)."""
    examples = (case for spec in bundled.spec_files() for case in load_spec_examples(spec))
    return with_unique_ids([*load_all(bundled.fixtures_folder()), *examples])

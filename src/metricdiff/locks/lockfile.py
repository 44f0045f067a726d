"""The lock file: its records, and its TOML format written and read.

A lock is TOML (``metricdiff snapshot`` writes it, ``metricdiff verify`` and the
pytest plugin check it)::

    format = 1
    [environment]            # metricdiff, Python and platform versions
    [[input]]                # role (fixture, hyp, ref, jsonl), path, sha256 of the
                             # bytes; a jsonl input also hyp_field and ref_field
    [impl.NAME]              # version, and [impl.NAME.signature] per metric
    [[score]]                # case, metric, impl, abs_tol, rel_tol
    [score.result]           # the reported fields of Result.to_json(), floats
                             # written repr-exact (or error/message when the
                             # implementation raised)

Entries are in input order, then metric, then implementation name, so the same
inputs give the same file and a drift shows as a small diff.  Paths are written
relative to the lock's folder when they are inside it, so a lock kept in a
repository verifies from any working directory.

Reading names the file and line of the first thing that does not fit the format
(``LockError``).
"""

from __future__ import annotations

import hashlib
import platform
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import tomli_w

from metricdiff.atomic import write_atomic
from metricdiff.errors import InputError, LockError, OutputError
from metricdiff.profiles.metrics import METRICS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

LOCK_FORMAT = 1
ROLES = ("fixture", "hyp", "ref", "jsonl")
_HEADER = "# Scores written by `metricdiff snapshot`; `metricdiff verify {name}` recomputes them.\n"


@attrs.frozen
class InputFile:
    """A file the scores were computed from: ``path`` as the lock writes it
    (relative to the lock's folder when inside it) and the sha256 of its bytes;
    for a JSONL file, the keys its hypotheses and references were read from."""

    role: str
    path: str
    sha256: str
    hyp_field: str | None = None
    ref_field: str | None = None

    def resolve(self, lock_dir: Path) -> Path:
        return lock_dir / self.path


def sha256_of(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        raise InputError(f"{path}:0: cannot read: {error.strerror or error}") from None


def input_file(role: str, path: Path, lock_dir: Path,
               fields: tuple[str, str] | None = None) -> InputFile:
    """``path`` recorded for a lock written to ``lock_dir``; ``fields``: a JSONL
    file's hypothesis and reference keys."""
    absolute, base = path.resolve(), lock_dir.resolve()
    written = absolute.relative_to(base) if absolute.is_relative_to(base) else absolute
    return InputFile(role, written.as_posix(), sha256_of(path), *(fields or (None, None)))


# --- the lock ---------------------------------------------------------------


@attrs.frozen
class Environment:
    metricdiff: str
    python: str
    platform: str


def current_environment() -> Environment:
    from metricdiff import __version__

    python = f"{platform.python_implementation()} {platform.python_version()}"
    return Environment(__version__, python, platform.platform())


@attrs.frozen
class ImplInfo:
    """An implementation's version and, per metric, the signature it was run with."""

    version: str
    signatures: dict[str, str]


@attrs.frozen
class Entry:
    """One implementation on one case under one metric: the fields of its result
    that it reported (``recorded_fields``), or the type of what it raised; and
    the tolerance a recomputation must stay within."""

    case: str
    metric: str
    impl: str
    result: dict[str, Any] | None
    error: str | None = None
    message: str = ""
    abs_tol: float = 0.0
    rel_tol: float = 1e-9

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.case, self.metric, self.impl)


@attrs.frozen
class Lock:
    environment: Environment
    inputs: tuple[InputFile, ...]
    impls: dict[str, ImplInfo]
    entries: tuple[Entry, ...]


# --- writing ----------------------------------------------------------------


def dumps(lock: Lock, name: str = "scores.lock") -> str:
    """The lock as TOML text (deterministic: same lock, same bytes).

    Written by hand rather than by tomli_w, which puts every array element on a
    line of its own: one field per line reads and diffs better."""
    lines = [_HEADER.format(name=name).rstrip("\n"), f"format = {LOCK_FORMAT}", ""]
    lines += _table("[environment]", attrs.asdict(lock.environment))
    for item in lock.inputs:
        lines += _table("[[input]]", attrs.asdict(item, filter=lambda _, v: v is not None))
    for impl, info in lock.impls.items():
        lines += _table(f"[impl.{_key(impl)}]", {"version": info.version})
        lines += _table(f"[impl.{_key(impl)}.signature]", info.signatures)
    for entry in lock.entries:
        lines += _entry_tables(entry)
    return "\n".join(lines)


def _key(key: str) -> str:
    """``key`` as TOML writes it: bare if it can be, quoted otherwise."""
    return tomli_w.dumps({key: 0}).rsplit(" = ", 1)[0]


def _literal(value: Any) -> str:
    """A TOML literal; floats repr-exact (``str`` of a float is its repr)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(item) for item in value) + "]"
    return tomli_w.dumps({"v": value}).removeprefix("v = ").rstrip("\n")


def _table(header: str, values: Mapping[str, Any]) -> list[str]:
    return [header, *(f"{_key(key)} = {_literal(value)}" for key, value in values.items()), ""]


def _entry_tables(entry: Entry) -> list[str]:
    head: dict[str, Any] = {
        "case": entry.case,
        "metric": entry.metric,
        "impl": entry.impl,
        "abs_tol": float(entry.abs_tol),
        "rel_tol": float(entry.rel_tol),
    }
    if entry.error is not None:
        return _table("[[score]]", {**head, "error": entry.error, "message": entry.message})
    return _table("[[score]]", head) + _table("[score.result]", entry.result or {})


def check_writable(path: Path) -> None:
    """Raise OutputError (one line naming ``path``) unless ``write`` can put a lock
    there.  ``snapshot`` calls it before scoring, which can take minutes that a
    typo in ``--out`` should not cost.  The test is what ``write`` does: create a
    file in the lock's folder (and ``path`` must not be a folder itself)."""
    folder = path.parent
    if path.is_dir():
        raise OutputError(f"{path}:0: cannot write the lock there: it is a folder")
    if not folder.is_dir():
        why = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(f"{path}:0: cannot write the lock there: {folder} {why}")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise OutputError(f"{path}:0: cannot write the lock there: "
                          f"{error.strerror or error}") from None


def write(lock: Lock, path: Path) -> None:
    """Write ``lock`` to ``path`` atomically (``write_atomic``), so that a snapshot
    interrupted while writing leaves the previous lock (or none), never half of
    one.  The text is made first, so a lock that cannot be written leaves no file."""
    write_atomic(path, dumps(lock, path.name))


# --- reading ----------------------------------------------------------------


class _Reader:
    """Turns a parsed lock document into a Lock, naming the file and line of the
    first thing that does not fit."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.score_lines = self._lines_equal("[[score]]")
        self.input_lines = self._lines_equal("[[input]]")

    def _lines_equal(self, header: str) -> list[int]:
        return [n for n, line in enumerate(self.lines, 1) if line.strip() == header]

    def line_of(self, needle: str) -> int:
        """The first line containing ``needle`` (1 if none does)."""
        return next((n for n, line in enumerate(self.lines, 1) if needle in line), 1)

    def key_line(self, start: int, key: str) -> int:
        """The line of ``key = ...`` (or of the header ``key``) in the table block
        that begins at line ``start``; ``start`` if the block has none."""
        pattern = re.compile(rf'^\s*(?:"?{re.escape(key)}"?\s*=|{re.escape(key)}\s*$)')
        for number in range(start + 1, len(self.lines) + 1):
            line = self.lines[number - 1].strip()
            if line in ("[[score]]", "[[input]]") or line.startswith("[impl"):
                break
            if pattern.match(line):
                return number
        return start

    def fail(self, line: int, message: str) -> LockError:
        return LockError(f"{self.path}:{line}: {message}")

    def text(self, table: Mapping[str, Any], key: str, line: int, what: str) -> str:
        value = table.get(key)
        if not isinstance(value, str):
            raise self.fail(self.key_line(line, key), f"{what} needs {key} = \"...\" (a string)")
        return value

    def number(self, table: Mapping[str, Any], key: str, line: int, what: str) -> float:
        value = table.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
            raise self.fail(self.key_line(line, key), f"{what} needs {key} = a number >= 0")
        return float(value)

    def table_list(self, document: Mapping[str, Any], key: str) -> list[Any]:
        value = document.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(self.line_of(key), f"{key} must be an array of tables [[{key}]]")
        return value

    def lock(self, document: Mapping[str, Any]) -> Lock:
        if document.get("format") != LOCK_FORMAT:
            raise self.fail(self.line_of("format"),
                            f"lock format {document.get('format')!r} is not {LOCK_FORMAT}")
        environment = self.environment(document.get("environment"))
        inputs = tuple(
            self.input(raw, self._nth(self.input_lines, i))
            for i, raw in enumerate(self.table_list(document, "input"))
        )
        impls = self.impls(document.get("impl", {}))
        entries = tuple(
            self.entry(raw, self._nth(self.score_lines, i), impls)
            for i, raw in enumerate(self.table_list(document, "score"))
        )
        if not entries:
            # It would verify as "all 0 scores reproduce" while pinning nothing.
            raise self.fail(0, "the lock records no scores ([[score]]): there is nothing "
                            "to verify; write it again with `metricdiff snapshot`")
        seen: dict[tuple[str, str, str], int] = {}
        for i, entry in enumerate(entries):
            line = self._nth(self.score_lines, i)
            if entry.key in seen:
                raise self.fail(line, f"score {entry.key} is recorded twice "
                                f"(first at line {seen[entry.key]})")
            seen[entry.key] = line
        return Lock(environment, inputs, impls, entries)

    @staticmethod
    def _nth(lines: list[int], index: int) -> int:
        return lines[index] if index < len(lines) else 1

    def environment(self, raw: Any) -> Environment:
        line = self.line_of("[environment]")
        if not isinstance(raw, dict):
            raise self.fail(line, "missing [environment] table")
        return Environment(*(self.text(raw, key, line, "[environment]")
                             for key in ("metricdiff", "python", "platform")))

    def input(self, raw: Mapping[str, Any], line: int) -> InputFile:
        role = self.text(raw, "role", line, "[[input]]")
        if role not in ROLES:
            raise self.fail(line, f"input role {role!r} is not one of {', '.join(ROLES)}")
        digest = self.text(raw, "sha256", line, "[[input]]")
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise self.fail(line, f"sha256 {digest!r} is not 64 hex digits")
        path = self.text(raw, "path", line, "[[input]]")
        if role != "jsonl":
            return InputFile(role, path, digest)
        return InputFile(role, path, digest, self.text(raw, "hyp_field", line, "[[input]]"),
                         self.text(raw, "ref_field", line, "[[input]]"))

    def impls(self, raw: Any) -> dict[str, ImplInfo]:
        if not isinstance(raw, dict):
            raise self.fail(self.line_of("[impl"), "impl must be tables [impl.NAME]")
        infos = {}
        for name, table in raw.items():
            line = self.line_of(f"[impl.{name}") if name.isidentifier() else self.line_of(name)
            what = f"[impl.{name}]"
            if not isinstance(table, dict) or not isinstance(table.get("signature"), dict):
                raise self.fail(line, f"{what} needs version and a [impl.{name}.signature] table")
            signatures = {}
            for metric, text in table["signature"].items():
                if metric not in METRICS or not isinstance(text, str):
                    raise self.fail(line, f"{what}: signature {metric!r} is not metric = \"...\"")
                signatures[metric] = text
            infos[name] = ImplInfo(self.text(table, "version", line, what), signatures)
        return infos

    def entry(self, raw: Mapping[str, Any], line: int, impls: Mapping[str, ImplInfo]) -> Entry:
        case, metric, impl = (self.text(raw, key, line, "[[score]]")
                              for key in ("case", "metric", "impl"))
        if metric not in METRICS:
            raise self.fail(self.key_line(line, "metric"), f"unknown metric {metric!r}")
        if impl not in impls:
            raise self.fail(self.key_line(line, "impl"),
                            f"implementation {impl!r} has no [impl.{impl}] table")
        abs_tol = self.number(raw, "abs_tol", line, "[[score]]")
        rel_tol = self.number(raw, "rel_tol", line, "[[score]]")
        error, result = raw.get("error"), raw.get("result")
        if (error is None) == (result is None):
            raise self.fail(line, "[[score]] needs a [score.result] table or error = \"...\"")
        if error is not None:
            message = raw.get("message", "")
            return Entry(case, metric, impl, None, self.text(raw, "error", line, "[[score]]"),
                         message if isinstance(message, str) else str(message), abs_tol, rel_tol)
        table_line = self.key_line(line, "[score.result]")
        if not isinstance(result, dict):
            raise self.fail(table_line, "result must be a [score.result] table")
        for key, value in result.items():
            if not _is_value(value):
                raise self.fail(self.key_line(table_line, key),
                                f"result field {key} must be a number or an array of numbers")
        return Entry(case, metric, impl, dict(result), None, "", abs_tol, rel_tol)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_value(value: Any) -> bool:
    """A number or a (nested) array of numbers: what a result field may hold."""
    if isinstance(value, list):
        return all(_is_value(item) for item in value)
    return is_number(value)


def loads(text: str, path: Path) -> Lock:
    """The lock in ``text`` (read from ``path``, which error messages name)."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        line = int(match.group(1)) if match else 1
        raise LockError(f"{path}:{line}: not valid TOML: {error}") from None
    return _Reader(path, text).lock(document)


def read(path: Path) -> Lock:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LockError(f"{path}:0: cannot read the lock: {error}") from None
    return loads(text, path)

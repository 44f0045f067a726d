"""Reading a lock file (``lockfile.py`` has its records and format): the first
thing that does not fit the format is a ``LockError`` naming the file and line."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from metricdiff.errors import LockError
from metricdiff.input_files import TOMLDecodeError, Unreadable, load_toml, read_file
from metricdiff.locks.lockfile import (
    COUNT_KEY,
    DIGEST_KEY,
    LOCK_FORMAT,
    ROLES,
    TOLERANCE_BOUNDS,
    Entry,
    Environment,
    ImplInfo,
    InputFile,
    Lock,
    keys_digest,
)
from metricdiff.profiles.metrics import METRICS, family
from metricdiff.scoring.rows import RowError, result_from_row


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
        """A tolerance, bounded: ``abs_tol = inf`` (or 500 BLEU points) would let
        every drift through, the lock passing whatever is computed."""
        value, most = table.get(key), TOLERANCE_BOUNDS[key]
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not 0 <= value <= most):
            raise self.fail(self.key_line(line, key),
                            f"{what} needs {key} = a number from 0 to {most:g}")
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
        self.check_complete(document, entries)
        return Lock(environment, inputs, impls, entries)

    def check_complete(self, document: Mapping[str, Any], entries: Sequence[Entry]) -> None:
        """The entries are the ones the lock was written with: as many, the same
        keys in the same order.  A lock cut short would otherwise verify as "all
        2 scores reproduce" for the 2 left of 15."""
        again = "write it again with `metricdiff snapshot`"
        count, digest = document.get(COUNT_KEY), document.get(DIGEST_KEY)
        if isinstance(count, bool) or not isinstance(count, int) or not isinstance(digest, str):
            raise self.fail(self.line_of("format"), f"the lock has no {COUNT_KEY} = N and "
                            f"{DIGEST_KEY} = \"...\" (written by an older metricdiff, or "
                            f"edited): {again}")
        if count != len(entries):
            raise self.fail(self.line_of(COUNT_KEY), f"the lock holds {len(entries)} of the "
                            f"{count} scores it was written with (cut short?): {again}")
        if digest != keys_digest(entries):
            raise self.fail(self.line_of(DIGEST_KEY), "the lock's [[score]] entries are not "
                            "the ones it was written with (a case or metric replaced, or "
                            f"moved): {again}")

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
        try:  # the one check of every recorded row (scoring.rows): inf verifies nothing
            result_from_row(result, family(metric))
        except RowError as problem:
            field = problem.field
            where = table_line if field is None else self.key_line(table_line, field)
            named = field is not None and str(problem).startswith(field)
            raise self.fail(where, f"result field {problem}" if named
                            else f"[score.result]: {problem}") from None
        return Entry(case, metric, impl, dict(result), None, "", abs_tol, rel_tol)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def loads(text: str, path: Path) -> Lock:
    """The lock in ``text`` (read from ``path``, which error messages name)."""
    try:
        document = load_toml(text)
    except TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        line = int(match.group(1)) if match else 1
        raise LockError(f"{path}:{line}: not valid TOML: {error}") from None
    except Unreadable as error:
        raise LockError(f"{path}:1: {error}") from None
    return _Reader(path, text).lock(document)


def read(path: Path) -> Lock:
    """The lock at ``path``: a regular file of at most ``limits.MAX_FILE_BYTES``
    (``input_files.read_file``: a FIFO or a symlink to a device is refused, not
    read), a UTF-8 byte order mark dropped."""
    return loads(read_file(path, LockError, "lock"), path)

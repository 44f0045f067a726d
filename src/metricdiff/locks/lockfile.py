"""The lock file: its records, and its TOML format written (``reading.py`` reads it).

A lock is TOML (``metricdiff snapshot`` writes it, ``metricdiff verify`` and the
pytest plugin check it)::

    format = 1
    score_count = 15         # how many [[score]] entries follow, and the sha256 of
    score_keys_sha256 = ".." # their cases and metrics in order: a cut lock fails
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

"""

from __future__ import annotations

import hashlib
import json
import platform
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import tomli_w

from metricdiff._version import __version__
from metricdiff.atomic import check_target, write_atomic
from metricdiff.errors import InputError, OutputError
from metricdiff.input_files import open_regular

LOCK_FORMAT = 1
#: The largest tolerances a lock may state: a whole BLEU scale (0-100), a whole
#: ROUGE one (0-1) is within it; relative, the value itself.
TOLERANCE_BOUNDS = {"abs_tol": 100.0, "rel_tol": 1.0}
#: Top-level keys that make a truncated lock fail instead of verifying what is left.
COUNT_KEY, DIGEST_KEY = "score_count", "score_keys_sha256"
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
    """The sha256 of the bytes of ``path``, a regular file (a lock records files
    that verify can read again: not standard input, a FIFO or a device), read in
    blocks."""
    digest = hashlib.sha256()
    with open_regular(path, InputError, "lock's input") as (stream, _size):
        try:
            for block in iter(lambda: stream.read(2**20), b""):
                digest.update(block)
        except OSError as error:
            raise InputError(f"{path}:0: cannot read: {error.strerror or error}") from None
    return digest.hexdigest()


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


def keys_digest(entries: Sequence[Entry]) -> str:
    """The sha256 of every entry's case and metric, in order.  With the count and
    no entry twice, a lost entry cannot go unseen.  Values, tolerances and
    implementation names are left out: a tolerance loosened by hand, a score
    edited to simulate a drift or an implementation renamed to try other
    settings still reads."""
    keys = json.dumps([[entry.case, entry.metric] for entry in entries], ensure_ascii=False)
    return hashlib.sha256(keys.encode("utf-8")).hexdigest()


def dumps(lock: Lock, name: str = "scores.lock") -> str:
    """The lock as TOML text (deterministic: same lock, same bytes).

    Written by hand rather than by tomli_w, which puts every array element on a
    line of its own: one field per line reads and diffs better."""
    lines = [_HEADER.format(name=name).rstrip("\n"), f"format = {LOCK_FORMAT}",
             f"{COUNT_KEY} = {len(lock.entries)}",
             f'{DIGEST_KEY} = "{keys_digest(lock.entries)}"', ""]
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
    check_target(path)  # a FIFO or a device is not replaced
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

"""Score locks: every score of some implementations on some inputs, written down
so that a later run can tell whether the numbers still reproduce.

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
repository verifies from any working directory.  A lock holds at least one
score: an empty one would verify as "all 0 scores reproduce" and pin nothing.

Everything here returns values; printing is the command line's job.
"""

from __future__ import annotations

import hashlib
import math
import platform
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import tomli_w

from metricdiff.atomic import write_atomic
from metricdiff.cases.case import Case
from metricdiff.cases.files import line_cases, read_corpus
from metricdiff.cases.fixtures import load_all, load_file
from metricdiff.errors import ConventionError, InputError, LockError, OutputError, UnsupportedOption
from metricdiff.implementations import AnyAdapter
from metricdiff.profiles.metrics import METRICS, Result, family
from metricdiff.wording import plural

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

LOCK_FORMAT = 1
ROLES = ("fixture", "hyp", "ref", "jsonl")
_HEADER = "# Scores written by `metricdiff snapshot`; `metricdiff verify {name}` recomputes them.\n"


# --- what is scored ---------------------------------------------------------


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


def fixture_cases(files: Iterable[Path]) -> list[tuple[Case, str]]:
    """Each must_ and conv_ fixture case with its own metric.  reject_ cases are
    left out: what they test is the options they pin, and a lock scores each
    implementation under its default profile."""
    return [
        (case, case.metric)
        for path in files
        for case in load_file(path)
        if case.verdict_class != "reject"
    ]


def fixture_files(root: Path) -> list[Path]:
    """The fixture files under ``root``, checked to load together (unique IDs)."""
    load_all(root)
    files = sorted(root.rglob("*.toml"))
    if not files:
        raise InputError(f"{root}:0: no fixture files (*.toml) here")
    return files


def corpus_cases(hyp_file: str, ref_files: Sequence[str]) -> list[Case]:
    """Each line of the user's files as a case, and the whole corpus as one more
    (``files.line_cases``)."""
    if hyp_file == "-" or "-" in ref_files:
        raise InputError("-:0: a lock needs files that verify can read again, not stdin")
    return line_cases(read_corpus(hyp_file, ref_files), hyp_file)


def jsonl_cases(path: str, hyp_field: str, ref_field: str) -> list[Case]:
    """Each line of the user's JSONL file as a case, and the whole corpus as one
    more (``files.line_cases``)."""
    from metricdiff.cases.jsonl import read_jsonl

    if path == "-":
        raise InputError("-:0: a lock needs files that verify can read again, not stdin")
    return line_cases(read_jsonl(path, hyp_field, ref_field), path)


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


# --- scoring ----------------------------------------------------------------

#: Implementation name -> family (``bleu``/``rouge``) -> its adapter.
Impls = Mapping[str, Mapping[str, AnyAdapter]]
#: One score to compute: a case, a metric and an implementation name.
Job = tuple[Case, str, str]


def adapter_of(impls: Impls, name: str, metric: str) -> AnyAdapter | None:
    """``name``'s adapter for ``metric``, or None if it does not implement it."""
    adapter = impls.get(name, {}).get(family(metric))
    return adapter if adapter is not None and metric in adapter.metrics else None


def plan(cases: Iterable[tuple[Case, str]], impls: Impls) -> list[Job]:
    """Every (case, metric) with every implementation that has the metric, in
    input order, then metric order, then implementation name."""
    case_order: dict[str, int] = {}
    unique: dict[tuple[str, str], Case] = {}  # a metric named twice is scored once
    for case, metric in cases:
        case_order.setdefault(case.id, len(case_order))
        unique.setdefault((case.id, metric), case)
    keys = sorted(unique, key=lambda key: (case_order[key[0]], METRICS.index(key[1])))
    return [
        (unique[key], key[1], name)
        for key in keys
        for name in sorted(impls)
        if adapter_of(impls, name, key[1]) is not None
    ]


def plain_value(value: Any) -> Any:
    """Numbers as Python int/float (a peer may hand back numpy scalars), lists as lists."""
    if isinstance(value, (list, tuple)):
        return [plain_value(item) for item in value]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return int(value) if isinstance(value, int) else float(value)


def recorded_fields(result: Result) -> dict[str, Any]:
    """The fields of ``result`` a lock records: those the implementation reported.

    A user's own implementation may leave statistics out (``Result.unknown``,
    null in ``to_json``); TOML has no null, and a statistic nobody reported is
    nothing to reproduce, so it is left out, and ``compare_entries`` checks only
    what was recorded."""
    return {key: plain_value(value) for key, value in result.to_json().items()
            if value is not None}


def _entry(job: Job, outcome: Any, adapter: AnyAdapter) -> Entry:
    case, metric, name = job
    tolerance = adapter.tolerance
    base = Entry(case.id, metric, name, None, abs_tol=tolerance.absolute,
                 rel_tol=tolerance.relative)
    if isinstance(outcome, BaseException):
        return attrs.evolve(base, error=type(outcome).__name__, message=str(outcome))
    return attrs.evolve(base, result=recorded_fields(outcome))


def score(jobs: Sequence[Job], impls: Impls) -> list[Entry]:
    """Each job's entry, in job order.  Jobs are scored in one ``score_cases``
    call per implementation and metric (a process-backed peer starts once); an
    implementation that raises is recorded as that case's error, never ours."""
    groups: dict[tuple[str, str], list[int]] = {}
    for index, (_, metric, name) in enumerate(jobs):
        groups.setdefault((name, metric), []).append(index)
    entries: dict[int, Entry] = {}
    for (name, metric), indices in groups.items():
        adapter = adapter_of(impls, name, metric)
        assert adapter is not None, f"{name} has no {metric}: plan() leaves such jobs out"
        samples = [jobs[i][0].for_metric(metric).sample for i in indices]
        try:
            options = adapter.options(metric)
            outcomes: list[Any] = adapter.score_cases(metric, samples, options)
        except Exception as error:  # the whole batch failed: each case records it
            outcomes = [error] * len(indices)
        for index, outcome in zip(indices, outcomes, strict=True):
            entries[index] = _entry(jobs[index], outcome, adapter)
    return [entries[index] for index in range(len(jobs))]


def make_lock(entries: Sequence[Entry], impls: Impls, inputs: Sequence[InputFile]) -> Lock:
    """The lock of ``entries``: each implementation's version and its signature
    under every metric it was scored with (its default profile)."""
    infos: dict[str, ImplInfo] = {}
    for name in sorted({entry.impl for entry in entries}):
        metrics = sorted({e.metric for e in entries if e.impl == name}, key=METRICS.index)
        signatures = {}
        version = ""
        for metric in metrics:
            adapter = adapter_of(impls, name, metric)
            assert adapter is not None
            version = adapter.version()
            signatures[metric] = adapter.signature(metric, adapter.options(metric))
        infos[name] = ImplInfo(version, signatures)
    return Lock(current_environment(), tuple(inputs), infos, tuple(entries))


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


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_value(value: Any) -> bool:
    """A number or a (nested) array of numbers: what a result field may hold."""
    if isinstance(value, list):
        return all(_is_value(item) for item in value)
    return _is_number(value)


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


# --- comparing --------------------------------------------------------------


@attrs.frozen
class Drift:
    """A recorded value that a recomputation does not reproduce."""

    case: str
    metric: str
    impl: str
    field: str
    old: str
    new: str

    def line(self) -> str:
        where = f"{self.case}  {self.impl}  {self.metric}"
        return f"drift: {where}  {self.field}: {self.old} -> {self.new}"


def _within(old: float, new: float, abs_tol: float, rel_tol: float) -> bool:
    if math.isnan(old) or math.isnan(new):
        return math.isnan(old) and math.isnan(new)
    if old == new:  # also equal infinities
        return True
    return abs(old - new) <= max(abs_tol, rel_tol * abs(old))


def _field_drifts(name: str, old: Any, new: Any, entry: Entry) -> list[tuple[str, str, str]]:
    """(field, old, new) for each part of one result field that moved too far."""
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [
            drift
            for index, (a, b) in enumerate(zip(old, new, strict=True))
            for drift in _field_drifts(f"{name}[{index}]", a, b, entry)
        ]
    if _is_number(old) and _is_number(new) and _within(old, new, entry.abs_tol, entry.rel_tol):
        return []
    return [(name, str(old), str(new))]


def compare_entries(old: Entry, new: Entry) -> list[Drift]:
    """Where ``new`` departs from ``old`` beyond ``old``'s tolerance, field by
    field over the fields ``old`` records."""
    def drift(field: str, before: str, after: str) -> Drift:
        return Drift(old.case, old.metric, old.impl, field, before, after)

    if old.result is None or new.result is None:
        before = old.error or "scored"
        after = new.error or "scored"
        return [] if before == after else [drift("error", before, after)]
    # Only what the lock recorded: a field it left out (not reported, or new in a
    # later metricdiff) pins nothing.  A recorded field no longer reported drifts.
    absent = "absent"
    return [
        drift(field, before, after)
        for name, value in old.result.items()
        for field, before, after in _field_drifts(name, value, new.result.get(name, absent), old)
    ]


def _signature_change(old: str, new: str) -> str:
    """The components of two signatures that differ, e.g. ``smooth:none -> smooth:exp``."""
    before, after = old.split("|"), new.split("|")
    if len(before) != len(after):
        return f"{old} -> {new}"
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    return ", ".join(f"{a} -> {b}" for a, b in changed)


def environment_changes(old: Lock, new: Lock) -> list[str]:
    """What differs between the environments the two locks were written in."""
    changes = [
        f"{field}: {a} -> {b}"
        for field, a, b in (
            (f, getattr(old.environment, f), getattr(new.environment, f))
            for f in ("metricdiff", "python", "platform")
        )
        if a != b
    ]
    for name, info in old.impls.items():
        current = new.impls.get(name)
        if current is None:
            continue
        if info.version != current.version:
            changes.append(f"{name}: version {info.version} -> {current.version}")
        for metric, text in info.signatures.items():
            now = current.signatures.get(metric)
            if now is not None and now != text:
                changes.append(f"{name} {metric}: signature {_signature_change(text, now)}")
    return changes


@attrs.frozen
class Missing:
    """An implementation the lock records that cannot run now."""

    impl: str
    reason: str
    scores: int  # how many recorded scores go unchecked

    def line(self) -> str:
        # An adapter's reason already starts with its name.
        reason = self.reason if self.reason.startswith(self.impl) else f"{self.impl}: {self.reason}"
        return f"missing: {reason} ({plural(self.scores, 'score')} not checked)"


@attrs.frozen
class Verification:
    """The outcome of recomputing a lock.  ``checked``: the recorded scores
    compared (all but those of ``missing`` implementations)."""

    lock: Path
    checked: int
    drifts: tuple[Drift, ...]
    missing: tuple[Missing, ...]
    environment: tuple[str, ...]
    inputs: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.drifts and not self.missing

    @property
    def drifted_scores(self) -> int:
        """How many scores drifted (a score drifts in one field or in many)."""
        return len({(drift.case, drift.metric, drift.impl) for drift in self.drifts})

    def summary(self) -> str:
        """``LOCK: all 6 scores reproduce`` (``its 1 score reproduces``), or ``LOCK:
        3 of 6 scores drifted (26 fields)``, with the missing implementations if
        any."""
        if self.ok:
            if self.checked == 1:
                return f"{self.lock}: its 1 score reproduces"
            return f"{self.lock}: all {plural(self.checked, 'score')} reproduce"
        if self.drifts:
            text = (f"{self.lock}: {self.drifted_scores} of {plural(self.checked, 'score')} "
                    f"drifted ({plural(len(self.drifts), 'field')})")
        elif self.checked:
            text = (f"{self.lock}: {plural(self.checked, 'score')} checked, "
                    + ("it reproduces" if self.checked == 1 else "all reproduce"))
        else:
            text = f"{self.lock}: no score could be checked"
        if self.missing:
            text += f", {plural(len(self.missing), 'implementation')} missing"
        return text

    def lines(self) -> list[str]:
        """The report: a summary, one line per drift or missing implementation, then
        what changed in the environment and the inputs since the lock was written."""
        lines = [self.summary()]
        lines += [drift.line() for drift in self.drifts]
        lines += [missing.line() for missing in self.missing]
        if self.environment:
            lines.append("environment changes since the lock was written:")
            lines += [f"  {change}" for change in self.environment]
        if self.inputs:
            lines.append("input changes since the lock was written:")
            lines += [f"  {change}" for change in self.inputs]
        return lines


def compare(
    old: Lock,
    new: Lock,
    lock_path: Path,
    unavailable: Mapping[str, str] | None = None,
    input_changes: Sequence[str] = (),
) -> Verification:
    """``new`` (a recomputation of ``old``'s entries) against ``old``.  An entry
    ``new`` lacks is a drift, unless its implementation is ``unavailable`` (name
    -> reason), which is reported once per implementation."""
    unavailable = unavailable or {}
    current = {entry.key: entry for entry in new.entries}
    drifts: list[Drift] = []
    for entry in old.entries:
        if entry.impl in unavailable:
            continue
        now = current.get(entry.key)
        if now is None:
            drifts.append(Drift(entry.case, entry.metric, entry.impl, "entry",
                                "recorded", "not recomputed (case or metric gone)"))
        else:
            drifts += compare_entries(entry, now)
    missing = tuple(
        Missing(name, reason, sum(e.impl == name for e in old.entries))
        for name, reason in sorted(unavailable.items())
    )
    checked = sum(entry.impl not in unavailable for entry in old.entries)
    return Verification(lock_path, checked, tuple(drifts), missing,
                        tuple(environment_changes(old, new)), tuple(input_changes))


# --- verifying --------------------------------------------------------------

AdapterLookup = Callable[[str, str], AnyAdapter]


def recorded_cases(lock: Lock, lock_dir: Path) -> tuple[dict[str, Case], list[str]]:
    """The cases of the lock's inputs as they are now, and how the input files
    changed (their sha256) since the lock was written."""
    changes = []
    for item in lock.inputs:
        digest = sha256_of(item.resolve(lock_dir))
        if digest != item.sha256:
            changes.append(f"{item.path}: sha256 {item.sha256[:12]}… -> {digest[:12]}…")
    fixtures = [item.resolve(lock_dir) for item in lock.inputs if item.role == "fixture"]
    cases = {case.id: case for case, _ in fixture_cases(fixtures)}
    hyps = [item.resolve(lock_dir) for item in lock.inputs if item.role == "hyp"]
    refs = [str(item.resolve(lock_dir)) for item in lock.inputs if item.role == "ref"]
    for hyp in hyps:
        cases.update((case.id, case) for case in corpus_cases(str(hyp), refs))
    for item in lock.inputs:
        if item.role == "jsonl" and item.hyp_field is not None and item.ref_field is not None:
            found = jsonl_cases(str(item.resolve(lock_dir)), item.hyp_field, item.ref_field)
            cases.update((case.id, case) for case in found)
    return cases, changes


def implementations(
    names: Iterable[str], metrics: Iterable[str], lookup: AdapterLookup
) -> tuple[dict[str, dict[str, AnyAdapter]], dict[str, str]]:
    """The adapters of ``names`` for the families of ``metrics`` that can run here,
    and the reason of each name that cannot."""
    families = sorted({family(metric) for metric in metrics})
    impls: dict[str, dict[str, AnyAdapter]] = {}
    unavailable: dict[str, str] = {}
    for name in names:
        for wanted in families:
            try:
                adapter = lookup(name, "bleu" if wanted == "bleu" else "rouge-1")
            except UnsupportedOption:  # it has no such family: nothing to score
                continue
            except ConventionError as error:  # a name that metricdiff no longer knows
                unavailable[name] = str(error)
                break
            reason = adapter.unavailable_reason()
            if reason is not None:
                unavailable[name] = reason
            else:
                impls.setdefault(name, {})[wanted] = adapter
    return impls, unavailable


def default_lookup(name: str, metric: str) -> AnyAdapter:
    from metricdiff.implementations import get_adapter

    return get_adapter(name, metric)


def verify(path: Path, lookup: AdapterLookup = default_lookup) -> Verification:
    """Recompute every score ``path`` records, from the same inputs, with the
    implementations installed now, and compare."""
    old = read(path)
    cases, input_changes = recorded_cases(old, path.parent)
    impls, unavailable = implementations(
        old.impls, {entry.metric for entry in old.entries}, lookup
    )
    # An entry whose case left the inputs, or whose metric the implementation
    # dropped, is not recomputed; compare() reports it as a drift.
    jobs = [
        (cases[entry.case], entry.metric, entry.impl)
        for entry in old.entries
        if entry.case in cases and entry.impl not in unavailable
        and adapter_of(impls, entry.impl, entry.metric) is not None
    ]
    new = make_lock(score(jobs, impls), impls, old.inputs)
    return compare(old, new, path, unavailable, input_changes)

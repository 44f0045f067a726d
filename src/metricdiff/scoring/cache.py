"""A persistent cache of the peers' outputs (``--cache DIR``), off unless asked for.

A re-run of an audit, ``compare`` or ``score`` on the same text asks the same
implementations the same questions; with ``--cache DIR`` each answer a peer
gave is kept in ``DIR/scores.sqlite`` and given again instead of running the
peer.  A row's key is a hash of everything that decides the answer:

* the implementation's name and its package's installed version;
* a digest of the adapter's source: the module of its class and of every class
  above it, and every ``metricdiff.impls`` module they import, transitively
  (so editing a tokenizer that an adapter uses is a new key), and of
  ``scoring/validate.py``, which judges the answer;
* the metric and the profile it runs under (every axis value), and Python's
  version;
* a digest of the case: its hypotheses and references.

Only what a peer would answer the same again is kept: a score (``ok``), output
``validate`` rejects (``invalid-output``) and an exception the implementation
raised on that very case.  A timeout, a dead process or an adapter that could
not be built depend on the machine and are scored again next time.  The
reference (in-process, and cheap), a user's own implementation (``python:``,
``cmd:``: its code is not metricdiff's to digest) and an implementation whose
scores vary from run to run (``Declared.reproducible``) are never cached.

A row is read as untrusted input: its JSON must have the shape the cache writes,
its result must be of the metric's family and pass ``validate``; a row that does
not is ignored, scored again and replaced, and counted (``ScoreCache.ignored``).
A file that is not this cache is a one-line ``InputError`` before anything is
scored.  Rows are written in SQLite transactions (a cut write leaves the rows
before it), in write-ahead-log mode with a busy timeout, so that two runs may
share one cache; a cache that stays locked is given up for the rest of the run
with a warning, never an error: the scores are the same without it.

``run_jobs`` consults the cache made active with ``using(cache)``; the command
line does that for ``--cache``.  The counts (``hits``, ``stored``, ``ignored``)
live in memory shared with forked children (the audit explains each metric in
one), so that the parent's totals include theirs.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.sharedctypes import RawArray
from pathlib import Path

import attrs

from metricdiff.errors import InputError, MetricdiffWarning
from metricdiff.scoring.cache_keys import CaseDigests, job_prefix, row_key
from metricdiff.scoring.cache_rows import decode, encode, keeps
from metricdiff.scoring.jobs import CaseResult, Job

#: The cache's file in ``--cache DIR``.
CACHE_NAME = "scores.sqlite"
#: What the ``meta`` table says of a file that is this cache, in this layout.
FORMAT = "metricdiff score cache 1"
#: Rows written in one transaction at most (and at least once a second).
COMMIT_EVERY = 500
#: Seconds a run waits for another that holds the cache's write lock.
BUSY_SECONDS = 30.0
#: Keys asked for in one query.
LOOKUP_AT_ONCE = 500

_HITS, _STORED, _IGNORED, _ASKED = 0, 1, 2, 3


@attrs.frozen
class Counts:
    """How many peer scores came from the cache, were stored in it, were
    ignored (a row that failed validation, scored again), and were asked of it
    (every peer score of the run: those it had and those it had not)."""

    hits: int
    stored: int
    ignored: int
    asked: int = 0

    def describe(self, folder: Path) -> str:
        """The line the commands print, e.g. ``cache: 120 of 150 peer scores
        came from the cache in /tmp/c; 30 scored and stored``."""
        from metricdiff.wording import from_cache, plural

        line = f"cache: {from_cache(self.hits, self.asked, str(folder))}; {self.stored} " \
            "scored and stored"
        if self.ignored:
            line += (f"; {plural(self.ignored, 'row')} ignored (not a valid score) and "
                     "scored again")
        return line


class ScoreCache:
    """The cache in the folder ``folder`` (created if needed)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / CACHE_NAME
        self._counts = RawArray("q", 4)  # shared with forked children
        self._connection: sqlite3.Connection | None = None
        self._pid = -1
        self._pending: list[tuple[str, str]] = []
        self._last_commit = time.monotonic()
        self._writable = True
        self._connect()  # a file that is not this cache: an error now, not mid-run

    # -- the file ------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        # A forked child must not use its parent's connection (SQLite's rule).
        self._connection, self._pid, self._pending = None, os.getpid(), []
        self._check_place()
        try:
            connection, found = self._set_up()
        except sqlite3.Error as error:
            raise InputError(f"--cache {self.folder}: {CACHE_NAME} is not a metricdiff score "
                             f"cache ({error}); remove it or name another folder") from None
        if found is None or found[0] != FORMAT:
            connection.close()
            raise InputError(f"--cache {self.folder}: {CACHE_NAME} is not a metricdiff score "
                             f"cache of this version ({found[0] if found else 'no format'!r}); "
                             "remove it or name another folder")
        self._connection = connection
        return connection

    def _set_up(self) -> tuple[sqlite3.Connection, tuple[str] | None]:
        """A connection to the file, made a cache if it is new, and the format
        it says.  Two runs that start together on a new cache both switch it to
        write-ahead logging, and SQLite answers one of them "database is
        locked" at once, without waiting out the busy timeout (26 of 1,600
        openings by 8 processes at once): that is tried again, for as long as
        the busy timeout."""
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS,
                                         isolation_level=None, check_same_thread=False)
            try:
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("CREATE TABLE IF NOT EXISTS meta "
                                   "(name TEXT PRIMARY KEY, value TEXT NOT NULL)")
                connection.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)",
                                   (FORMAT,))
                connection.execute("CREATE TABLE IF NOT EXISTS scores "
                                   "(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
                found = connection.execute(
                    "SELECT value FROM meta WHERE name = 'format'").fetchone()
            except sqlite3.OperationalError as error:
                connection.close()
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
                continue
            except sqlite3.Error:
                connection.close()
                raise
            return connection, found

    def _check_place(self) -> None:
        """The folder exists (made if needed) and the file is a regular file or
        absent: a FIFO or a device would hang or be written to."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"--cache {self.folder}: cannot create the folder "
                             f"({error.strerror or error})") from None
        try:
            mode = self.path.stat().st_mode
        except FileNotFoundError:
            return
        except OSError as error:
            raise InputError(f"--cache {self.folder}: cannot read {CACHE_NAME} "
                             f"({error.strerror or error})") from None
        if not stat.S_ISREG(mode):
            raise InputError(f"--cache {self.folder}: {CACHE_NAME} is not a regular file")

    def close(self) -> None:
        """Write what is pending and close the file."""
        self.flush()
        if self._connection is not None and self._pid == os.getpid():
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
        self._connection = None

    # -- counts --------------------------------------------------------------

    @property
    def counts(self) -> Counts:
        return Counts(*self._counts)

    def _count(self, which: int, how_many: int) -> None:
        self._counts[which] += how_many

    # -- reading and writing rows --------------------------------------------

    def lookup(self, keys: Sequence[str], metric: str) -> list[CaseResult | None]:
        """The cached outcome of each key, or None (not there, or not valid)."""
        found: dict[str, str] = {}
        try:
            connection = self._connect()
            for start in range(0, len(keys), LOOKUP_AT_ONCE):
                part = list(dict.fromkeys(keys[start:start + LOOKUP_AT_ONCE]))
                marks = ",".join("?" * len(part))
                found.update(connection.execute(
                    f"SELECT key, value FROM scores WHERE key IN ({marks})", part))
        except sqlite3.Error as error:
            self._give_up(error)
            return [None] * len(keys)
        outcomes: list[CaseResult | None] = []
        for key in keys:
            text = found.get(key)
            outcome = None if text is None else decode(text, metric)
            if text is not None and outcome is None:
                self._count(_IGNORED, 1)
            outcomes.append(outcome)
        self._count(_HITS, sum(outcome is not None for outcome in outcomes))
        self._count(_ASKED, len(keys))
        return outcomes

    def store(self, key: str, outcome: CaseResult) -> None:
        """Keep ``outcome`` under ``key`` if it is an answer worth keeping."""
        if not self._writable or not keeps(outcome):
            return
        self._pending.append((key, encode(outcome)))
        if (len(self._pending) >= COMMIT_EVERY
                or time.monotonic() - self._last_commit > 1.0):
            self.flush()

    def flush(self) -> None:
        """Write the pending rows in one transaction."""
        if not self._pending or not self._writable or self._pid != os.getpid():
            return
        rows, self._pending = self._pending, []
        try:
            connection = self._connect()
            with _transaction(connection):
                connection.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?)", rows)
        except sqlite3.Error as error:
            self._give_up(error)
            return
        self._last_commit = time.monotonic()
        self._count(_STORED, len(rows))

    def _give_up(self, error: sqlite3.Error) -> None:
        if self._writable:
            warnings.warn(f"--cache {self.folder}: {error}; going on without the cache",
                          MetricdiffWarning, stacklevel=2)
        self._writable = False
        self._pending = []

    # -- jobs ----------------------------------------------------------------

    def run(
        self,
        jobs: Sequence[Job],
        score: Callable[[Sequence[Job], Callable[[int, int, CaseResult], None] | None],
                        Sequence[Sequence[CaseResult]]],
        on_result: Callable[[int, int, CaseResult], None] | None,
    ) -> list[list[CaseResult | None]]:
        """Each job's outcomes: those the cache has, and the rest from ``score``
        (called once, with the jobs cut down to the cases left and an
        ``on_result`` hook of its own), each stored as it comes.  ``on_result``
        is called once per case, the cached ones first."""
        prefixes = [job_prefix(job) for job in jobs]
        digests = CaseDigests()
        rows: list[list[CaseResult | None]] = []
        for job, prefix in zip(jobs, prefixes, strict=True):
            if prefix is None or not self._writable:
                rows.append([None] * len(job.cases))
                continue
            keys = [row_key(prefix, digest) for digest in digests.of(job.cases)]
            rows.append(self.lookup(keys, job.metric))
        if on_result is not None:
            for number, row in enumerate(rows):
                for index, outcome in enumerate(row):
                    if outcome is not None:
                        on_result(number, index, outcome)
        todo = [(number, [i for i, outcome in enumerate(row) if outcome is None])
                for number, row in enumerate(rows)]
        todo = [(number, left) for number, left in todo if left]
        if not todo:
            return rows
        pending = [attrs.evolve(jobs[number], cases=tuple(jobs[number].cases[i] for i in left))
                   if len(left) < len(jobs[number].cases) else jobs[number]
                   for number, left in todo]

        def came(sub: int, index: int, outcome: CaseResult) -> None:
            number, left = todo[sub]
            prefix = prefixes[number]
            if prefix is not None:
                self.store(row_key(prefix, digests.one(jobs[number].cases[left[index]])),
                           outcome)
            if on_result is not None:
                on_result(number, left[index], outcome)

        try:
            scored = score(pending, came)
        finally:
            self.flush()
        for (number, left), outcomes in zip(todo, scored, strict=True):
            for index, outcome in zip(left, outcomes, strict=True):
                rows[number][index] = outcome
        return rows


@contextlib.contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


# ---------------------------------------------------------------- the active cache

_ACTIVE: list[ScoreCache] = []


def active() -> ScoreCache | None:
    """The cache ``run_jobs`` uses now, if any."""
    return _ACTIVE[-1] if _ACTIVE else None


@contextlib.contextmanager
def using(cache: ScoreCache | None) -> Iterator[ScoreCache | None]:
    """``cache`` active within the block (None: nothing changes), then closed."""
    if cache is None:
        yield None
        return
    _ACTIVE.append(cache)
    try:
        yield cache
    finally:
        _ACTIVE.remove(cache)
        cache.close()


__all__ = ["CACHE_NAME", "Counts", "ScoreCache", "active", "using"]

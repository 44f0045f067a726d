"""The worker processes' side: how they start, and what they run; ``warm_up``
starts their forkserver (which imports every installed peer) as ``compare`` and
``audit`` begin, so that it runs beside their reading of the input.

Start method: ``forkserver`` where the platform has it (Linux, macOS),
``spawn`` elsewhere.  Workers must not be forked from the audit process itself:
by the time it runs jobs it may hold threads started by a library it imported
(torch's OpenMP pool, a tokenizer's thread pool), whose locks a forked child can
inherit held -- the fork-after-threads deadlock that Python 3.12 warns about and
that made 3.14 stop forking by default -- and it holds monkeypatches, open files
and caches that a worker should not see.  A forkserver is a fresh,
single-threaded interpreter, started once per metricdiff process (~0.3 s, on
the first ``run_jobs`` call or ``warm_up``), that imports
``metricdiff.scoring.worker`` and the reference adapter once and then forks
each worker from that clean state: a new
worker costs ~20 ms instead of the ~0.3 s of a spawned interpreter re-importing
metricdiff, which matters for the
replacement of every worker killed on a timeout or death, and for every
``run_jobs`` call after the first.  What a worker forked from the server
would otherwise get stale is passed explicitly with every chunk: the parent's
current ``os.environ`` (a forkserver child inherits the server's, frozen when it
started, so ``XDG_CACHE_HOME`` or ``METRICDIFF_PEERS_DIR`` set later would not
count) and ``sys.path``; the working directory is set by multiprocessing.  The
main script is not re-run in the child, as either start method would do by
default (see ``without_main_script``): code from ``python -`` and scripts
without an ``if __name__ == "__main__"`` guard work too.

A worker puts itself in a session of its own (so the terminal's Ctrl-C reaches
only the parent, which then kills every worker, and a kill takes the worker's
own children along), ignores SIGINT, sends its standard output to standard error
(a library's chatter must not land in metricdiff's JSON on stdout), and kills
itself and its process group when its lifeline -- a pipe the parent holds open
and never writes -- reaches end of file, i.e. when the parent is gone, even by
SIGKILL (its parent pid cannot tell: under forkserver that is the server, which
stays up as long as any worker does).
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import multiprocessing
import os
import pickle
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from metricdiff.impls import AnyAdapter
from metricdiff.impls.user import command, python
from metricdiff.scoring.chunks import build_adapter, score_chunk
from metricdiff.scoring.jobs import INVALID, CaseResult
from metricdiff.scoring.memos import trim_memos
from metricdiff.scoring.validate import describe

#: Imported once by the forkserver, so that a worker forked from it starts warm;
#: first, what takes the working directory off its ``sys.path`` (``forkserver_path``).
FORKSERVER_PRELOAD = [
    "metricdiff.forkserver_path", "__main__", "metricdiff.scoring.worker",
    "metricdiff.impls.reference.adapter",
]


def _peer_modules() -> list[str]:
    """The installed peers' modules (each adapter's ``modules``), for the forkserver
    to import once: every pool forks fresh workers, and the shrinker starts a pool
    per judgement, so a worker that had to import NLTK or rouge-score itself
    would pay for it hundreds of times.  Only installed ones: the forkserver
    skips a module that raises ImportError, but nothing else."""
    from metricdiff.impls import adapter_for_family, adapter_names, families_of

    wanted = [
        module
        for name in adapter_names()
        if not name.startswith(("python:", "cmd:"))
        for family_name in families_of(name)
        for module in adapter_for_family(name, family_name).package.modules
    ]
    return [m for m in dict.fromkeys(wanted) if importlib.util.find_spec(m.split(".")[0])]


def start_context() -> Any:  # a ForkServerContext or SpawnContext (platform-dependent stubs)
    """forkserver (preloaded) where available, else spawn: see the docstring."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Only read when the server starts (once per process); a server that
        # is already running keeps its preloads.
        context.set_forkserver_preload([*FORKSERVER_PRELOAD, *_peer_modules()])
        return context
    return multiprocessing.get_context("spawn")


def warm_up() -> None:
    """Start the forkserver now and return at once: its imports of every
    installed peer (~0.8 s) then run beside what the caller does before its
    first ``run_jobs`` (``compare`` reads the corpus and works out each
    implementation's profile meanwhile), instead of before the first worker.
    A server already running is left as it is; under ``spawn`` there is none."""
    context = start_context()
    if context.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    with without_main_script():
        forkserver.ensure_running()


_MAIN_LOCK = threading.Lock()


@contextlib.contextmanager
def without_main_script() -> Iterator[None]:
    """Start a worker (and the forkserver) without re-running the main script.

    A spawned or forkserver child re-runs ``__main__`` -- by its ``__spec__``
    name or its ``__file__`` -- before anything else.  Code read from standard
    input (``python -``) has the ``__file__`` ``<stdin>``, which is no file, so
    every worker died on start and every implementation became a crash; and a
    script that calls metricdiff without an ``if __name__ == "__main__"`` guard
    would start workers from every worker.  The workers need nothing from the
    main script (adapters come from the registry or an importable
    ``adapter_path``), so while one starts ``__main__`` shows neither.  (A
    notebook's ``__main__`` has no file to begin with.)"""
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    with _MAIN_LOCK:
        hidden: dict[str, Any] = {name: main.__dict__.pop(name)
                                  for name in ("__file__", "__spec__") if name in main.__dict__}
        main.__dict__["__spec__"] = None
        try:
            yield
        finally:
            main.__dict__.update(hidden)
            if "__spec__" not in hidden:
                del main.__dict__["__spec__"]


def _detach(lifeline: Connection, scratch: Path | None) -> bool:
    """Set a worker apart: own session, no SIGINT, stdout to stderr, temporary
    files in ``scratch`` (which is removed with the worker), and gone as soon as
    ``lifeline`` reaches end of file -- the parent never writes to it, so that
    happens when the parent closes it or dies.  (The parent pid is no use: a
    forkserver child's parent is the server, which outlives the audit for as
    long as any of its children lives.)  Whether the worker leads its group."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    leader = False
    if hasattr(os, "setsid"):
        try:
            os.setsid()
            leader = True
        except OSError:
            pass
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout.flush()
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    if scratch is not None:
        tempfile.tempdir = str(scratch)  # a cmd: program's files, a function's own
        command.PROGRAM_GROUPS = scratch
    python.LOAD_HERE = True  # a worker is where a python: module's code runs

    def watch() -> None:
        with contextlib.suppress(OSError, EOFError):
            wait([lifeline])
        end_worker(leader, scratch)

    threading.Thread(target=watch, name="metricdiff-lifeline", daemon=True).start()
    return leader


def end_worker(leader: bool, scratch: Path | None) -> None:
    """End the worker and everything it started: the programs it ran (each in a
    group of its own), its files, then its own process group -- a child that a
    ``python:`` function started included -- itself last."""
    if scratch is not None:
        command.kill_recorded_groups(scratch)
        shutil.rmtree(scratch, ignore_errors=True)
    if leader:
        with contextlib.suppress(OSError):
            os.killpg(os.getpid(), signal.SIGKILL)
    os._exit(0)


def worker_main(conn: Connection, lifeline: Connection, scratch: str | None = None) -> None:
    """Receive ``(environ, sys_path, cwd, impl, metric, adapter_path, options,
    cases)``; answer ``("ready",)`` once the adapter is built, then ``("done",
    [CaseResult])``, or ``("setup-failed", error)`` / ``("raised", error)``;
    ``None`` stops.  ``environ``, ``sys_path`` and the working folder ``cwd`` are
    the parent's at dispatch time and replace the worker's own (a worker outlives
    a test's or a notebook's ``chdir``); the worker kills itself and its process
    group when ``lifeline`` closes, and when it stops (``end_worker``).  A
    process that an implementation forks is never the worker: should one come
    back to this loop, it exits at once, before it can answer in the worker's
    place."""
    folder = None if scratch is None else Path(scratch)
    leader = _detach(lifeline, folder)
    me = os.getpid()
    try:
        _serve(conn, me)
    finally:
        if os.getpid() == me:
            end_worker(leader, folder)
        os._exit(0)  # a forked child of an implementation: not the worker's end


def _serve(conn: Connection, me: int) -> None:
    """The worker's loop (``worker_main``)."""
    adapters: dict[tuple[str, str, str | None, str], AnyAdapter] = {}
    scored = 0  # cases since the memos were last emptied
    emptied_at = _resident_bytes()  # the memory held once they were (imports included)
    while True:
        try:
            if scored and not conn.poll(IDLE_SECONDS):
                # Waiting: what the memos hold is of no use now.
                scored, emptied_at = 0, _emptied()
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        environ, sys_path, cwd, impl, metric, adapter_path, options, cases = message
        if environ != os.environ:
            os.environ.clear()
            os.environ.update(environ)
        if sys_path != sys.path:
            sys.path[:] = sys_path
        if cwd != os.getcwd():
            os.chdir(cwd)
        key = (impl, metric, adapter_path, cwd)
        try:
            adapter = adapters.get(key) or build_adapter(impl, metric, adapter_path)
        except BaseException as error:
            _only_the_worker(me)
            conn.send(("setup-failed", describe(error)))
            continue
        _only_the_worker(me)
        adapters[key] = adapter
        conn.send(("ready",))
        _quiet_root_logger()
        scored += len(cases)
        if scored >= TRIM_EVERY or _resident_bytes() > emptied_at + MEMO_MEMORY:
            scored, emptied_at = 0, _emptied()
        try:
            results = score_chunk(adapter, metric, options, cases)
        except BaseException as error:  # SystemExit from a library included
            _only_the_worker(me)
            conn.send(("raised", describe(error)))
            continue
        _only_the_worker(me)
        try:
            conn.send(("done", results))
        except (pickle.PicklingError, TypeError, AttributeError):
            conn.send(("done", [_sendable(result) for result in results]))


def _only_the_worker(me: int) -> None:
    """Exit at once in a process an implementation forked (``os.fork()`` in a
    ``python:`` function, whose child returns too): its answer is not the
    worker's, and it must not reach the parent."""
    if os.getpid() != me:
        os._exit(0)


#: A worker empties its large memos after about this many cases (see ``trim_memos``).
TRIM_EVERY = 8192
#: ... or sooner, once the worker holds this much more memory than when they were
#: last emptied (its imports and a peer's own state are not theirs): a BLEU memo
#: entry holds a segment's n-gram counts, several KB, so 8192 cases can be 300 MB.
MEMO_MEMORY = 192 * 2**20
#: ... and whenever it has waited this long for work: an audit's later steps
#: (explaining, the reports) run in the main process while its workers wait, and
#: what the workers hold then adds to the audit's peak.
IDLE_SECONDS = 1.0


def _emptied() -> int:
    """Empty the large memos (``trim_memos``); the memory the worker holds after."""
    trim_memos()
    return _resident_bytes()


def _resident_bytes() -> int:
    """The worker's resident memory now (Linux's ``/proc``; 0 elsewhere, where
    only the count of cases, ``TRIM_EVERY``, bounds the memos)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _quiet_root_logger() -> None:
    """The root logger as a fresh process has it: peers configure logging when
    imported (compare-mt's ``logging.basicConfig(level=INFO)``, in the forkserver's
    preload or in this worker), after which every library's INFO chatter (absl's
    "Using default tokenizer" from rouge-score) would reach the user's terminal
    from every worker.  Warnings still pass."""
    root = logging.getLogger()
    root.handlers.clear()
    root.setLevel(logging.WARNING)


def _sendable(result: CaseResult) -> CaseResult:
    try:
        pickle.dumps(result)
    except Exception as error:
        return CaseResult(INVALID, None, f"result cannot be sent back: {describe(error)}")
    return result

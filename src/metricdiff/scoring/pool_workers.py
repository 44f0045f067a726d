"""The pool's worker processes: one started, sent chunks, killed with what it
started, or kept idle between ``run_jobs`` calls with the adapters it built."""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import shutil
import signal
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

import attrs

from metricdiff.errors import Exiting
from metricdiff.impls.user.command import kill_recorded_groups
from metricdiff.wording import process_end


def death(process: BaseProcess) -> str:
    process.join(timeout=5.0)
    code = process.exitcode
    if code is None:
        return "process stopped answering"
    return process_end(code)


#: A chunk's implementation, its job's label (the participant; empty for an
#: implementation whose memos serve every profile) and a digest of its cases.
CasesKey = tuple[str, str, int]


@attrs.define
class Task:
    job: int
    indices: tuple[int, ...]


@attrs.define(eq=False)
class Worker:
    process: BaseProcess
    conn: Connection
    lifeline: Connection  # never written; closing it stops the worker
    #: The worker's own temporary folder: its programs' files, and the process
    #: groups of the programs it runs (``impls.user.command.PROGRAM_GROUPS``).
    scratch: Path
    task: Task | None = None
    ready: bool = False
    deadline: float = math.inf
    #: The implementations it has scored for (its adapters, its memos, its imports).
    served: set[str] = attrs.Factory(set)
    #: The chunks it has scored, by implementation, participant and cases
    #: (``Pool._cases_key``): an implementation's memo of those cases is in this worker.
    cases_served: set[CasesKey] = attrs.Factory(set)
    #: Whether ``kill`` or ``close`` has ended it, which the pool's thread and
    #: the exit (``at_exit``) may both do at once: the second does nothing.
    ended: bool = attrs.field(default=False, init=False)
    _ending: threading.Lock = attrs.field(factory=threading.Lock, init=False, repr=False)

    def kill(self) -> None:
        """Kill the worker, its process group (a child a ``python:`` function
        started), the groups of the programs it was running (a ``cmd:`` program
        in a group of its own), and remove its files."""
        self._end(kill=True)

    def close(self) -> None:
        """Close the pipes to a worker that has ended, and end what it left:
        its programs' process groups and its temporary folder."""
        self._end(kill=False)

    def _end(self, kill: bool) -> None:
        with self._ending:
            if self.ended:
                return
            self.ended = True
            if kill:
                self._kill_process()
            with _KEPT_LOCK:
                _STARTED.discard(self)
            self.close_pipes()
            kill_recorded_groups(self.scratch)
            shutil.rmtree(self.scratch, ignore_errors=True)

    def _kill_process(self) -> None:
        pid = self.process.pid
        if pid is not None and hasattr(os, "killpg"):
            try:  # the worker leads its own session: take its children too
                os.killpg(pid, signal.SIGKILL)
            except OSError:  # not yet its own group
                with contextlib.suppress(OSError):
                    self.process.kill()
        else:
            with contextlib.suppress(OSError):
                self.process.kill()
        self.process.join(timeout=5.0)

    def close_pipes(self) -> None:
        self.conn.close()
        self.lifeline.close()


def stop(workers: Sequence[Worker]) -> None:
    for worker in workers:
        with contextlib.suppress(OSError, ValueError):
            worker.conn.send(None)
    for worker in workers:
        worker.process.join(timeout=2.0)
        if worker.process.exitcode is None:
            worker.kill()
        else:
            worker.close()


# Idle workers kept between ``run_jobs`` calls, with the adapters they have
# built: a caller that runs many small batches (the shrinker) pays for a worker
# and its library's import once, not once per call.  Each gets the parent's
# environment and sys.path with every chunk, so a kept worker behaves as a new
# one would; ``shutdown_workers`` (also run at exit) stops them.
_KEPT: list[Worker] = []
_KEPT_LOCK = threading.Lock()


def take_kept(count: int) -> list[Worker]:
    with _KEPT_LOCK:
        alive = [w for w in _KEPT if w.process.is_alive()]
        dead = [w for w in _KEPT if w not in alive]
        taken, _KEPT[:] = alive[:count], alive[count:]
    for worker in dead:
        worker.kill()
    return taken


def keep_idle(workers: Sequence[Worker]) -> None:
    with _KEPT_LOCK:
        closing = _EXITING.is_set()
        if not closing:
            _KEPT.extend(workers)
    if closing:  # a pool that ended after the exit began: nothing is kept
        stop(workers)


def shutdown_workers() -> None:
    """Stop the worker processes kept for later ``run_jobs`` calls."""
    with _KEPT_LOCK:
        workers, _KEPT[:] = list(_KEPT), []
    stop(workers)


# Every worker started and not yet ended, and whether the process is exiting.
# ``multiprocessing`` joins every child process at exit, and a worker waits for
# its next chunk until its parent has ended: a pool still running in another
# thread when the main thread stops (``compare`` scores the implementations in
# a background thread; a Ctrl-C or an error in the main thread ends the
# command) would keep the process waiting for ever.  At exit the workers are
# killed first, and a pool asking for a new one then is refused it.
_STARTED: set[Worker] = set()
_EXITING = threading.Event()


def enlist(worker: Worker) -> Worker:
    """``worker``, just started, counted among those killed at exit
    (``at_exit``); one started as the exit began is killed at once, and
    ``Exiting`` raised."""
    with _KEPT_LOCK:
        closing = _EXITING.is_set()
        if not closing:
            _STARTED.add(worker)
    if closing:
        worker.kill()
        raise Exiting("the process is exiting: no worker is started")
    return worker


def at_exit() -> None:
    """Stop the kept workers and kill the ones still scoring (for a pool in
    another thread), so that the process can end."""
    with _KEPT_LOCK:
        _EXITING.set()
        busy = [worker for worker in _STARTED if worker not in _KEPT]
    shutdown_workers()
    for worker in busy:
        worker.kill()


# Registered after ``multiprocessing.util``'s own (imported above, with
# ``multiprocessing.connection``), so it runs before that joins the children.
atexit.register(at_exit)


def forget_inherited_workers() -> None:
    """In a process forked from one with kept workers (``scoring/background.py``):
    close its copies of the parent's workers' connections, without stopping them,
    and start its own workers when needed, from a forkserver of its own (the
    parent's is not this process's child; ``multiprocessing`` asks as if it were)."""
    with _KEPT_LOCK:
        inherited, _KEPT[:] = list(_KEPT), []
        _STARTED.clear()  # the parent's to kill at its exit, never this process's
    for worker in inherited:
        with contextlib.suppress(OSError):
            worker.close_pipes()  # the parent's worker: its files are not this process's
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    alive = getattr(server, "_forkserver_alive_fd", None)
    if server is not None and alive is not None:
        with contextlib.suppress(OSError):
            os.close(alive)
        server._forkserver_pid = None
        server._forkserver_address = None
        server._forkserver_alive_fd = None

"""Work done in a forked process while this one goes on: how the audit explains
one metric while it scores the next, and how the reports read the second half
of a large ``results.jsonl`` while this process reads the first.

Explaining is the reference's own work, in this process, while the worker
processes that score wait; scoring the next metric keeps them busy.  A forked
process starts with everything this one holds (the cases, the scores, the
reference's memos), so nothing is sent to it; it sends back its answer,
pickled, through a pipe.

The answer is the one this process would compute: the work is deterministic,
and whatever goes wrong in the child (an error, a crash, an answer that does
not unpickle) makes this process do the work itself, so that an error is raised
here as it would be without a child.  The child ignores Ctrl-C: this process
gets it and decides (``run.py`` finishes the metrics scored before; a second
Ctrl-C stops the children, ``cancel``, and ``--resume`` explains their metrics
again from the journal's scores).  Where there is no ``fork`` (Windows), or
where this process runs other threads, the work is done here when it is asked
for.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import select
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from metricdiff.scoring.pool_workers import forget_inherited_workers

T = TypeVar("T")

#: Whether this platform can fork (not Windows).
CAN_FORK = hasattr(os, "fork")


class Background(Generic[T]):
    """``work()``, begun in a forked process if ``fork`` says so; ``result()``
    waits for it."""

    def __init__(self, work: Callable[[], T], fork: bool) -> None:
        self._work = work
        self._pid: int | None = None
        self._pipe: int | None = None
        self._received: list[bytes] = []
        # A process with other threads (a notebook's, Ray's) is not forked: a
        # lock one of them holds would stay held in the child for good.
        self.forked = fork and CAN_FORK and threading.active_count() == 1
        if self.forked:
            self._start()

    def _start(self) -> None:
        for stream in (sys.stdout, sys.stderr):  # else the child writes them again
            stream.flush()
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read_end)
            _child(self._work, write_end)
        os.close(write_end)
        self._pid, self._pipe = pid, read_end

    @property
    def pipe(self) -> int | None:
        """The read end of the pipe from the child, while there is one."""
        return self._pipe

    def done(self) -> bool:
        """Whether ``result`` would not wait: the child has sent its whole
        answer (or died), or there is no child.  Reads what has come so far: a
        child blocks on a full pipe until its answer is read."""
        if self._pipe is None:
            return True
        while select.select([self._pipe], [], [], 0)[0]:
            chunk = os.read(self._pipe, 1 << 20)
            if not chunk:
                return True
            self._received.append(chunk)
        return False

    def result(self) -> T:
        """The work's result: the child's, or computed here if it gave none."""
        if self._pid is None:
            return self._work()
        answer = self._answer()
        if answer is None:
            return self._work()
        value: T = answer[0]
        return value

    def _answer(self) -> tuple[T] | None:
        assert self._pid is not None
        try:
            while not self.done():
                wait_for_any([self])
            _, status = os.waitpid(self._pid, 0)
            self._pid = None
        finally:
            self.cancel()  # interrupted while waiting: the child is stopped
        if status != 0:
            return None
        try:
            return (pickle.loads(b"".join(self._received)),)
        except Exception:  # a truncated answer: this process does the work
            return None
        finally:
            self._received = []

    def cancel(self) -> None:
        """Stop the child, if there is one still (after ``result``, there is none)."""
        if self._pipe is not None:
            with contextlib.suppress(OSError):
                os.close(self._pipe)
            self._pipe = None
        if self._pid is not None:
            pid, self._pid = self._pid, None
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


def wait_for_any(backgrounds: Sequence[Background[Any]], timeout: float | None = None) -> None:
    """Wait until one of ``backgrounds`` has something to read (or is done), or
    ``timeout`` seconds have passed (None: however long it takes)."""
    pipes = [b.pipe for b in backgrounds if b.pipe is not None]
    if pipes and not any(b.done() for b in backgrounds):
        select.select(pipes, [], [], timeout)  # readable: part of an answer, or its end


class Steps:
    """How many steps of some work are done, counted where a forked child can
    count them and this process read them (a shared page of memory): how the
    audit's progress line follows the explaining done in a child."""

    def __init__(self, total: int) -> None:
        self.total = total
        self._shared = mmap.mmap(-1, 8)  # anonymous and shared: the child's writes show here

    def step(self) -> None:
        self._shared[:8] = (self.done + 1).to_bytes(8, "little")

    @property
    def done(self) -> int:
        return int.from_bytes(self._shared[:8], "little")


def _child(work: Callable[[], T], write_end: int) -> None:
    """Run ``work`` and send its result; exit without running anything this
    process inherited (exit handlers, buffered files: the parent's)."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        forget_inherited_workers()
        payload = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        code = 0
    except BaseException:  # the parent does the work itself, and meets the error there
        pass
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)

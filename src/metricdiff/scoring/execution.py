"""Running implementations so that nothing they do can stop an audit.

An implementation may raise, hang, return NaN or a recall of 1.3, or kill its
process (a segfault, ``os._exit``, the OOM killer).  Each of these becomes a
recorded outcome of the cases it hit -- a ``CaseResult`` with status ``crash``,
``timeout`` or ``invalid-output`` -- and every other case keeps its result.

``run_jobs`` takes ``Job``s (one implementation, one metric, one profile, many
cases, each case scored as a corpus) and returns one ``CaseResult`` per case, in
the order given, whatever the scheduling.

Process model.  With a timeout (the default), the cases run in worker
processes: ``workers`` of them at most, each started once and reused for chunk
after chunk (a chunk is ``batch_size`` cases of one job, the adapter class's
attribute: 200 by default, 2000 for the Perl ROUGE, whose every call costs a
process), each building an adapter once per (implementation, metric) and calling
its ``score_cases`` on the chunk.  Idle workers outlive the call and serve the
next one, adapters (and imported libraries) included, so that a caller making
many small calls (the shrinker) does not pay a worker and an import of nltk per
call; ``shutdown_workers()`` stops them, and so does the end of the process.  A chunk that does not
finish within ``timeout`` seconds of the call's start (the clock starts once the
worker has its adapter, see below) has its worker killed
(with its process group, so that a Perl child dies too); a chunk whose worker
dies, or whose ``score_cases`` raises instead of returning, is likewise given
up.  Its cases are then retried one by one, each with the same timeout, so that
only the cases that hang or kill the process are lost (a hang costs its chunk's
timeout, then its own: about ``2 * timeout``): those are recorded as
``timeout`` (``no result within T s``) or ``crash`` (``process died with exit
code N`` / ``process killed by signal SIGSEGV``).  A worker that died or was
killed is replaced when the next chunk needs one.  Building the adapter
(importing the library, ``ensure_available``) has its own, longer allowance,
``max(timeout, SETUP_TIMEOUT)``, counted from when the chunk is sent (a fresh
worker boots in it); if it fails or runs out, every case of that job is
recorded with the reason and the job's remaining chunks are not sent.

Start method: ``forkserver`` where the platform has it (Linux, macOS),
``spawn`` elsewhere.  Workers must not be forked from the audit process itself:
by the time it runs jobs it may hold threads started by a library it imported
(torch's OpenMP pool, a tokenizer's thread pool), whose locks a forked child can
inherit held -- the fork-after-threads deadlock that Python 3.12 warns about and
that made 3.14 stop forking by default -- and it holds monkeypatches, open files
and caches that a worker should not see.  A forkserver is a fresh,
single-threaded interpreter, started once per metricdiff process (~0.3 s, on
the first ``run_jobs`` call), that imports ``metricdiff.scoring.execution`` and the
reference adapter once and then forks each worker from that clean state: a new
worker costs ~20 ms instead of the ~0.3 s of a spawned interpreter re-importing
metricdiff, which matters for the
replacement of every worker killed on a timeout or death, and for every
``run_jobs`` call after the first.  What a worker forked from the server
would otherwise get stale is passed explicitly with every chunk: the parent's
current ``os.environ`` (a forkserver child inherits the server's, frozen when it
started, so ``XDG_CACHE_HOME`` or ``METRICDIFF_PEERS_DIR`` set later would not
count) and ``sys.path``; the working directory is set by multiprocessing.  The
main script is not re-run in the child, as either start method would do by
default (see ``_without_main_script``): code from ``python -`` and scripts
without an ``if __name__ == "__main__"`` guard work too.

A worker puts itself in a session of its own (so the terminal's Ctrl-C reaches
only the parent, which then kills every worker, and a kill takes the worker's
own children along), ignores SIGINT, sends its standard output to standard error
(a library's chatter must not land in metricdiff's JSON on stdout), and kills
itself and its process group when its lifeline -- a pipe the parent holds open
and never writes -- reaches end of file, i.e. when the parent is gone, even by
SIGKILL (its parent pid cannot tell: under forkserver that is the server, which
stays up as long as any worker does).

Without a timeout (``timeout=None``) and with one worker, the jobs run in this
process: no overhead and debuggable, but a hang hangs metricdiff and a killed
process is metricdiff killed.  Exceptions and invalid output are still
recorded.  ``timeout=None`` with several workers runs the pool without deadlines.

Adapters come from the registry (``get_adapter(job.impl, job.metric)``), or
from ``Job.adapter_path`` ("module:Class", importable in a fresh interpreter),
which the tests use for adapters that misbehave on purpose.

Elsewhere.  ``run_jobs(..., executor=...)`` hands the chunks to an ``Executor``
instead (``executors.RayExecutor``: a Ray cluster), which runs each chunk with
``run_chunk_here`` on whichever machine gets it: in a worker process of that
machine, as above, so that timeouts, crashes and invalid output are recorded
there exactly as they are here.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import importlib.util
import math
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

import attrs

from metricdiff.cases.case import Sample
from metricdiff.errors import InvalidOutput
from metricdiff.implementations import AnyAdapter, get_adapter
from metricdiff.implementations.base import Adapter
from metricdiff.machine_paths import without_machine_paths
from metricdiff.profiles.metrics import Options, Result
from metricdiff.statistics import BleuResult, RougeResult

#: Case statuses.
OK, CRASH, TIMEOUT, INVALID = "ok", "crash", "timeout", "invalid-output"
STATUSES = (OK, CRASH, TIMEOUT, INVALID)

#: Seconds allowed for building an adapter in a worker (booting the worker,
#: importing the library) when the per-call timeout is shorter.
SETUP_TIMEOUT = 60.0
#: Longest error text kept in a ``CaseResult``.
MAX_ERROR = 300
#: How far a ROUGE ratio may exceed 1 before it is invalid (float rounding).
RATIO_SLACK = 1e-9

def _freeze_cases(cases: Iterable[tuple[Iterable[str], Iterable[Iterable[str | None]]]]
                  ) -> tuple[Sample, ...]:
    return tuple(
        (tuple(hyps), tuple(tuple(seg) for seg in refs)) for hyps, refs in cases
    )


@attrs.frozen
class Job:
    """Cases to score with one implementation, one metric and one profile.

    ``label`` names the profile for the report ("declared", "stemmed", ...);
    ``adapter_path`` ("package.module:Class") replaces the registry lookup of
    ``impl`` and must be importable in a fresh interpreter.
    """

    impl: str
    metric: str
    options: Options
    cases: tuple[Sample, ...] = attrs.field(converter=_freeze_cases)
    label: str = "declared"
    adapter_path: str | None = None


@attrs.frozen
class CaseResult:
    """What one case gave: ``status`` is ``ok`` (``result`` is set and valid),
    ``crash`` (the implementation raised, or its process died), ``timeout`` or
    ``invalid-output`` (it returned something ``validate`` rejects).  ``result``
    is set only when the status is ``ok``; ``error`` says what went wrong, in one
    line of at most ``MAX_ERROR`` characters ("" when ok)."""

    status: str = attrs.field(validator=attrs.validators.in_(STATUSES))
    result: Result | None = None
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status == OK


#: ``run_jobs``'s ``on_result(job_index, case_index, result)``.
OnResult = Callable[[int, int, CaseResult], None]


class Executor(Protocol):
    """Somewhere other than this machine's worker processes to run jobs
    (``executors.RayExecutor``).  ``run`` keeps ``run_jobs``'s contract, which
    has already checked the arguments: one ``CaseResult`` per case in input
    order, ``on_result`` in this process once per case, misbehaviour recorded,
    never raised."""

    def run(
        self,
        jobs: Sequence[Job],
        workers: int,
        timeout: float | None,
        on_result: OnResult | None,
    ) -> list[list[CaseResult]]: ...


# --------------------------------------------------------------------------
# Judging what an implementation returned


def validate(result: object) -> str | None:
    """What is wrong with ``result``, or None if nothing is.

    Conservative: only what no correct implementation can produce is rejected.

    * Not a ``BleuResult`` or ``RougeResult``, or a field that is not a number.
    * NaN or an infinity in any field.
    * BLEU: a negative score, precision or brevity penalty; a negative count,
      total, or length.  A score above 100 is *not* rejected: some smoothing
      methods (e.g. adding a constant to numerator and denominator of an empty
      order) can push a modified precision, and so the score, past 100.
    * ROUGE: recall, precision or F outside [0, 1] (with ``RATIO_SLACK`` for
      rounding); a negative match count or total.
    """
    fields: list[tuple[str, Any, str]]  # (name, value, what it must be)
    if isinstance(result, BleuResult):
        fields = [
            ("score", result.score, "nonnegative"),
            *((f"precisions[{i}]", p, "nonnegative") for i, p in enumerate(result.precisions)),
            ("bp", result.bp, "nonnegative"),
            *((f"counts[{i}]", c, "count") for i, c in enumerate(result.counts)),
            *((f"totals[{i}]", t, "count") for i, t in enumerate(result.totals)),
            ("sys_len", result.sys_len, "count"),
            ("ref_len", result.ref_len, "count"),
        ]
    elif isinstance(result, RougeResult):
        fields = [
            ("recall", result.recall, "ratio"),
            ("precision", result.precision, "ratio"),
            ("fmeasure", result.fmeasure, "ratio"),
            ("matches", result.matches, "count"),
            ("hyp_total", result.hyp_total, "count"),
            ("ref_total", result.ref_total, "count"),
        ]
    else:
        return f"returned {type(result).__name__}, not a BleuResult or RougeResult"
    problems: list[str] = []
    for name, raw, kind in fields:
        if name in result.unknown:  # not reported: a placeholder, never compared
            continue
        try:
            value = float(raw)
        except (TypeError, ValueError):
            problems.append(f"{name} is not a number ({_short(repr(raw), 40)})")
            continue
        if math.isnan(value):
            problems.append(f"{name} is NaN")
        elif math.isinf(value):
            problems.append(f"{name} is {'-' if value < 0 else ''}inf")
        elif kind == "ratio" and not 0.0 <= value <= 1.0 + RATIO_SLACK:
            problems.append(f"{name} {value:g} outside [0, 1]")
        elif kind == "nonnegative" and value < 0:
            problems.append(f"{name} {value:g} is negative")
        elif kind == "count" and value < 0:
            problems.append(f"negative count: {name} = {value:g}")
    return _short("; ".join(problems)) if problems else None


def describe(error: BaseException) -> str:
    """``ExceptionType: message`` on one line, at most ``MAX_ERROR`` characters, with
    no machine-specific path (it goes into findings and reports)."""
    try:
        message = without_machine_paths(" ".join(str(error).split()))
    except Exception:  # a __str__ that raises
        message = "(message unavailable)"
    name = type(error).__name__
    return _short(f"{name}: {message}" if message else name)


def _short(text: str, limit: int = MAX_ERROR) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _outcome(value: object) -> CaseResult:
    if isinstance(value, InvalidOutput):  # it answered, but not with a score
        return CaseResult(INVALID, None, describe(value))
    if isinstance(value, BaseException):
        return CaseResult(CRASH, None, describe(value))
    problem = validate(value)
    if problem is not None:
        return CaseResult(INVALID, None, problem)
    assert isinstance(value, (BleuResult, RougeResult))
    return CaseResult(OK, value)


# --------------------------------------------------------------------------
# Adapters and chunks


def _adapter_class(impl: str, metric: str, adapter_path: str | None) -> type[AnyAdapter]:
    if adapter_path is None:
        return type(get_adapter(impl, metric))
    module_name, _, class_name = adapter_path.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, Adapter)):
        raise TypeError(f"{adapter_path} is not an Adapter class")
    return cls


def _build(impl: str, metric: str, adapter_path: str | None) -> AnyAdapter:
    adapter = _adapter_class(impl, metric, adapter_path)()
    adapter.ensure_available()
    return adapter


def _batch_size(job: Job) -> int:
    try:
        size = int(_adapter_class(job.impl, job.metric, job.adapter_path).batch_size)
    except Exception:  # the worker will report why the adapter cannot be built
        size = Adapter.batch_size
    return max(1, size)


def _chunks(job: Job) -> list[tuple[int, ...]]:
    size = _batch_size(job)
    return [
        tuple(range(start, min(start + size, len(job.cases))))
        for start in range(0, len(job.cases), size)
    ]


def _score(
    adapter: AnyAdapter, metric: str, options: Options, cases: Sequence[Sample]
) -> list[CaseResult]:
    """``score_cases`` on ``cases``, judged; raises if it raises or miscounts."""
    outcomes = adapter.score_cases(metric, cases, options)
    if len(outcomes) != len(cases):
        raise RuntimeError(
            f"score_cases returned {len(outcomes)} outcomes for {len(cases)} cases"
        )
    return [_outcome(value) for value in outcomes]


# --------------------------------------------------------------------------
# In this process (timeout=None, one worker)


def _run_in_process(job: Job, on_result: OnResult | None = None, number: int = 0
                    ) -> list[CaseResult]:
    results: list[CaseResult] = []

    def report() -> None:  # the cases that have just got their outcome
        if on_result is not None:
            while reported[0] < len(results):
                on_result(number, reported[0], results[reported[0]])
                reported[0] += 1

    reported = [0]
    try:
        adapter = _build(job.impl, job.metric, job.adapter_path)
    except Exception as error:
        failure = CaseResult(CRASH, None, describe(error))
        results.extend([failure] * len(job.cases))
        report()
        return results
    for chunk in _chunks(job):
        cases = [job.cases[i] for i in chunk]
        try:
            results.extend(_score(adapter, job.metric, job.options, cases))
            report()
            continue
        except (Exception, SystemExit) as error:
            if len(cases) == 1:
                results.append(CaseResult(CRASH, None, describe(error)))
                report()
                continue
        for case in cases:  # the chunk raised as a whole: one by one
            try:
                results.extend(_score(adapter, job.metric, job.options, [case]))
            except (Exception, SystemExit) as error:
                results.append(CaseResult(CRASH, None, describe(error)))
            report()
    return results


# --------------------------------------------------------------------------
# Worker processes


def _detach(lifeline: Connection) -> None:
    """Set a worker apart: own session, no SIGINT, stdout to stderr, and gone
    as soon as ``lifeline`` reaches end of file -- the parent never writes to
    it, so that happens when the parent closes it or dies.  (The parent pid is
    no use: a forkserver child's parent is the server, which outlives the
    audit for as long as any of its children lives.)"""
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

    def watch() -> None:
        with contextlib.suppress(OSError, EOFError):
            wait([lifeline])
        if leader:  # take the adapter's own children (Perl) along
            with contextlib.suppress(OSError):
                os.killpg(os.getpid(), signal.SIGKILL)
        os._exit(1)

    threading.Thread(target=watch, name="metricdiff-lifeline", daemon=True).start()


def _worker_main(conn: Connection, lifeline: Connection) -> None:
    """Receive ``(environ, sys_path, impl, metric, adapter_path, options,
    cases)``; answer ``("ready",)`` once the adapter is built, then ``("done",
    [CaseResult])``, or ``("setup-failed", error)`` / ``("raised", error)``;
    ``None`` stops.  ``environ`` and ``sys_path`` are the parent's at dispatch
    time and replace the worker's own; the worker kills itself and its process
    group when ``lifeline`` closes."""
    _detach(lifeline)
    adapters: dict[tuple[str, str, str | None], AnyAdapter] = {}
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        environ, sys_path, impl, metric, adapter_path, options, cases = message
        if environ != os.environ:
            os.environ.clear()
            os.environ.update(environ)
        if sys_path != sys.path:
            sys.path[:] = sys_path
        key = (impl, metric, adapter_path)
        try:
            adapter = adapters.get(key) or _build(impl, metric, adapter_path)
        except BaseException as error:
            conn.send(("setup-failed", describe(error)))
            continue
        adapters[key] = adapter
        conn.send(("ready",))
        try:
            results = _score(adapter, metric, options, cases)
        except BaseException as error:  # SystemExit from a library included
            conn.send(("raised", describe(error)))
            continue
        try:
            conn.send(("done", results))
        except (pickle.PicklingError, TypeError, AttributeError):
            conn.send(("done", [_sendable(result) for result in results]))


def _sendable(result: CaseResult) -> CaseResult:
    try:
        pickle.dumps(result)
    except Exception as error:
        return CaseResult(INVALID, None, f"result cannot be sent back: {describe(error)}")
    return result


def _death(process: BaseProcess) -> str:
    process.join(timeout=5.0)
    code = process.exitcode
    if code is None:
        return "process stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return f"process killed by signal {name}"
    return f"process died with exit code {code}"


@attrs.define
class _Task:
    job: int
    indices: tuple[int, ...]


@attrs.define(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    lifeline: Connection  # never written; closing it stops the worker
    task: _Task | None = None
    ready: bool = False
    deadline: float = math.inf

    def kill(self) -> None:
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
        self.close()

    def close(self) -> None:
        self.conn.close()
        self.lifeline.close()


class _Pool:
    def __init__(
        self,
        jobs: Sequence[Job],
        workers: int,
        timeout: float | None,
        on_result: OnResult | None = None,
        environ: Mapping[str, str] | None = None,
        sys_path: Sequence[str] | None = None,
        chunking: Callable[[Job], list[tuple[int, ...]]] | None = None,
    ) -> None:
        self.jobs = jobs
        # What the workers get instead of this process's (run_chunk_here).
        self.environ = None if environ is None else dict(environ)
        self.sys_path = None if sys_path is None else list(sys_path)
        self.on_result = on_result
        self.workers = workers
        self.timeout = timeout
        self.setup_timeout = None if timeout is None else max(timeout, SETUP_TIMEOUT)
        self.context = _context()
        self.results: list[list[CaseResult | None]] = [[None] * len(j.cases) for j in jobs]
        self.job_failure: dict[int, CaseResult] = {}
        self.pending: deque[_Task] = deque(
            _Task(number, chunk)
            for number, job in enumerate(jobs)
            for chunk in (chunking or _chunks)(job)
        )
        self.idle: list[_Worker] = _take_kept(workers)
        self.busy: dict[Connection, _Worker] = {}

    def run(self) -> list[list[CaseResult]]:
        try:
            while self.pending or self.busy:
                self._dispatch()
                if not self.busy:
                    continue
                self._wait()
        except BaseException:
            self._shutdown(keep=False)
            raise
        self._shutdown(keep=True)
        out: list[list[CaseResult]] = []
        for row in self.results:
            assert all(r is not None for r in row)
            out.append([r for r in row if r is not None])
        return out

    # -- scheduling ----------------------------------------------------------

    def _dispatch(self) -> None:
        while self.pending and len(self.busy) < self.workers:
            task = self.pending.popleft()
            if task.job in self.job_failure:
                self._fill(task, self.job_failure[task.job])
                continue
            worker = self.idle.pop() if self.idle else self._start()
            job = self.jobs[task.job]
            message = (
                dict(os.environ) if self.environ is None else self.environ,
                list(sys.path) if self.sys_path is None else self.sys_path,
                job.impl,
                job.metric,
                job.adapter_path,
                job.options,
                [job.cases[i] for i in task.indices],
            )
            worker.task, worker.ready = task, False
            worker.deadline = (
                math.inf if self.setup_timeout is None
                else time.monotonic() + self.setup_timeout
            )
            self.busy[worker.conn] = worker
            try:
                worker.conn.send(message)
            except (pickle.PicklingError, TypeError, AttributeError) as error:
                self._release(worker)  # nothing was sent
                self._fail_job(
                    task, CaseResult(CRASH, None, f"cannot send the job: {describe(error)}")
                )
            except (OSError, ValueError):  # died while booting
                self._died(worker)

    def _start(self) -> _Worker:
        parent, child = self.context.Pipe(duplex=True)
        life_r, life_w = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=_worker_main,
            args=(child, life_r),
            name="metricdiff-worker",
            daemon=False,
        )
        with _without_main_script():
            process.start()
        child.close()
        life_r.close()
        return _Worker(process, parent, life_w)

    def _wait(self) -> None:
        now = time.monotonic()
        nearest = min(w.deadline for w in self.busy.values())
        timeout = None if math.isinf(nearest) else max(0.0, nearest - now)
        for conn in wait(list(self.busy), timeout=timeout):
            worker = self.busy.get(conn)  # type: ignore[call-overload]
            if worker is not None:
                self._receive(worker)
        now = time.monotonic()
        for worker in list(self.busy.values()):
            if worker.deadline > now:
                continue
            # A message that arrived just now wins over the deadline.
            while worker.conn in self.busy and worker.deadline <= now and _poll(worker.conn):
                self._receive(worker)
            if worker.conn in self.busy and worker.deadline <= now:
                self._timed_out(worker)

    # -- outcomes ------------------------------------------------------------

    def _receive(self, worker: _Worker) -> None:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError):
            self._died(worker)
            return
        task = worker.task
        assert task is not None
        kind = message[0]
        if kind == "ready":
            worker.ready = True
            worker.deadline = (
                math.inf if self.timeout is None else time.monotonic() + self.timeout
            )
            return
        self._release(worker)
        if kind == "done":
            for index, result in zip(task.indices, message[1], strict=True):
                self._set(task.job, index, result)
        elif kind == "setup-failed":
            self._fail_job(task, CaseResult(CRASH, None, message[1]))
        else:  # "raised": score_cases raised for the whole chunk
            self._retry_or_record(task, CaseResult(CRASH, None, message[1]))

    def _died(self, worker: _Worker) -> None:
        task, ready = worker.task, worker.ready
        self._discard(worker)
        how = _death(worker.process)
        worker.kill()  # whatever it left running in its process group
        assert task is not None
        if not ready:
            self._fail_job(
                task, CaseResult(CRASH, None, f"{how} while setting up the adapter")
            )
        else:
            self._retry_or_record(task, CaseResult(CRASH, None, how))

    def _timed_out(self, worker: _Worker) -> None:
        task, ready = worker.task, worker.ready
        self._discard(worker)
        worker.kill()
        assert task is not None
        if not ready:
            self._fail_job(
                task,
                CaseResult(
                    TIMEOUT, None,
                    f"setting up the adapter took longer than {self.setup_timeout:g} s",
                ),
            )
        else:
            self._retry_or_record(
                task, CaseResult(TIMEOUT, None, f"no result within {self.timeout:g} s")
            )

    def _retry_or_record(self, task: _Task, outcome: CaseResult) -> None:
        """A chunk that failed as a whole: its cases one by one; a single case
        that failed: that is its outcome."""
        if len(task.indices) == 1:
            self._fill(task, outcome)
        else:
            self.pending.extendleft(
                _Task(task.job, (index,)) for index in reversed(task.indices)
            )

    def _fail_job(self, task: _Task, outcome: CaseResult) -> None:
        self.job_failure.setdefault(task.job, outcome)
        self._fill(task, self.job_failure[task.job])

    def _fill(self, task: _Task, outcome: CaseResult) -> None:
        for index in task.indices:
            self._set(task.job, index, outcome)

    def _set(self, job: int, index: int, outcome: CaseResult) -> None:
        first = self.results[job][index] is None
        self.results[job][index] = outcome
        if first and self.on_result is not None:
            self.on_result(job, index, outcome)

    # -- workers -------------------------------------------------------------

    def _release(self, worker: _Worker) -> None:
        self.busy.pop(worker.conn, None)
        worker.task, worker.ready, worker.deadline = None, False, math.inf
        self.idle.append(worker)

    def _discard(self, worker: _Worker) -> None:
        self.busy.pop(worker.conn, None)

    def _shutdown(self, keep: bool) -> None:
        """Keep the idle workers for the next call (``keep``) or stop them; kill
        the busy ones (there are some only after an exception)."""
        if keep:
            _keep(self.idle)
        else:
            _stop(self.idle)
        for worker in list(self.busy.values()):
            worker.kill()
        self.idle = []
        self.busy.clear()


_MAIN_LOCK = threading.Lock()


@contextlib.contextmanager
def _without_main_script() -> Iterator[None]:
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


def _stop(workers: Sequence[_Worker]) -> None:
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
_KEPT: list[_Worker] = []
_KEPT_LOCK = threading.Lock()


def _take_kept(count: int) -> list[_Worker]:
    with _KEPT_LOCK:
        alive = [w for w in _KEPT if w.process.is_alive()]
        dead = [w for w in _KEPT if w not in alive]
        taken, _KEPT[:] = alive[:count], alive[count:]
    for worker in dead:
        worker.kill()
    return taken


def _keep(workers: Sequence[_Worker]) -> None:
    with _KEPT_LOCK:
        _KEPT.extend(workers)


def shutdown_workers() -> None:
    """Stop the worker processes kept for later ``run_jobs`` calls."""
    with _KEPT_LOCK:
        workers, _KEPT[:] = list(_KEPT), []
    _stop(workers)


atexit.register(shutdown_workers)


#: Imported once by the forkserver, so that a worker forked from it starts warm.
FORKSERVER_PRELOAD = [
    "__main__", "metricdiff.scoring.execution", "metricdiff.implementations.reference.adapter"
]


def _peer_modules() -> list[str]:
    """The installed peers' modules (each adapter's ``modules``), for the forkserver
    to import once: every pool forks fresh workers, and the shrinker starts a pool
    per judgement, so a worker that had to import NLTK or rouge-score itself
    would pay for it hundreds of times.  Only installed ones: the forkserver
    skips a module that raises ImportError, but nothing else."""
    from metricdiff.implementations import adapter_for_family, adapter_names, families_of

    wanted = [
        module
        for name in adapter_names()
        if not name.startswith(("python:", "cmd:"))
        for family_name in families_of(name)
        for module in adapter_for_family(name, family_name).modules
    ]
    return [m for m in dict.fromkeys(wanted) if importlib.util.find_spec(m.split(".")[0])]


def _context() -> Any:  # a ForkServerContext or SpawnContext (platform-dependent stubs)
    """forkserver (preloaded) where available, else spawn: see the docstring."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Only read when the server starts (once per process); a server that
        # is already running keeps its preloads.
        context.set_forkserver_preload([*FORKSERVER_PRELOAD, *_peer_modules()])
        return context
    return multiprocessing.get_context("spawn")


def _poll(conn: Connection) -> bool:
    try:
        return conn.poll(0)
    except (OSError, EOFError):
        return True  # recv will report the death


# --------------------------------------------------------------------------
# For an Executor that sends chunks to other machines


def chunks(job: Job) -> list[tuple[int, ...]]:
    """The indices of ``job``'s cases, chunk by chunk, as ``run_jobs`` sends them."""
    return _chunks(job)


def run_chunk_here(
    job: Job,
    timeout: float | None,
    environ: Mapping[str, str] | None = None,
    sys_path: Sequence[str] | None = None,
) -> tuple[list[CaseResult], CaseResult | None]:
    """``job`` (one chunk's worth of cases) in a worker process of this machine,
    exactly as ``run_jobs`` runs a chunk: its results, and the outcome every case
    got if the adapter could not be built (else None), so that the caller need
    not send the job's other chunks.  ``environ`` and ``sys_path`` (default:
    this process's) are what the worker gets."""
    # One chunk, as the caller cut it: re-cutting here would need the adapter
    # class, which may not import in this process (only in the worker).
    pool = _Pool([job], 1, timeout, environ=environ, sys_path=sys_path,
                 chunking=lambda whole: [tuple(range(len(whole.cases)))] if whole.cases else [])
    [results] = pool.run()
    return results, pool.job_failure.get(0)


# --------------------------------------------------------------------------


def run_jobs(
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    timeout: float | None = 60.0,
    on_result: OnResult | None = None,
    executor: Executor | None = None,
) -> list[list[CaseResult]]:
    """Every case of every job scored: one list per job, one ``CaseResult`` per
    case, in input order.  ``timeout`` is per ``score_cases`` call (a chunk, then
    a single case on retry); ``workers`` the number of worker processes.  With
    ``timeout=None`` and one worker the jobs run in this process (see the
    module's docstring for what that gives up).

    ``on_result(job_index, case_index, result)``, if given, is called in this
    process once per case, as soon as the case has its final outcome (when its
    chunk completes, in completion order, not input order); an exception it
    raises stops the run and propagates.

    ``executor``, if given, runs the jobs instead of this machine's worker
    processes (``executors.RayExecutor``), with the same results."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    jobs = list(jobs)
    if executor is not None:
        return executor.run(jobs, workers, timeout, on_result)
    if timeout is None and workers == 1:
        return [_run_in_process(job, on_result, number) for number, job in enumerate(jobs)]
    return _Pool(jobs, workers, timeout, on_result).run()


__all__ = [
    "CRASH",
    "INVALID",
    "OK",
    "STATUSES",
    "TIMEOUT",
    "CaseResult",
    "Executor",
    "Job",
    "OnResult",
    "chunks",
    "describe",
    "run_chunk_here",
    "run_jobs",
    "shutdown_workers",
    "validate",
]

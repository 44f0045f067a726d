"""Worker processes scoring chunks under deadlines: ``run_jobs`` with a timeout.

Process model.  With a timeout (the default), the cases run in worker
processes: ``workers`` of them at most, each started once and reused for chunk
after chunk (a chunk is ``batch_size`` cases of one job, the adapter class's
attribute: 200 by default, 2000 for the Perl ROUGE, whose every call costs a
process), each building an adapter once per (implementation, metric) and calling
its ``score_cases`` on the chunk.  Idle workers outlive the call and serve the
next one, adapters (and imported libraries) included, so that a caller making
many small calls (the shrinker) does not pay a worker and an import of nltk per
call; ``shutdown_workers()`` stops them, and so does the end of the process.
The line starts with the costliest chunks (``chunks.slow_first``: the Perl
ROUGE's one run of 2,000 cases cannot be split, and started last it ends a
metric alone).  A free worker takes, near the front of the line
(``Pool._task_for``), the chunk whose cases it has scored for the same
implementation, else a chunk of an implementation it has already scored for:
its adapter, imports and memos (pyrouge's one run for every metric of a text)
serve that implementation's other metrics too.  Each worker's library thread
pools get its share of the cores (``sharing_cores``).
A chunk that does not finish within ``timeout`` seconds of the call's start
(the clock starts once the worker has its adapter, see below) has its worker
killed (with its process group, so that a Perl child dies too); a chunk whose worker
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
"""

from __future__ import annotations

import itertools
import math
import os
import pickle
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection, wait
from pathlib import Path

from metricdiff.scoring.chunks import chunks_of, cost_of, slow_first
from metricdiff.scoring.jobs import CRASH, SETUP_TIMEOUT, TIMEOUT, CaseResult, Job, OnResult
from metricdiff.scoring.outcomes import Outcomes
from metricdiff.scoring.pool_workers import (
    CasesKey,
    Task,
    Worker,
    death,
    enlist,
    keep_idle,
    stop,
    take_kept,
)
from metricdiff.scoring.validate import describe
from metricdiff.scoring.worker import start_context, without_main_script, worker_main


class Pool:
    """The worker processes of one ``run_jobs`` call, scheduling its chunks."""

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
        self.context = start_context()
        # Compact (``Outcomes``): an audit of a large corpus has millions of them.
        self.results = [Outcomes(len(j.cases)) for j in jobs]
        self.job_failure: dict[int, CaseResult] = {}
        # The costliest chunks first (``slow_first``), in the jobs' order otherwise.
        self.costs = [cost_of(job) for job in jobs]
        ranks = [slow_first(cost) for cost in self.costs]
        self.pending: deque[Task] = deque(sorted(
            (Task(number, chunk) for number, job in enumerate(jobs)
             for chunk in (chunking or chunks_of)(job)),
            key=lambda task: ranks[task.job]))
        #: (job, first index, size) of a chunk -> ``_cases_key``.
        self.cases_keys: dict[tuple[int, int, int], CasesKey] = {}
        self.idle: list[Worker] = take_kept(workers)
        self.busy: dict[Connection, Worker] = {}

    def run(self) -> list[Outcomes]:
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
        assert all(row.complete() for row in self.results)
        return self.results

    # -- scheduling ----------------------------------------------------------

    def _dispatch(self) -> None:
        while self.pending and len(self.busy) < self.workers:
            if self.pending[0].job in self.job_failure:
                task = self.pending.popleft()
                self._fill(task, self.job_failure[task.job])
                continue
            worker = self.idle.pop() if self.idle else self._start()
            found = self._task_for(worker)
            if found is None:  # all it could take, a busy worker is running now
                self.idle.append(worker)
                return
            task = found
            job = self.jobs[task.job]
            worker.served.add(job.impl)
            message = (
                sharing_cores(os.environ if self.environ is None else self.environ,
                              self.workers),
                list(sys.path) if self.sys_path is None else self.sys_path,
                os.getcwd(),  # a relative python:/cmd: path means the caller's folder
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

    def _task_for(self, worker: Worker) -> Task | None:
        """The next task for ``worker``, taken out of ``pending``: among the first
        ``AFFINITY_LOOKAHEAD``, the first whose cases it has scored for the same
        implementation (another metric's), else the first of an implementation
        it has served whose cases no other worker has scored, else the first of
        an implementation no other worker has served, else the first whose cases
        no other worker has scored, else the first -- and last of all a chunk
        whose cases another worker remembers for every metric (pyrouge's Perl
        run per text, ``Cost.remembers_every_metric``), which costs a whole run
        here and nothing there.  A worker that scored one metric of an
        implementation has its library imported, its adapter built and its
        memos filled, so the implementation's next metrics go to it where they
        can, each chunk of cases to the worker that remembers them; a worker
        free while that one is busy takes what nobody remembers first.  None
        when all it could take is such a chunk whose run another worker is
        making now, which that worker then answers from its memo (``compare``
        ran pyrouge's check of 198 segments, 2.1 CPU-s, in both workers)."""
        others = [w for w in (*self.idle, *self.busy.values()) if w is not worker]
        ahead = list(itertools.islice(self.pending, AFFINITY_LOOKAHEAD))
        keys = [self._cases_key(task) for task in ahead]

        def preference(place: int) -> int:  # lowest first
            key = keys[place]
            impl = key[0]
            if key in worker.cases_served:
                return 0
            if impl in worker.served and not any(key in w.cases_served for w in others):
                return 1
            if not any(impl in w.served for w in others):
                return 2
            if not any(key in w.cases_served for w in others):
                return 3
            # Another worker remembers these cases: here they cost what they cost
            # the first time, a whole run of every metric for some (pyrouge).
            return 5 if self.costs[ahead[place].job].remembers_every_metric else 4

        place = min(range(len(keys)), key=lambda i: (preference(i), i))
        if preference(place) == 5 and any(
                w.task is not None and self._cases_key(w.task) == keys[place]
                for w in self.busy.values() if w is not worker):
            return None
        task = ahead[place]
        del self.pending[place]
        worker.cases_served.add(keys[place])
        return task

    def _cases_key(self, task: Task) -> CasesKey:
        """The task's implementation, its job's label and a digest of its cases:
        the same for the same cases of another metric (the audit's metrics share
        their cases and their chunks), remembered for each task.  The label
        tells apart two participants of one implementation on the same cases
        (``rouge155`` and ``rouge155+stemmed``): each one's memo is in the
        worker that scored it, and a chunk of the other profile there finds
        nothing (the ROUGE-1.5.5 script's run for every metric of a text then
        ran twice, 60 CPU-s of the main job).  An implementation whose memos
        serve every profile (the reference's, ``Cost.remembers_every_profile``)
        has one key for all its jobs: its chunks of the same cases under
        another participant's profile go to the same worker."""
        place = (task.job, task.indices[0], len(task.indices))
        key = self.cases_keys.get(place)
        if key is None:
            job = self.jobs[task.job]
            try:
                digest = hash(tuple(job.cases[i] for i in task.indices))
            except TypeError:  # a caller's cases in lists: this chunk's own key
                digest = hash(place)
            label = "" if self.costs[task.job].remembers_every_profile else job.label
            key = self.cases_keys[place] = (job.impl, label, digest)
        return key

    def _start(self) -> Worker:
        parent, child = self.context.Pipe(duplex=True)
        life_r, life_w = self.context.Pipe(duplex=False)
        scratch = Path(tempfile.mkdtemp(prefix="metricdiff-worker-"))
        process = self.context.Process(target=worker_main, args=(child, life_r, str(scratch)),
                                       name="metricdiff-worker", daemon=False)
        with without_main_script():
            process.start()
        child.close()
        life_r.close()
        return enlist(Worker(process, parent, life_w, scratch))

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

    def _receive(self, worker: Worker) -> None:
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

    def _died(self, worker: Worker) -> None:
        task, ready = worker.task, worker.ready
        self._discard(worker)
        how = death(worker.process)
        worker.kill()  # whatever it left running in its process group
        assert task is not None
        if not ready:
            self._fail_job(
                task, CaseResult(CRASH, None, f"{how} while setting up the adapter")
            )
        else:
            self._retry_or_record(task, CaseResult(CRASH, None, how))

    def _timed_out(self, worker: Worker) -> None:
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

    def _retry_or_record(self, task: Task, outcome: CaseResult) -> None:
        """A chunk that failed as a whole: its cases one by one; a single case
        that failed: that is its outcome."""
        if len(task.indices) == 1:
            self._fill(task, outcome)
        else:
            self.pending.extendleft(
                Task(task.job, (index,)) for index in reversed(task.indices)
            )

    def _fail_job(self, task: Task, outcome: CaseResult) -> None:
        self.job_failure.setdefault(task.job, outcome)
        self._fill(task, self.job_failure[task.job])

    def _fill(self, task: Task, outcome: CaseResult) -> None:
        for index in task.indices:
            self._set(task.job, index, outcome)

    def _set(self, job: int, index: int, outcome: CaseResult) -> None:
        first = self.results[job].get(index) is None
        self.results[job].set(index, outcome)
        if first and self.on_result is not None:
            self.on_result(job, index, outcome)

    # -- workers -------------------------------------------------------------

    def _release(self, worker: Worker) -> None:
        self.busy.pop(worker.conn, None)
        worker.task, worker.ready, worker.deadline = None, False, math.inf
        self.idle.append(worker)

    def _discard(self, worker: Worker) -> None:
        self.busy.pop(worker.conn, None)

    def _shutdown(self, keep: bool) -> None:
        """Keep the idle workers for the next call (``keep``) or stop them; kill
        the busy ones (there are some only after an exception)."""
        if keep:
            keep_idle(self.idle)
        else:
            stop(self.idle)
        for worker in list(self.busy.values()):
            worker.kill()
        self.idle = []
        self.busy.clear()


#: How far down the pending chunks a worker looks for one of an implementation it
#: has served (``Pool._task_for``).
AFFINITY_LOOKAHEAD = 64


#: The thread pools of the libraries implementations run on (OpenMP: fast-bleu's
#: C++ code, torch; the BLAS under numpy; Rust's rayon), sized by these variables.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "RAYON_NUM_THREADS")


def sharing_cores(environ: Mapping[str, str], workers: int) -> dict[str, str]:
    """``environ`` with each library thread pool the user has not sized given
    the worker's share of the cores.  Unsized, each worker's pools take every
    core, and threads that wait by spinning take them from the other workers:
    two workers each running fast-bleu (an OpenMP region per sentence) spent
    2-12 s on 300 sentences that take 0.1 s alone."""
    share = str(max(1, _cores() // max(1, workers)))
    return {**dict.fromkeys(THREAD_VARIABLES, share), **environ}


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may run on
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _poll(conn: Connection) -> bool:
    try:
        return conn.poll(0)
    except (OSError, EOFError):
        return True  # recv will report the death

"""Running implementations so that nothing they do can stop an audit.

An implementation may raise, hang, return NaN or a recall of 1.3, or kill its
process (a segfault, ``os._exit``, the OOM killer).  Each of these becomes a
recorded outcome of the cases it hit -- a ``CaseResult`` with status ``crash``,
``timeout`` or ``invalid-output`` -- and every other case keeps its result.

``run_jobs`` takes ``Job``s (one implementation, one metric, one profile, many
cases, each case scored as a corpus) and returns one ``CaseResult`` per case, in
the order given, whatever the scheduling.

Process model.  With a timeout (the default), the cases run in worker
processes (``pool.py``; how they start and what they run: ``worker.py``),
reused from call to call, with per-call deadlines; a chunk that hangs, dies or
raises as a whole is retried case by case, so that only the cases that
misbehave are lost.

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

from collections.abc import Mapping, Sequence
from typing import Literal, overload

from metricdiff import limits
from metricdiff.scoring.cache import active as active_cache
from metricdiff.scoring.chunks import chunks_of, run_in_process
from metricdiff.scoring.jobs import CaseResult, Executor, Job, OnResult
from metricdiff.scoring.outcomes import Outcomes
from metricdiff.scoring.pool import Pool
from metricdiff.scoring.pool_workers import shutdown_workers as _stop_kept

# --------------------------------------------------------------------------
# For an Executor that sends chunks to other machines


def chunks(job: Job) -> list[tuple[int, ...]]:
    """The indices of ``job``'s cases, chunk by chunk, as ``run_jobs`` sends them."""
    return chunks_of(job)


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
    pool = Pool([job], 1, timeout, environ=environ, sys_path=sys_path,
                chunking=lambda whole: [tuple(range(len(whole.cases)))] if whole.cases else [])
    [results] = pool.run()
    return list(results), pool.job_failure.get(0)


# --------------------------------------------------------------------------


@overload
def run_jobs(
    jobs: Sequence[Job], *, workers: int = 1, timeout: float | None = 60.0,
    on_result: OnResult | None = None, executor: Executor | None = None,
    compact: Literal[False] = False,
) -> list[list[CaseResult]]: ...


@overload
def run_jobs(
    jobs: Sequence[Job], *, workers: int = 1, timeout: float | None = 60.0,
    on_result: OnResult | None = None, executor: Executor | None = None,
    compact: bool,
) -> list[Sequence[CaseResult]]: ...


def run_jobs(
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    timeout: float | None = 60.0,
    on_result: OnResult | None = None,
    executor: Executor | None = None,
    compact: bool = False,
) -> list[list[CaseResult]] | list[Sequence[CaseResult]]:
    """Every case of every job scored: one sequence per job, one ``CaseResult``
    per case, in input order (a list; with ``compact`` and worker processes, an
    ``outcomes.Outcomes``, which holds a large corpus's results in a fraction of
    the memory).  ``timeout`` is per ``score_cases`` call (a chunk, then
    a single case on retry); ``workers`` the number of worker processes.  With
    ``timeout=None`` and one worker the jobs run in this process (see the
    module's docstring for what that gives up).

    ``on_result(job_index, case_index, result)``, if given, is called in this
    process once per case, as soon as the case has its final outcome (when its
    chunk completes, in completion order, not input order); an exception it
    raises stops the run and propagates.

    ``executor``, if given, runs the jobs instead of this machine's worker
    processes (``executors.RayExecutor``), with the same results.

    With a score cache active (``cache.using``: ``--cache DIR``), the outcomes it
    holds are not scored again: ``on_result`` gets them first, and what is
    scored is stored in it."""
    try:
        workers = limits.whole_number(workers, 1, limits.MAX_JOBS)
    except ValueError as error:
        raise ValueError(f"workers {error}") from None
    if timeout is not None:
        try:
            timeout = limits.seconds(timeout)
        except ValueError as error:
            raise ValueError(f"timeout {error}") from None
    jobs = list(jobs)
    cache = active_cache()
    if cache is not None:  # --cache: the peers' answers it has are not asked again
        def rest(pending: Sequence[Job], hook: OnResult | None) -> list[Sequence[CaseResult]]:
            return _run(pending, workers, timeout, hook, executor)

        rows = cache.run(jobs, rest, on_result)
        if compact:
            return [_compacted(row) for row in rows]
        return [[outcome for outcome in row if outcome is not None] for row in rows]
    done = _run(jobs, workers, timeout, on_result, executor)
    if compact:
        return done
    return [list(row) for row in done]


def _compacted(row: Sequence[CaseResult | None]) -> Sequence[CaseResult]:
    kept = Outcomes(len(row))
    for index, outcome in enumerate(row):
        assert outcome is not None
        kept.set(index, outcome)
    return kept


def _run(jobs: Sequence[Job], workers: int, timeout: float | None, on_result: OnResult | None,
         executor: Executor | None) -> list[Sequence[CaseResult]]:
    """``run_jobs`` without the cache."""
    if executor is not None:
        return list(executor.run(jobs, workers, timeout, on_result))
    if timeout is None and workers == 1:
        return [run_in_process(job, on_result, number) for number, job in enumerate(jobs)]
    return list(Pool(jobs, workers, timeout, on_result).run())


def shutdown_workers() -> None:
    """Stop the worker processes kept for later ``run_jobs`` calls."""
    _stop_kept()


__all__ = ["chunks", "run_chunk_here", "run_jobs", "shutdown_workers"]

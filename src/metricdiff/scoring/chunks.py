"""A job cut into chunks, a chunk scored by an adapter and judged, and jobs run
chunk by chunk in this process (``run_jobs`` with ``timeout=None`` and one
worker).  What a worker process runs is ``score_chunk`` on an adapter it built
with ``build_adapter``."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from metricdiff.cases.case import Sample
from metricdiff.errors import (
    AdapterUnavailable,
    CommandTimedOut,
    InvalidOutput,
    UnsupportedOption,
)
from metricdiff.impls import AnyAdapter, get_adapter
from metricdiff.impls.base import Adapter
from metricdiff.impls.declarations import Cost
from metricdiff.profiles.metrics import Options
from metricdiff.scoring.jobs import CRASH, INVALID, OK, TIMEOUT, CaseResult, Job, OnResult, Raised
from metricdiff.scoring.validate import describe, message_of, validate
from metricdiff.statistics import BleuResult, RougeResult


def judge(value: object) -> CaseResult:
    """One of ``score_cases``'s outcomes as a ``CaseResult``."""
    if isinstance(value, InvalidOutput):  # it answered, but not with a score
        return CaseResult(INVALID, None, describe(value))
    if isinstance(value, CommandTimedOut):  # its own time limit, a hang not a crash
        return CaseResult(TIMEOUT, None, describe(value))
    if isinstance(value, BaseException):
        return CaseResult(CRASH, None, describe(value), raised_by(value))
    problem = validate(value)
    if problem is not None:
        return CaseResult(INVALID, None, problem)
    assert isinstance(value, (BleuResult, RougeResult))
    return CaseResult(OK, value)


def raised_by(error: BaseException) -> Raised:
    unsupported = isinstance(error, (UnsupportedOption, AdapterUnavailable))
    return Raised(type(error).__name__, message_of(error), unsupported)


def adapter_class(impl: str, metric: str, adapter_path: str | None) -> type[AnyAdapter]:
    if adapter_path is None:
        return type(get_adapter(impl, metric))
    module_name, _, class_name = adapter_path.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, Adapter)):
        raise TypeError(f"{adapter_path} is not an Adapter class")
    return cls


def build_adapter(impl: str, metric: str, adapter_path: str | None) -> AnyAdapter:
    adapter = adapter_class(impl, metric, adapter_path)()
    adapter.ensure_available()
    return adapter


def cost_of(job: Job) -> Cost:
    """What the job's adapter class declares running it costs (a default where
    it declares nothing usable: a user's class may set anything)."""
    try:
        cost = adapter_class(job.impl, job.metric, job.adapter_path).cost
    except Exception:  # the worker will report why the adapter cannot be built
        return Adapter.cost
    return cost if isinstance(cost, Cost) else Adapter.cost


def _batch_size(job: Job) -> int:
    try:
        size = int(cost_of(job).batch_size)
    except (TypeError, ValueError):
        size = Adapter.cost.batch_size
    return max(1, size)


def slow_first(cost: Cost) -> int:
    """Where the chunks of a job of this ``cost`` go in the line, lowest first:
    an implementation that runs a process per call (the Perl ROUGE: a chunk of
    2,000 cases in one run, 25 s that cannot be split), then one declared costly
    per case, then the rest.  Started last, one such chunk ran alone while the
    other workers sat idle (16 s of one metric's scoring in the main job)."""
    if cost.process_per_call:
        return 0
    if cost.process_per_case or cost.audit_generated_cases is not None:
        return 1
    return 2


def chunks_of(job: Job, batch_size: int | None = None) -> list[tuple[int, ...]]:
    """The indices of ``job``'s cases, chunk by chunk: ``batch_size`` at a time
    (default: its adapter class's)."""
    size = _batch_size(job) if batch_size is None else max(1, batch_size)
    return [
        tuple(range(start, min(start + size, len(job.cases))))
        for start in range(0, len(job.cases), size)
    ]


def score_chunk(
    adapter: AnyAdapter, metric: str, options: Options, cases: Sequence[Sample]
) -> list[CaseResult]:
    """``score_cases`` on ``cases``, judged; raises if it raises or miscounts."""
    outcomes = adapter.score_cases(metric, cases, options)
    if len(outcomes) != len(cases):
        raise RuntimeError(
            f"score_cases returned {len(outcomes)} outcomes for {len(cases)} cases"
        )
    return [judge(value) for value in outcomes]


# --------------------------------------------------------------------------
# In this process (timeout=None, one worker)


def run_in_process(job: Job, on_result: OnResult | None = None, number: int = 0,
                   adapter: AnyAdapter | None = None) -> list[CaseResult]:
    """``job`` scored in this process, by ``adapter`` if given (else one built
    for it), a chunk at a time; a chunk that raises as a whole is scored again
    case by case."""
    results: list[CaseResult] = []

    def report() -> None:  # the cases that have just got their outcome
        if on_result is not None:
            while reported[0] < len(results):
                on_result(number, reported[0], results[reported[0]])
                reported[0] += 1

    reported = [0]
    try:
        if adapter is None:
            adapter = build_adapter(job.impl, job.metric, job.adapter_path)
    except Exception as error:
        failure = CaseResult(CRASH, None, describe(error))
        results.extend([failure] * len(job.cases))
        report()
        return results
    for chunk in chunks_of(job, adapter.cost.batch_size):
        cases = [job.cases[i] for i in chunk]
        try:
            results.extend(score_chunk(adapter, job.metric, job.options, cases))
            report()
            continue
        except (Exception, SystemExit) as error:
            if len(cases) == 1:
                results.append(CaseResult(CRASH, None, describe(error)))
                report()
                continue
        for case in cases:  # the chunk raised as a whole: one by one
            try:
                results.extend(score_chunk(adapter, job.metric, job.options, [case]))
            except (Exception, SystemExit) as error:
                results.append(CaseResult(CRASH, None, describe(error)))
            report()
    return results

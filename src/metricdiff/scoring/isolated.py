"""The one way metricdiff scores: every command and the Python API call
``score_cases`` (or ``score_requests``, many at once), never an adapter's
``corpus_score`` directly.

Every implementation but the reference runs in a worker process (``pool.py``)
with a per-call timeout, and what it returns is validated (``validate.py``).  A
crash, a hang or an invalid result (NaN, a recall of 1.3) becomes a
``CaseResult`` whose status is ``crash``, ``timeout`` or ``invalid-output``:
never an exception here, a hung command, or a dead metricdiff (or pytest run).
Each command gives these statuses the same meaning: a ``crash`` outcome in
``check``, a lock entry refused in ``snapshot``, a failure in ``verify`` and in
the pytest plugin.

The reference is metricdiff's own code and a pure function of its arguments:
it scores in this process, where isolation would only cost (the explainer calls
it thousands of times); its results are validated all the same.

A worker builds the adapter again rather than receive it: from its class when
``module:Class`` imports back to it (a peer, an entry point's adapter, a test's
fake), else by its name (a user's ``python:``/``cmd:`` spec, whose class is made
at run time).  So an adapter passed here must be constructible without
arguments, as every adapter of the registry is.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from metricdiff import limits
from metricdiff.cases.case import Sample
from metricdiff.impls import AnyAdapter, get_adapter
from metricdiff.impls.base import References
from metricdiff.impls.reference.adapter import (
    ReferenceAdapter,
    ReferenceBleuAdapter,
    ReferenceRougeAdapter,
)
from metricdiff.profiles.metrics import Options
from metricdiff.scoring.chunks import judge, run_in_process
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import CaseResult, Job

#: Seconds one ``score_cases`` call of an implementation may take (a chunk of
#: cases, then each of its cases alone if the chunk fails), as ``audit --timeout``.
DEFAULT_TIMEOUT = 120.0

#: The adapters that score in this process: metricdiff's own reference.  Exact
#: classes, not subclasses: a subclass is someone else's code.
IN_PROCESS = (ReferenceBleuAdapter, ReferenceRougeAdapter)


@attrs.frozen
class Request:
    """Cases to score with one implementation (an adapter, or its name), one
    metric and one profile (``options``; None: the adapter's declared one)."""

    adapter: AnyAdapter | str
    metric: str
    cases: Sequence[Sample]
    options: Options | None = None


@attrs.define
class _Group:
    """Requests for one implementation, metric and profile: one job."""

    adapter: AnyAdapter
    metric: str
    options: Options
    cases: list[Sample] = attrs.Factory(list)

    @property
    def in_process(self) -> bool:
        return type(self.adapter) in IN_PROCESS

    def job(self) -> Job:
        # A worker gets the class as module:Class; the reference needs none.
        path = None if self.in_process else importable_path(type(self.adapter))
        return Job(self.adapter.name, self.metric, self.options, self.cases, adapter_path=path)


def score_requests(
    requests: Sequence[Request], *, timeout: float = DEFAULT_TIMEOUT, workers: int = 1,
    scored: Callable[[int, int], None] | None = None,
) -> list[list[CaseResult]]:
    """Each request's cases scored, each case as a corpus: one ``CaseResult`` per
    case, in order.  ``timeout`` (seconds) bounds each call of an implementation
    in its worker process; ``workers`` processes score at once.  Requests for the
    same implementation, metric and profile are scored as one job, so that many
    small requests cost few calls.  ``scored(request, case)``, if given, is
    called as each case scored in a worker process comes back, with the numbers
    of its request and of the case in it (a progress line)."""
    try:
        timeout = limits.seconds(timeout)
    except ValueError as error:  # 0, nan, 1e300
        raise ValueError(f"timeout {error}") from None
    numbers: dict[tuple[Any, ...], int] = {}  # (class, name, metric, options) -> group
    groups: list[_Group] = []
    places: list[tuple[int, int, int]] = []  # each request's group, first case, count
    for request in requests:
        adapter = _adapter(request)
        options = request.options
        if options is None:
            options = adapter.options(request.metric)
        number = numbers.setdefault((type(adapter), adapter.name, request.metric, options),
                                    len(groups))
        if number == len(groups):
            groups.append(_Group(adapter, request.metric, options))
        places.append((number, len(groups[number].cases), len(request.cases)))
        groups[number].cases.extend(request.cases)
    results = [run_in_process(g.job(), adapter=g.adapter) if g.in_process else []
               for g in groups]
    away = [number for number, group in enumerate(groups) if not group.in_process]
    # Each group's cases as (request, case in it), for ``scored``.
    owners: list[list[tuple[int, int]]] = [[] for _ in groups]
    for request_number, (number, _, count) in enumerate(places):
        owners[number].extend((request_number, case) for case in range(count))

    def came_back(job: int, case: int, _: CaseResult) -> None:
        assert scored is not None
        scored(*owners[away[job]][case])

    if away:
        isolated = run_jobs([groups[n].job() for n in away], workers=workers, timeout=timeout,
                            on_result=None if scored is None else came_back)
        for number, outcomes in zip(away, isolated, strict=True):
            results[number] = outcomes
    return [results[number][first:first + count] for number, first, count in places]


def score_cases(
    adapter: AnyAdapter | str,
    metric: str,
    cases: Sequence[Sample],
    options: Options | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> list[CaseResult]:
    """Each of ``cases`` (hypotheses, each segment's references) scored as a
    corpus by ``adapter`` under ``options`` (default: its declared profile)."""
    [results] = score_requests([Request(adapter, metric, cases, options)], timeout=timeout)
    return results


def score(
    adapter: AnyAdapter | str,
    metric: str,
    hyps: Sequence[str],
    refs: References,
    options: Options | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> CaseResult:
    """The corpus score of ``hyps`` against each segment's ``refs``."""
    if not isinstance(adapter, str) and type(adapter) in IN_PROCESS and options is not None:
        # The explainer's many calls: the reference's answer judged, and nothing
        # else (score_requests' grouping and chunking have nothing to do here).
        try:
            return judge(adapter.corpus_score(metric, hyps, refs, options))
        except Exception as error:  # the reference refuses the configuration
            return judge(error)
    case = (tuple(hyps), tuple(tuple(segment) for segment in refs))
    [result] = score_cases(adapter, metric, [case], options, timeout=timeout)
    return result


def score_profiles(
    adapter: ReferenceAdapter,
    metric: str,
    hyps: Sequence[str],
    refs: References,
    profiles: Sequence[Options],
) -> list[CaseResult]:
    """The reference's corpus score of ``hyps`` under each of ``profiles``, as
    ``score`` gives it profile by profile: the explainer's and the attribution's
    many profiles of one large corpus, scored in one pass where the reference
    can share the work (``corpus_scores``)."""
    return [judge(outcome)
            # each family's reference takes its own options: the union cannot say so
            for outcome in adapter.corpus_scores(metric, hyps, refs, profiles)]  # type: ignore[arg-type]


def _adapter(request: Request) -> AnyAdapter:
    if isinstance(request.adapter, str):
        return get_adapter(request.adapter, request.metric)
    return request.adapter


@functools.cache
def importable_path(cls: type) -> str | None:
    """``module:Class`` if a fresh interpreter importing it gets ``cls`` back
    (its module imports and names it), else None (a class made at run time)."""
    if "." in cls.__qualname__ or "<" in cls.__qualname__:
        return None
    try:
        found = getattr(importlib.import_module(cls.__module__), cls.__qualname__, None)
    except Exception:  # a module that cannot be imported again
        return None
    return f"{cls.__module__}:{cls.__qualname__}" if found is cls else None


__all__ = [
    "DEFAULT_TIMEOUT",
    "IN_PROCESS",
    "Request",
    "importable_path",
    "score",
    "score_cases",
    "score_requests",
]

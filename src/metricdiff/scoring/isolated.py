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
import itertools
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
from metricdiff.impls.text.lost_input import emptied
from metricdiff.profiles.metrics import Options
from metricdiff.scoring.chunks import judge, run_in_process
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import CaseResult, Job

#: One segment of a corpus: its hypothesis and its references.
Segment = tuple[str, Sequence[str | None]]

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
    scored: Callable[[], None] | None = None,
) -> list[list[CaseResult]]:
    """Each request's cases scored, each case as a corpus: one ``CaseResult`` per
    case, in order.  ``timeout`` (seconds) bounds each call of an implementation
    in its worker process; ``workers`` processes score at once.  Requests for the
    same implementation, metric and profile are scored as one job, so that many
    small requests cost few calls.  ``scored``, if given, is called as each case
    scored in a worker process comes back (a progress line)."""
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
    if away:
        isolated = run_jobs([groups[n].job() for n in away], workers=workers, timeout=timeout,
                            on_result=None if scored is None else lambda *_: scored())
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


def with_segment_named(requests: Sequence[Request], outcomes: Sequence[CaseResult], *,
                       timeout: float = DEFAULT_TIMEOUT, workers: int = 1) -> list[CaseResult]:
    """``outcomes`` (one per request, each of one corpus case) with each crash the
    implementation raised on a corpus of several segments told where: the error
    names a segment that raises the same exception alone (``EOFError: ...
    (segment 3 raises it alone)``), or says that none does.  A refusal
    (``UnsupportedOption``) and an outcome that is not the implementation's own
    exception (a dead process, a hang) are left as they are.

    The segment is first looked for where it most often is: the first one the
    implementation's tokenizer empties (``_suspected``), checked alone and
    against the segments before it in one round for every request.  Failing
    that, it is found by narrowing (``_narrowed``), not by scoring each
    segment alone, which matters for an implementation that starts a process
    per call (pyrouge runs ROUGE-1.5.5.pl: 500 segments alone took a minute).
    Where the narrowing finds no piece that raises (the exception needs
    segments together), every segment is scored alone.  It is made once for the
    metrics on which an implementation raised the same error on corpora of as
    many segments (the same text, which ROUGE-Lsum reads by sentences), and the
    segment it finds is checked alone for each of the others, narrowed for its
    own where it does not raise."""
    wanted = [i for i, (request, outcome) in enumerate(zip(requests, outcomes, strict=True))
              if outcome.raised is not None and not outcome.raised.unsupported
              and len(request.cases) == 1 and len(request.cases[0][0]) > 1]
    if not wanted:
        return list(outcomes)
    segments: dict[int, list[Segment]] = {
        i: list(zip(*requests[i].cases[0], strict=True)) for i in wanted}

    def raising(asked: dict[int, list[Sample]]) -> dict[int, list[bool]]:
        """Whether each of the cases asked of request i raises its exception."""
        if not asked:
            return {}
        found = score_requests([attrs.evolve(requests[i], cases=cases)
                                for i, cases in asked.items()],
                               timeout=timeout, workers=workers)
        return {i: [_same_exception(outcomes[i], outcome) for outcome in case_outcomes]
                for i, case_outcomes in zip(asked, found, strict=True)}

    # ROUGE-1.5.5 dies on the same segment for each ROUGE metric, each a request.
    same = {i: (_name(requests[i]), len(segments[i]), outcomes[i].error) for i in wanted}
    leader: dict[tuple[object, ...], int] = {}
    for i in wanted:
        leader.setdefault(same[i], i)
    named: dict[int, int | None] = dict(_suspected(
        segments, {i: requests[i].options for i in wanted}, raising))
    named.update(_narrowed({i: segments[i] for i in leader.values() if i not in named},
                           raising))
    others = {i: named[leader[same[i]]] for i in wanted if i not in named}
    checked = raising({i: [_corpus(segments[i][n - 1:n])]
                       for i, n in others.items() if n is not None})
    named.update({i: n for i, n in others.items() if n is not None and checked[i][0]})
    named.update(_narrowed({i: segments[i] for i in wanted if i not in named}, raising))
    unnamed = [i for i in wanted if named.get(i) is None]
    if unnamed:
        every = raising({i: [_corpus([segment]) for segment in segments[i]] for i in unnamed})
        named.update({i: next((n for n, hit in enumerate(every[i], 1) if hit), None)
                      for i in unnamed})
    located = list(outcomes)
    for i, first in named.items():
        where = ("no segment raises it alone" if first is None
                 else f"segment {first} raises it alone")
        located[i] = attrs.evolve(outcomes[i], error=f"{outcomes[i].error} ({where})")
    return located


def _suspected(segments: dict[int, list[Segment]], options: dict[int, Options | None],
               raising: Callable[[dict[int, list[Sample]]], dict[int, list[bool]]]
               ) -> dict[int, int]:
    """For each corpus whose first suspect raises alone while the segments
    before it, as one corpus, do not: that suspect (1-based).  The suspect is
    the first segment whose hypothesis or a reference the request's tokenizer
    empties (``emptied``: Russian text under ROUGE-1.5.5's ASCII tokenizer).
    One round for every corpus at once, where narrowing takes log4(n); a corpus
    with no suspect, or whose suspect is not the one, is left to ``_narrowed``."""
    suspects = {i: n for i, n in ((i, _first_emptied(pieces, options[i]))
                                  for i, pieces in segments.items()) if n is not None}
    answers = raising({i: [_corpus(segments[i][n - 1:n]), *(
        [_corpus(segments[i][:n - 1])] if n > 1 else [])] for i, n in suspects.items()})
    return {i: n for i, n in suspects.items() if answers[i][0] and not any(answers[i][1:])}


def _first_emptied(segments: Sequence[Segment], options: Options | None) -> int | None:
    """The first segment (1-based) whose hypothesis or a reference the
    tokenizer of ``options`` empties; None without options (the adapter's
    declared profile, not known here)."""
    if options is None:
        return None
    return next((n for n, (hyp, refs) in enumerate(segments, 1)
                 if any(text is not None and emptied(options.tokenize, text)
                        for text in (hyp, *refs))), None)


#: Into how many pieces ``_narrowed`` cuts a corpus each round: more pieces, fewer
#: rounds and fewer segments scored, but more calls.
PIECES = 4


def _narrowed(segments: dict[int, list[Segment]],
              raising: Callable[[dict[int, list[Sample]]], dict[int, list[bool]]]
              ) -> dict[int, int | None]:
    """For each corpus (``segments`` of request i), a segment that raises alone
    (1-based; None if narrowing finds none): each round cuts the corpus in
    ``PIECES``, scores each piece as a corpus of its own (``raising``; every
    request's pieces at once) and keeps the first that raises, down to one
    segment.  Scored so are about 4/3 of the corpus's segments, in
    log4(n) rounds; where the exception comes of one segment, it is the first."""
    blocks = {i: (0, len(pieces)) for i, pieces in segments.items()}
    named: dict[int, int | None] = {}
    while blocks:
        cuts = {i: _cut(*block) for i, block in blocks.items()}
        answers = raising({i: [_corpus(segments[i][start:end]) for start, end in cut]
                           for i, cut in cuts.items()})
        for i, cut in cuts.items():
            hit = next((piece for piece, hits in zip(cut, answers[i], strict=True) if hits),
                       None)
            if hit is None or hit[1] - hit[0] == 1:
                named[i] = None if hit is None else hit[1]
                del blocks[i]
            else:
                blocks[i] = hit
    return named


def _cut(start: int, end: int) -> list[tuple[int, int]]:
    """``range(start, end)`` in ``PIECES`` pieces (fewer if it is shorter), as even as
    can be."""
    count = min(PIECES, end - start)
    bounds = [start + (end - start) * k // count for k in range(count + 1)]
    return list(itertools.pairwise(bounds))


def _name(request: Request) -> str:
    """The implementation a request runs, by name."""
    return request.adapter if isinstance(request.adapter, str) else request.adapter.name


def _corpus(segments: Sequence[Segment]) -> Sample:
    """Segments (hypothesis, its references) as one case."""
    return (tuple(hyp for hyp, _ in segments), tuple(tuple(refs) for _, refs in segments))


def _same_exception(crashed: CaseResult, outcome: CaseResult) -> bool:
    """Whether ``outcome`` raised the exception ``crashed`` did (by its type)."""
    assert crashed.raised is not None
    return outcome.raised is not None and outcome.raised.type == crashed.raised.type


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
    "with_segment_named",
]

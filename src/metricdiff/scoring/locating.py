"""Which segment of a corpus raises an implementation's exception
(``with_segment_named``): a crash on a corpus of several segments told where,
found by scoring pieces of the corpus (``isolated.score_requests``); and
``score_in_workers``, jobs of one corpus case each scored so."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Mapping, Sequence

import attrs

from metricdiff.cases.case import Sample
from metricdiff.impls.text.lost_input import emptied
from metricdiff.profiles.metrics import Options
from metricdiff.scoring.isolated import DEFAULT_TIMEOUT, Request, score_requests
from metricdiff.scoring.jobs import CaseResult, Job

#: One segment of a corpus: its hypothesis and its references.
Segment = tuple[str, Sequence[str | None]]


#: A case already scored for the request of that number, and its outcome.
Known = Mapping[tuple[int, Sample], CaseResult]


def with_segment_named(requests: Sequence[Request], outcomes: Sequence[CaseResult], *,
                       timeout: float = DEFAULT_TIMEOUT, workers: int = 1,
                       known: Known | None = None) -> list[CaseResult]:
    """``outcomes`` (one per request, each of one corpus case) with each crash the
    implementation raised on a corpus of several segments told where: the error
    names a segment that raises the same exception alone (``EOFError: ...
    (segment 3 raises it alone)``), or says that none does.  A refusal
    (``UnsupportedOption``) and an outcome that is not the implementation's own
    exception (a dead process, a hang) are left as they are.

    The segment is first looked for where it most often is: the first one the
    implementation's tokenizer empties (``_suspected``), checked alone, in one
    round for every request.  Failing that, it is found by narrowing
    (``_narrowed``), not by scoring each segment alone, which matters for an
    implementation that starts a process per call (pyrouge runs ROUGE-1.5.5.pl:
    500 segments alone took a minute).  Where the narrowing finds no piece that
    raises (the exception needs segments together), every segment is scored
    alone.  It is made once for the metrics on which an implementation raised
    the same error on corpora of as many segments (the same text, which
    ROUGE-Lsum reads by sentences), and the segment it finds is checked alone
    for each of the others, narrowed for its own where it does not raise.

    ``known``: cases scored already (with the corpus, where the caller foresaw
    the crash: ``first_checks``), not scored again."""
    done = known or {}
    wanted = [i for i, (request, outcome) in enumerate(zip(requests, outcomes, strict=True))
              if outcome.raised is not None and not outcome.raised.unsupported
              and len(request.cases) == 1 and len(request.cases[0][0]) > 1]
    if not wanted:
        return list(outcomes)
    segments: dict[int, list[Segment]] = {
        i: list(zip(*requests[i].cases[0], strict=True)) for i in wanted}

    def raising(asked: dict[int, list[Sample]]) -> dict[int, list[bool]]:
        """Whether each of the cases asked of request i raises its exception."""
        fresh = {i: [case for case in cases if (i, case) not in done]
                 for i, cases in asked.items()}
        fresh = {i: cases for i, cases in fresh.items() if cases}
        found = score_requests([attrs.evolve(requests[i], cases=cases)
                                for i, cases in fresh.items()],
                               timeout=timeout, workers=workers) if fresh else []
        scored = {(i, case): outcome for (i, cases), case_outcomes in zip(
            fresh.items(), found, strict=True) for case, outcome in zip(
                cases, case_outcomes, strict=True)}
        return {i: [_same_exception(outcomes[i], done[(i, case)] if (i, case) in done
                                    else scored[(i, case)]) for case in cases]
                for i, cases in asked.items()}

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


def score_in_workers(jobs: Sequence[Job], workers: int, timeout: float,
                     scored: Callable[[], None] | None = None,
                     foreseen: Collection[int] = ()) -> list[CaseResult]:
    """Each job's one case, scored in worker processes (``score_requests``,
    the one entry point every command uses): a crash, a hang or invalid output
    is the job's outcome, a crash names its segment (``with_segment_named``);
    ``scored`` is called as each job's case comes back.  The jobs in
    ``foreseen`` are expected to crash: the search's first case
    (``first_checks``) goes with its corpus, not after every job."""
    requests = [Request(job.impl, job.metric, job.cases, job.options) for job in jobs]
    checks = {n: first_checks(jobs[n].cases[0], jobs[n].options) for n in foreseen}
    asked = [attrs.evolve(request, cases=[*request.cases, *checks.get(n, [])])
             for n, request in enumerate(requests)]
    found = score_requests(asked, workers=workers, timeout=timeout, scored=None if scored is None
                           else lambda _, case: scored() if case == 0 else None)
    known = {(n, case): outcome for n, cases in checks.items()
             for case, outcome in zip(cases, found[n][1:], strict=True)}
    return with_segment_named(requests, [outcomes[0] for outcomes in found], timeout=timeout,
                              workers=workers, known=known)


def _suspected(segments: dict[int, list[Segment]], options: dict[int, Options | None],
               raising: Callable[[dict[int, list[Sample]]], dict[int, list[bool]]]
               ) -> dict[int, int]:
    """For each corpus whose suspect raises the same exception alone: that
    suspect (1-based).  The suspect is the first segment whose hypothesis or a
    reference the request's tokenizer empties (``emptied``: Russian text under
    ROUGE-1.5.5's ASCII tokenizer), which says why it raises.  One call for
    each corpus, in one round for all of them, where narrowing takes log4(n)
    rounds; a corpus with no suspect, or whose suspect does not raise alone, is
    left to ``_narrowed``.

    The segments before the suspect are not checked: whether one of them raises
    too (for another reason) would change which segment is named, not the truth
    of the name, and checking them cost a run of the implementation on them all
    (pyrouge on 198 of 500 segments: 2.2 CPU-s, where its own run of the corpus
    took 3.7)."""
    suspects = {i: n for i, n in ((i, _first_emptied(pieces, options[i]))
                                  for i, pieces in segments.items()) if n is not None}
    answers = raising({i: [_corpus(segments[i][n - 1:n])] for i, n in suspects.items()})
    return {i: n for i, n in suspects.items() if answers[i][0]}


def first_checks(corpus: Sample, options: Options | None) -> list[Sample]:
    """The case ``with_segment_named`` scores first for an implementation that
    raises on ``corpus`` under ``options`` (``_suspected``): its suspect alone;
    none without a suspect.  A caller that foresees the crash scores it with
    the corpus (``known``), so that the search does not wait for every other
    implementation to finish first."""
    segments = list(zip(*corpus, strict=True))
    if len(segments) < 2:
        return []
    suspect = _first_emptied(segments, options)
    return [] if suspect is None else [_corpus(segments[suspect - 1:suspect])]


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


__all__ = ["Known", "first_checks", "score_in_workers", "with_segment_named"]

"""Several systems ranked under every implementation (``metricdiff rank``): does
"A beats B" survive a change of implementation?

For one metric: every implementation (``comparison.corpus.entrants``: the
reference under the paper's profile and every available implementation under
its declared profile) scores each segment of each system, in worker processes,
once; resampling then works on those segment results alone
(``segment_rows``: statistics where the implementation reports them, else
scores), never running an implementation again.  Each system gets its score and
the scheme's 95% interval, each pair its paired bootstrap and approximate
randomization p-values (``resampling``).

Meanwhile, for each pair of systems, the reference scores both under every
profile between the paper's and each implementation's (the 2^k profiles
``attribution.attribute`` scores for that implementation's gap to the paper, as
``compare`` does), with Δ = system − baseline as the game: the order holds under
a profile when its Δ has the paper's sign.  Where an implementation reverses
the order, its Δ minus the paper's Δ is split by axis (the Shapley values of
that game) plus a residual, ``Δ_impl − Δ_reference-as-impl``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence

from metricdiff.cases.case import Sample
from metricdiff.comparison.attribution import Attribution, attribute
from metricdiff.comparison.corpus import (
    DEFAULT_REPORT,
    REFERENCE,
    Background,
    Entrant,
    ReferenceScorer,
    entrants,
)
from metricdiff.comparison.inert import inert_axes
from metricdiff.conclusions import resampling as rs
from metricdiff.conclusions.ranking import (
    ImplementationRanking,
    MetricRanking,
    PairTest,
    Ranking,
    Reversal,
    Stability,
    SystemScore,
)
from metricdiff.conclusions.segment_rows import Rows, rows_of
from metricdiff.profiles.metrics import Options, family
from metricdiff.scoring import Request, score_requests
from metricdiff.scoring.jobs import CaseResult
from metricdiff.scoring.validate import describe

#: Which paired tests ``--test`` runs.
TESTS = {"bootstrap": (True, False), "ar": (False, True), "both": (True, True)}


def pairs_of(systems: Sequence[str], all_pairs: bool) -> list[tuple[str, str]]:
    """(baseline, system): each against the first (sacrebleu's baseline), or
    every pair in the order given."""
    if all_pairs:
        return list(itertools.combinations(systems, 2))
    return [(systems[0], system) for system in systems[1:]]


def rank_corpus(
    systems: Mapping[str, Mapping[str, Sample]],
    impls: Sequence[str] | None = None,
    *,
    report: str = DEFAULT_REPORT,
    resampling: Mapping[str, rs.Resampling] | None = None,
    test: str = "both",
    all_pairs: bool = False,
    workers: int = 2,
    timeout: float = 120.0,
) -> Ranking:
    """Rank ``systems`` (metric -> system name -> the corpus as that metric reads
    it; the first system is the baseline) under every implementation (or
    ``impls``).  ``resampling``: the scheme per family (``bleu``, ``rouge``;
    default ``resampling.DEFAULTS``); ``test``: ``bootstrap``, ``ar`` or
    ``both``; ``all_pairs``: every pair, not only each against the baseline."""
    if test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)}, not {test!r}")
    schemes = {**rs.DEFAULTS, **(resampling or {})}
    people = {metric: [e for e in entrants(metric, impls, report) if e.options is not None]
              for metric in systems}
    failed = {metric: [e for e in entrants(metric, impls, report) if e.options is None]
              for metric in systems} if impls is not None else {}
    requests, places = _requests(systems, people)
    scored = Background(lambda: score_requests(requests, workers=workers, timeout=timeout))
    stability = {metric: _stability(metric, systems[metric], people[metric], all_pairs)
                 for metric in systems}
    outcomes = dict(zip(places, scored.result(), strict=True))
    ranked = []
    for metric, by_system in systems.items():
        names = tuple(by_system)
        scheme = schemes[family(metric)]
        rows = [_ranking(e, names, outcomes, scheme, TESTS[test], all_pairs)
                for e in people[metric]]
        rows += [ImplementationRanking(e.name, e.signature, error=e.error)
                 for e in failed.get(metric, [])]
        measured = {entry.impl: entry for entry in rows}
        ranked.append(MetricRanking(
            metric, report if family(metric) == "rouge" else None, names, scheme.signature(),
            scheme.trials, tuple(rows),
            tuple(s.finish(measured) for s in stability[metric])))
    return Ranking(tuple(ranked))


def _requests(systems: Mapping[str, Mapping[str, Sample]], people: Mapping[str, list[Entrant]]
              ) -> tuple[list[Request], list[tuple[str, str, str]]]:
    """One request per metric, implementation and system: each segment a case of
    its own (as ``score --sentences`` scores them)."""
    requests, places = [], []
    for metric, by_system in systems.items():
        for entrant in people[metric]:
            for system, (hyps, refs) in by_system.items():
                cases = [((hyp,), (tuple(seg),)) for hyp, seg in zip(hyps, refs, strict=True)]
                requests.append(Request(entrant.impl, metric, cases, entrant.options))
                places.append((metric, entrant.name, system))
    return requests, places


def _ranking(entrant: Entrant, systems: Sequence[str],
             outcomes: Mapping[tuple[str, str, str], list[CaseResult]],
             scheme: rs.Resampling, tests: tuple[bool, bool], all_pairs: bool
             ) -> ImplementationRanking:
    """One implementation's scores, intervals and tests, from its segments'
    results alone."""
    assert entrant.options is not None
    rows: dict[str, Rows] = {}
    for system in systems:
        found = outcomes[(entrant.metric, entrant.name, system)]
        bad = next((o for o in found if o.result is None), None)
        if bad is not None:
            number = found.index(bad) + 1
            return ImplementationRanking(
                entrant.name, entrant.signature,
                error=f"{system}, segment {number}: {bad.status}: {bad.error}")
        rows[system] = rows_of([o.result for o in found if o.result is not None],
                               entrant.options)
    scores, resampled = [], {}
    for system in systems:
        resampled[system] = rs.bootstrap_scores(rows[system].matrix, rows[system].score, scheme)
        scores.append(SystemScore(system, rows[system].corpus,
                                  rs.interval(resampled[system], scheme.scheme)))
    found_tests = []
    for baseline, system in pairs_of(systems, all_pairs):
        delta = rows[system].corpus - rows[baseline].corpus
        p_boot = rs.bootstrap_p_value(resampled[system], resampled[baseline], abs(delta)) \
            if tests[0] else None
        p_ar = rs.randomization_p_value(rows[system].matrix, rows[baseline].matrix,
                                        rows[system].score, scheme, abs(delta)) \
            if tests[1] else None
        found_tests.append(PairTest(baseline, system, delta, p_boot, p_ar))
    sample = rows[systems[0]]
    return ImplementationRanking(entrant.name, entrant.signature, tuple(scores),
                                 tuple(found_tests), sample.from_scores, sample.exact,
                                 recovered=sample.recovered)


# ---------------------------------------------------------------- stability


class _PairStability:
    """One pair's stability, worked out on the reference while the
    implementations score: for each implementation with a declared profile, the
    Shapley split of (reference-as-it's Δ − the paper's Δ), every profile in
    between recorded with its Δ."""

    def __init__(self, baseline: str, system: str, paper: Entrant,
                 scorers: Mapping[str, ReferenceScorer], people: Sequence[Entrant]) -> None:
        self.baseline, self.system = baseline, system
        base, other = scorers[baseline], scorers[system]
        self.delta_of: Callable[[Options], float] = lambda options: other(options) - base(
            options)
        assert paper.options is not None
        self.paper_delta = self.delta_of(paper.options)
        self.seen: dict[str, dict[Options, float]] = {}
        self.attributed: dict[str, tuple[Attribution | None, str]] = {}
        for entrant in people:
            if entrant.name == REFERENCE or entrant.options is None or not entrant.declared:
                continue
            self.attributed[entrant.name] = self._attribute(paper, entrant, base, other)

    def _attribute(self, paper: Entrant, entrant: Entrant, base: ReferenceScorer,
                   other: ReferenceScorer) -> tuple[Attribution | None, str]:
        assert paper.options is not None and entrant.options is not None
        seen = self.seen.setdefault(entrant.name, {})

        def game(options: Options) -> float:
            seen[options] = self.delta_of(options)
            return seen[options]

        def prepare(profiles: Sequence[Options]) -> None:
            base.prepare(profiles)
            other.prepare(profiles)

        try:
            inert = inert_axes(paper.options, entrant.options, base.refs)
            return attribute(paper.options, entrant.options, game, width=200.0,
                             inert=inert, prepare=prepare), ""
        except Exception as problem:  # a profile between them the reference refuses
            return None, f"the reference refuses a profile between them ({describe(problem)})"

    def finish(self, measured: Mapping[str, ImplementationRanking]) -> Stability:
        """The stability, once every implementation's own Δ is known."""
        sign = _sign(self.paper_delta)
        holds, reversals = [], []
        for name, entry in measured.items():
            if entry.error:
                continue
            delta = entry.score(self.system).score - entry.score(self.baseline).score
            if _sign(delta) == sign:
                holds.append(name)
                continue
            attribution, error = self.attributed.get(name, (None, "no declared profile"))
            residual = None if attribution is None else delta - attribution.end
            reversals.append(Reversal(name, delta, attribution, residual, error))
        between = {options: delta for seen in self.seen.values()
                   for options, delta in seen.items()}
        flipping = tuple(name for name, seen in self.seen.items()
                         if any(_sign(d) != sign for d in seen.values()))
        return Stability(self.baseline, self.system, self.paper_delta, tuple(holds),
                         tuple(reversals), len(between),
                         sum(_sign(d) != sign for d in between.values()), flipping)


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _stability(metric: str, by_system: Mapping[str, Sample], people: Sequence[Entrant],
               all_pairs: bool) -> list[_PairStability]:
    paper = next(e for e in people if e.name == REFERENCE)
    scorers = {system: ReferenceScorer(metric, sample) for system, sample in by_system.items()}
    return [_PairStability(baseline, system, paper, scorers, people)
            for baseline, system in pairs_of(list(by_system), all_pairs)]


__all__ = ["TESTS", "pairs_of", "rank_corpus"]

"""Every implementation's corpus score, and each gap between two of them
attributed to the conventions that cause it (``metricdiff compare``).

For one metric: each implementation scores the corpus under its declared profile
(in a worker process, so that a crash, a hang or garbage is recorded, never
fatal); the reference scores it under the paper's profile, as ``reference``.
For every pair A, B the gap ``B − A`` splits into

* the **contributions** of the axes on which their profiles differ: the Shapley
  values of the reference scored under every profile between A's and B's
  (``attribution.attribute``); they sum to ``ref(B's profile) − ref(A's profile)``;
* the **residual** ``(B − ref(B's profile)) − (A − ref(A's profile))``: what no
  declared convention explains, i.e. where an implementation does not do what
  its profile says.  It is always shown.

Scores are in points: BLEU on its 0-100 scale, ROUGE × 100 as papers print it.
For ROUGE every participant reports the same quantity (``report``: F by
default), so that a recall-reporting profile (the paper's, the Perl script's)
is compared on the same number as the others; ``report`` is then no axis of any
gap.  The attributions need only the profiles, so the reference works out all
of them while the implementations score in their worker processes.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

import attrs

from metricdiff.cases.case import Sample
from metricdiff.comparison.attribution import Attribution, attribute
from metricdiff.comparison.gaps import Comparison, CorpusScore, Gap, MetricComparison
from metricdiff.comparison.inert import inert_axes
from metricdiff.comparison.scorer import REFERENCE, ReferenceScorer, points
from metricdiff.impls import AnyAdapter, adapter_names, get_adapter
from metricdiff.profiles.metrics import Options, family
from metricdiff.scoring import Request, score_requests
from metricdiff.scoring.jobs import CaseResult, Job
from metricdiff.scoring.validate import describe

#: What a ROUGE score means when nobody says: F, what most libraries print.
DEFAULT_REPORT = "f"
#: The metrics compared when none is named.
DEFAULT_METRICS = ("bleu", "rouge-1", "rouge-2", "rouge-l", "rouge-lsum")

# ---------------------------------------------------------------- who takes part


@attrs.frozen
class Entrant:
    """An implementation taking part in one metric, under ``options`` (None when
    it cannot: ``error`` says why).  ``declared``: whether ``options`` is a
    profile its author stated (a user's own implementation without settings has
    none, and no gap of it can be attributed)."""

    name: str
    metric: str
    options: Options | None
    signature: str = ""
    error: str = ""
    declared: bool = True


def entrants(metric: str, impls: Sequence[str] | None, report: str,
             claimed: Mapping[str, Mapping[str, str]] | None = None) -> list[Entrant]:
    """Who takes part in ``metric``: the reference (the paper's profile) first,
    then ``impls`` (default: every available implementation) that implement it.
    A named implementation that cannot run takes part with its reason, so that
    nothing named is dropped in silence.  ``claimed``: the profile of a user's
    own implementation (``python:``, ``cmd:``) by name, as its author declares
    it or as the audit inferred it; without one it declares none."""
    names = [REFERENCE, *(impls if impls is not None else adapter_names())]
    chosen = []
    for name in dict.fromkeys(names):
        try:
            adapter = get_adapter(name, metric)
        except Exception:  # another family altogether: not part of this metric
            continue
        if metric not in adapter.metrics:
            continue
        reason = adapter.unavailable_reason()
        if reason is not None:
            if impls is not None:
                chosen.append(Entrant(name, metric, None, error=reason))
            continue
        own = (claimed or {}).get(name, {}) if adapter.user_profile else {}
        chosen.append(_entrant(adapter, name, metric, {**own, **_settings(metric, report)},
                               declared=bool(own) or not adapter.user_profile))
    return chosen


def _settings(metric: str, report: str) -> dict[str, str]:
    """The axes compare sets for every participant alike."""
    return {"report": report} if family(metric) == "rouge" else {}


def _entrant(adapter: AnyAdapter, name: str, metric: str, overrides: Mapping[str, str],
             declared: bool) -> Entrant:
    try:
        options = adapter.options(metric, dict(overrides))
    except Exception as error:  # a setting this implementation cannot honour
        return Entrant(name, metric, None, error=str(error))
    return Entrant(name, metric, options, adapter.signature(metric, options),
                   declared=declared)


# ---------------------------------------------------------------- scoring


def score_in_workers(jobs: Sequence[Job], workers: int, timeout: float
                     ) -> list[CaseResult]:
    """Each job's one case, scored in worker processes: a crash, a hang or
    invalid output becomes that job's recorded outcome.  The one place compare
    runs implementations, through the one entry point every command uses
    (``scoring.score_requests``)."""
    requests = [Request(job.impl, job.metric, job.cases, job.options) for job in jobs]
    return [outcomes[0]
            for outcomes in score_requests(requests, workers=workers, timeout=timeout)]


T = TypeVar("T")


class Background(Generic[T]):
    """A call run in a daemon thread: the main thread works meanwhile, and a
    Ctrl-C there does not wait for it (its worker processes die with the main
    one)."""

    def __init__(self, call: Callable[[], T]) -> None:
        self._value: list[T] = []
        self._error: list[BaseException] = []

        def run() -> None:
            try:
                self._value.append(call())
            except BaseException as error:  # handed to whoever asks for the result
                self._error.append(error)

        self._thread = threading.Thread(target=run, name="metricdiff-compare", daemon=True)
        self._thread.start()

    def result(self) -> T:
        self._thread.join()
        if self._error:
            raise self._error[0]
        return self._value[0]


#: A pair's attribution, or None and why not.
Attributed = tuple[Attribution | None, str]


def attribute_pair(a: Entrant, b: Entrant, reference: ReferenceScorer) -> Attributed:
    """The reference's gap between the profiles of ``a`` and ``b``, axis by axis."""
    assert a.options is not None and b.options is not None
    for side in (a, b):
        if not side.declared:
            return None, (f"{side.name} declares no profile: give its settings, or run "
                          "`metricdiff audit` to infer one")
    try:
        inert = inert_axes(a.options, b.options, reference.refs)
        return attribute(a.options, b.options, reference, inert=inert,
                         prepare=reference.prepare), ""
    except Exception as problem:  # a profile between them the reference refuses
        return None, f"the reference refuses a profile between them ({describe(problem)})"


def compare_corpus(
    samples: Mapping[str, Sample],
    impls: Sequence[str] | None = None,
    report: str = DEFAULT_REPORT,
    workers: int = 2,
    timeout: float = 120.0,
    claimed: Mapping[str, Mapping[str, str]] | None = None,
    scored_already: Mapping[tuple[str, str], CaseResult] | None = None,
) -> Comparison:
    """Compare implementations on each metric of ``samples`` (metric -> the
    corpus as that metric reads it: ROUGE's sentences separated by line breaks).
    ``impls``: who takes part besides the reference (default: every available
    implementation); ``report``: what a ROUGE score is (``f``, ``recall``,
    ``precision``); ``workers`` and ``timeout``: of the worker processes that
    run the implementations (seconds per implementation and metric);
    ``claimed``: see ``entrants``; ``scored_already``: (metric, implementation) -> its
    outcome on that metric's corpus, scored already under the same profile but
    for ``report`` (which only picks the number quoted), so not scored again (the
    audit's, journalled)."""
    people = {metric: entrants(metric, impls, report, claimed) for metric in samples}
    known = dict(scored_already or {})
    jobs = sorted((Job(e.name, metric, e.options, (samples[metric],), e.name)
                   for metric, those in people.items() for e in those
                   if e.options is not None and e.name != REFERENCE
                   and (metric, e.name) not in known),
                  key=_slow_first)
    peers = Background(lambda: score_in_workers(jobs, workers, timeout)) if jobs else None
    references = {metric: ReferenceScorer(metric, samples[metric]) for metric in people}
    attributed = {
        (metric, a.name, b.name): attribute_pair(a, b, references[metric])
        for metric, those in people.items()
        for a, b in itertools.combinations([e for e in those if e.options is not None], 2)
    }
    outcomes = dict(zip(((job.metric, job.impl) for job in jobs),
                        peers.result() if peers is not None else [], strict=True))
    outcomes.update(known)
    compared = []
    for metric, those in people.items():
        scores = [_score_of(e, references[metric], outcomes) for e in those]
        scored = [(e, s.score) for e, s in zip(those, scores, strict=True) if s.score is not None]
        found = [Gap(a.name, b.name, score_a, score_b, *attributed[(metric, a.name, b.name)])
                 for (a, score_a), (b, score_b) in itertools.combinations(scored, 2)]
        compared.append(MetricComparison(metric, tuple(scores), tuple(found),
                                         report if family(metric) == "rouge" else None))
    return Comparison(tuple(compared))


def _slow_first(job: Job) -> int:
    """Jobs whose implementation pays a fixed cost per call (a process: the Perl
    script's large ``batch_size`` says so) go first, so that the others fill the
    workers around them instead of leaving one running alone at the end."""
    try:
        return -get_adapter(job.impl, job.metric).batch_size
    except Exception:  # the worker will say what is wrong with it
        return 0


def _score_of(entrant: Entrant, reference: ReferenceScorer,
              outcomes: Mapping[tuple[str, str], CaseResult]) -> CorpusScore:
    """An entrant's corpus score, or why it has none (``outcomes``: each job's,
    by metric and implementation)."""
    def failed(why: str) -> CorpusScore:
        return CorpusScore(entrant.name, entrant.signature, None, why)

    if entrant.options is None:
        return failed(entrant.error)
    if entrant.name == REFERENCE:
        try:
            score = reference(entrant.options)
        except Exception as error:  # e.g. an empty pair under empty_policy=error
            return failed(describe(error))
        return CorpusScore(entrant.name, entrant.signature, score)
    outcome = outcomes[(entrant.metric, entrant.name)]
    if outcome.result is None:
        return failed(f"{outcome.status}: {outcome.error}")
    return CorpusScore(entrant.name, entrant.signature, points(outcome.result, entrant.options))


__all__ = [
    "DEFAULT_METRICS",
    "DEFAULT_REPORT",
    "REFERENCE",
    "Background",
    "Entrant",
    "ReferenceScorer",
    "Sample",
    "attribute_pair",
    "compare_corpus",
    "entrants",
    "points",
    "score_in_workers",
]

"""Every implementation's corpus score, and each gap between two of them
attributed to the conventions that cause it (``metricdiff compare``).

For one metric: each implementation scores the corpus under its declared profile
(in a worker process, so that a crash, a hang or garbage is recorded, never
fatal); the reference scores it under the paper's profile, as ``reference``.
Each implementation's gap to the paper is split (a star: n attributions, not
one per pair); so is the gap of each pair asked for, of every pair when few
implementations are named, and of the largest gaps when the audit asks.  A
pair's gap ``B − A`` splits into

* the **contributions** of the axes on which their profiles differ: the Shapley
  values of the reference scored under every profile between A's and B's
  (``attribution.attribute``); they sum to ``ref(B's profile) − ref(A's profile)``;
* the **residual** ``(B − ref(B's profile)) − (A − ref(A's profile))``: what no
  declared convention explains, i.e. where an implementation does not do what
  its profile says.  It is always shown, and never missing: a profile between
  the two that the reference refuses carries the refusal (``scorer.py``).

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
from metricdiff.comparison.attribution import Attribution
from metricdiff.comparison.gaps import Comparison, CorpusScore, Gap, MetricComparison
from metricdiff.comparison.scorer import (
    REFERENCE,
    ReferenceScorer,
    attribute_gap,
    points,
    prepare_gaps,
)
from metricdiff.errors import AdapterUnavailable
from metricdiff.impls import AnyAdapter, adapter_names, get_adapter
from metricdiff.impls.text.lost_input import lost_input_each
from metricdiff.profiles.metrics import Options, family
from metricdiff.progress import Progress
from metricdiff.scoring.jobs import CaseResult, Job
from metricdiff.scoring.locating import score_in_workers
from metricdiff.scoring.validate import describe
from metricdiff.wording import refusal

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
    none, and no gap of it can be attributed).  ``spec``: the implementation
    that scores it when ``name`` is one of its named variants (``sacrebleu+intl``
    is ``sacrebleu`` under the variant's profile)."""

    name: str
    metric: str
    options: Options | None
    signature: str = ""
    error: str = ""
    declared: bool = True
    spec: str = ""
    #: Its availability looked up, not imported (``Adapter.installed_reason``):
    #: if its worker cannot import it, it is not available after all.
    looked_up: bool = False

    @property
    def impl(self) -> str:
        """The implementation that scores it."""
        return self.spec or self.name


def entrants(metric: str, impls: Sequence[str] | None, report: str,
             claimed: Mapping[str, Mapping[str, str]] | None = None, *,
             importing: bool = True) -> list[Entrant]:
    """Who takes part in ``metric``: the reference (the paper's profile) first,
    then ``impls`` (default: every available implementation, and each under
    its named variants, as the audit runs them: ``sacrebleu+intl``, the
    tokenizer WMT uses for some languages) that implement it.  A named
    implementation that cannot run takes part with its reason, so that nothing
    named is dropped in silence.  ``claimed``: the profile of a user's
    own implementation (``python:``, ``cmd:``) by name, as its author declares
    it or as the audit inferred it; without one it declares none.  Whether an
    implementation can run is asked by importing it (``importing``), or else
    looked up (``Adapter.installed_reason``), for a run whose workers import
    it anyway and that drops one they cannot import (``looked_up``)."""
    names = [REFERENCE, *(impls if impls is not None else adapter_names())]
    chosen = []
    for name in dict.fromkeys(names):
        try:
            adapter = get_adapter(name, metric)
        except Exception:  # another family altogether: not part of this metric
            continue
        if metric not in adapter.declared.metrics:
            continue
        reason = adapter.unavailable_reason() if importing else adapter.installed_reason()
        if reason is not None:
            if impls is not None:
                chosen.append(Entrant(name, metric, None, error=reason))
            continue
        own = (claimed or {}).get(name, {}) if adapter.declared.user_profile else {}
        settings = _settings(metric, report)
        made = [_entrant(adapter, name, metric, {**own, **settings},
                         declared=bool(own) or not adapter.declared.user_profile)]
        if impls is None:  # named, it takes part as named: `sacrebleu[tokenize=intl]`
            made += [_entrant(adapter, f"{name}+{variant}", metric,
                              {**overrides, **settings}, declared=True, spec=name)
                     for variant, overrides in sorted(adapter.declared.variants.items())]
        if not importing and adapter.looks_up:
            made = [attrs.evolve(e, looked_up=True) for e in made]
        chosen += made
    return chosen


def _settings(metric: str, report: str) -> dict[str, str]:
    """The axes compare sets for every participant alike."""
    return {"report": report} if family(metric) == "rouge" else {}


def _entrant(adapter: AnyAdapter, name: str, metric: str, overrides: Mapping[str, str],
             declared: bool, spec: str = "") -> Entrant:
    try:
        options = adapter.options(metric, dict(overrides))
    except Exception as error:  # a setting this implementation cannot honour
        return Entrant(name, metric, None, error=str(error), spec=spec)
    return Entrant(name, metric, options, adapter.signature(metric, options),
                   declared=declared, spec=spec)


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


#: What to do about an implementation that declares no profile, in ``compare``.
UNDECLARED = "give its settings, or run `metricdiff audit`, which infers one"
#: The same inside ``audit``, which has tried to infer one and found none.
NOT_INFERRED = ("no profile the audit tried reproduces it on every case (see its "
                "'inferred profile' line)")


def attribute_pair(a: Entrant, b: Entrant, reference: ReferenceScorer,
                   undeclared: str = UNDECLARED) -> tuple[Attribution, str]:
    """The reference's gap between the profiles of ``a`` and ``b``, axis by axis,
    and a note on what it carried (``scorer.attribute_gap``).  A side that
    declares no profile has no axis to give: the whole gap is residual, and the
    note ends with ``undeclared``, what to do about it."""
    assert a.options is not None and b.options is not None
    for side in (a, b):
        if not side.declared:
            level = reference(a.options) if a.declared else reference(b.options)
            return Attribution(level, level, ()), (
                f"{side.name} declares no profile, so the whole gap is residual: "
                f"{undeclared}")
    found, note = attribute_gap(a.options, b.options, reference)
    unsteady = [f"{side.name}'s own score differs from run to run on the same input "
                "(declared not reproducible), so the residual moves with it"
                for side in (a, b) if not _reproducible(side)]
    return found, "; ".join([note, *unsteady] if note else unsteady)


def _reproducible(entrant: Entrant) -> bool:
    """Whether the entrant's implementation gives the same score on the same input
    every time (``Declared.reproducible``: jury's bootstrap, though seeded, does not)."""
    try:
        return get_adapter(entrant.impl, entrant.metric).declared.reproducible
    except Exception:  # not an implementation of this metric: nothing declared
        return True


#: With at most this many implementations named (``--impl``), every pair's gap
#: is split too, not only each one's gap to the paper.
EVERY_PAIR_AT_MOST = 4


def compare_corpus(
    samples: Mapping[str, Sample],
    impls: Sequence[str] | None = None,
    report: str = DEFAULT_REPORT,
    workers: int = 2,
    timeout: float = 120.0,
    claimed: Mapping[str, Mapping[str, str]] | None = None,
    scored_already: Mapping[tuple[str, str], CaseResult] | None = None,
    pairs: Sequence[tuple[str, str]] = (),
    largest: int = 0,
    progress: Progress | None = None,
    undeclared: str = UNDECLARED,
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
    audit's, journalled).

    Each implementation's gap to the paper is split by axis (the star); a
    pair's gap is split for the ``pairs`` asked for, for every pair when at most
    ``EVERY_PAIR_AT_MOST`` implementations are named, and for the ``largest``
    gaps between two implementations.  ``progress``: a progress line;
    ``undeclared``: what the note on the gap of an implementation without a
    profile says to do (``attribute_pair``)."""
    people = {metric: entrants(metric, impls, report, claimed, importing=impls is not None)
              for metric in samples}
    known = dict(scored_already or {})
    # (the worker pool runs the costliest first: ``scoring.chunks.slow_first``)
    taking = [(e, e.options) for those in people.values() for e in those
              if e.options is not None and e.name != REFERENCE and (e.metric, e.name) not in known]
    jobs = [Job(e.impl, e.metric, options, (samples[e.metric],), e.name) for e, options in taking]
    if progress is not None and jobs:
        progress.start("scoring", len(jobs), unit="implementation")
    tick = None if progress is None else (lambda: progress.advance("scoring"))
    references = {metric: ReferenceScorer(metric, samples[metric]) for metric in people}
    for metric, those in people.items():  # who may refuse the corpus, in one pass
        references[metric].prepare([e.options for e in those if e.declared and e.options
                                    and e.options.empty_policy == "error"])
    foreseen = [n for n, (e, _) in enumerate(taking) if _refused(e, references[e.metric])]
    peers = Background(lambda: score_in_workers(jobs, workers, timeout, tick, foreseen)
                       ) if jobs else None
    every = impls is not None and len(impls) <= EVERY_PAIR_AT_MOST
    wanted = {metric: _wanted(those, pairs, every) for metric, those in people.items()}
    if progress is not None:
        progress.start("attributing", sum(map(len, wanted.values())), unit="gap")
    attributed = {}
    for metric, chosen in wanted.items():
        prepare_gaps([(a.options, b.options) for a, b in chosen if a.declared and b.declared],
                     references[metric])
        for a, b in chosen:
            attributed[(metric, a.name, b.name)] = attribute_pair(a, b, references[metric],
                                                                  undeclared)
            if progress is not None:
                progress.advance("attributing")
    everyone = [(metric, e) for metric, those in people.items() for e in those]
    lost = dict(zip(everyone, lost_input_each([  # what each one's tokenizer drops
        (e.name, e.options.tokenize if e.options and e.declared else None, samples[metric])
        for metric, e in everyone]), strict=True))
    outcomes = dict(zip(((job.metric, job.label) for job in jobs),
                        peers.result() if peers is not None else [], strict=True))
    outcomes.update(known)
    people = {metric: [e for e in those if not _not_importable(e, outcomes)]
              for metric, those in people.items()}
    compared = []
    for metric, those in people.items():
        scores = [attrs.evolve(score_of(e, references[metric], outcomes), lost=lost[(metric, e)])
                  for e in those]
        scored = {e.name: (e, s.score) for e, s in zip(those, scores, strict=True)
                  if s.score is not None}
        for a, b in _largest(scored, largest, attributed, metric):
            attributed[(metric, a.name, b.name)] = attribute_pair(a, b, references[metric],
                                                                  undeclared)
        found = []
        for (m, name_a, name_b), (attribution, note) in attributed.items():
            if m == metric and name_a in scored and name_b in scored:
                found.append(Gap(name_a, name_b, scored[name_a][1], scored[name_b][1],
                                 attribution, note=note))
        compared.append(MetricComparison(metric, tuple(scores), tuple(found),
                                         report if family(metric) == "rouge" else None))
    if progress is not None:
        progress.finish()
    return Comparison(tuple(compared))


def _refused(entrant: Entrant, reference: ReferenceScorer) -> bool:
    """Whether the reference under the entrant's declared profile refuses the
    corpus (``empty_policy=error`` meeting a segment its tokenizer empties), so
    that the implementation is expected to crash (a score the attribution of
    its gap needs anyway)."""
    options = entrant.options
    if options is None or not entrant.declared or options.empty_policy != "error":
        return False
    try:
        reference(options)
    except Exception:  # a profile the reference cannot score: nothing foreseen
        return False
    return options in reference.refused


def _wanted(those: Sequence[Entrant], pairs: Sequence[tuple[str, str]], every: bool
            ) -> list[tuple[Entrant, Entrant]]:
    """The gaps of one metric to split before any implementation has a score:
    each one's to the paper, the ``pairs`` asked for, and, if ``every``, every
    pair."""
    able = [e for e in those if e.options is not None]
    by_name = {e.name: e for e in able}
    paper = by_name.get(REFERENCE)
    chosen = [(paper, e) for e in able if paper is not None and e is not paper]
    asked = [(by_name[a], by_name[b]) for a, b in pairs if a in by_name and b in by_name]
    if every:
        asked += list(itertools.combinations([e for e in able if e is not paper], 2))
    seen = {frozenset((a.name, b.name)) for a, b in chosen}
    for a, b in asked:
        if frozenset((a.name, b.name)) not in seen and a is not b:
            seen.add(frozenset((a.name, b.name)))
            chosen.append((a, b))
    return chosen


def _largest(scored: Mapping[str, tuple[Entrant, float]], count: int,
             attributed: Mapping[tuple[str, str, str], object], metric: str
             ) -> list[tuple[Entrant, Entrant]]:
    """The ``count`` largest gaps between two implementations (the paper's
    profile aside) not split yet."""
    done = {frozenset(key[1:]) for key in attributed if key[0] == metric}
    gaps = [(abs(sb - sa), a, b)
            for (a, sa), (b, sb) in itertools.combinations(
                [value for name, value in scored.items() if name != REFERENCE], 2)
            if frozenset((a.name, b.name)) not in done]
    gaps.sort(key=lambda gap: -gap[0])
    return [(a, b) for size, a, b in gaps[:count] if size > 0]


def _not_importable(entrant: Entrant, outcomes: Mapping[tuple[str, str], CaseResult]) -> bool:
    """Whether an entrant whose availability was looked up, not imported
    (``looked_up``), turned out unavailable in its worker: it sits out, as one
    not installed does."""
    outcome = outcomes.get((entrant.metric, entrant.name))
    # (the worker's set-up failure, ``describe``d: the adapter was not built)
    return entrant.looked_up and outcome is not None and outcome.result is None and (
        outcome.error.startswith(f"{AdapterUnavailable.__name__}: "))


def score_of(entrant: Entrant, reference: ReferenceScorer,
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
    if outcome.raised is not None and outcome.raised.unsupported:
        return CorpusScore(entrant.name, entrant.signature, None,
                           refusal(entrant.name, outcome.raised.message), not_applicable=True)
    if outcome.result is None:
        return failed(f"{outcome.status}: {outcome.error}")
    return CorpusScore(entrant.name, entrant.signature, points(outcome.result, entrant.options))


__all__ = [
    "DEFAULT_METRICS", "DEFAULT_REPORT", "REFERENCE", "Background", "Entrant",
    "ReferenceScorer", "Sample", "attribute_pair", "compare_corpus", "entrants", "points",
    "score_of",
]

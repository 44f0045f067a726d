"""The conclusions a paper draws, from Python: ``rank`` (does "A beats B" hold
under every implementation?), ``reproduce`` (which settings give a printed
score?) and ``sensitivity`` (how far each convention moves the score), as the
commands of the same names (docs/commands/rank.md, reproduce.md,
sensitivity.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from metricdiff import limits
from metricdiff.api.arguments import (
    REPORTS,
    TESTS,
    impl_list,
    metric_list,
    metric_names,
    names,
    one_of,
    warn_if_prepared_input,
    workers_and_timeout,
)
from metricdiff.cases.case import References
from metricdiff.cases.per_segment import per_segment
from metricdiff.errors import ConventionError, InputError

if TYPE_CHECKING:
    from metricdiff.conclusions.ranking import Ranking
    from metricdiff.conclusions.reproduce import Reproduction
    from metricdiff.conclusions.sensitivity import Sensitivity


def rank(
    systems: Mapping[str, Sequence[str]], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metrics: Sequence[str] | None = None,
    impls: Sequence[str] | None = None,
    test: str = "both",
    all_pairs: bool = False,
    resample: str | None = None,
    seed: int | None = None,
    samples: int = 1000,
    trials: int = 10_000,
    report: str = "f",
    jobs: int = 2,
    timeout: float = 120.0,
) -> Ranking:
    """Several systems on one test set (``systems``: name -> hypotheses; the first
    is the baseline) ranked under every implementation, as ``metricdiff rank``:
    each system's score with its 95% interval, each pair's paired bootstrap and
    approximate randomization p-values (``test``: ``bootstrap``, ``ar``,
    ``both``), and whether each pair's order holds across implementations and
    conventions.  ``resample``: the scheme, a bootstrap value of the
    ``corpus_average`` axis (default: sacrebleu's for BLEU, rouge-score's for
    ROUGE); ``seed`` (default: 12345 under sacrebleu's scheme, else 0),
    ``samples``, ``trials``: its draws."""
    from metricdiff.comparison.corpus import DEFAULT_METRICS
    from metricdiff.conclusions.rank import rank_corpus
    from metricdiff.conclusions.resampling import DEFAULTS, SACREBLEU_SEED, Resampling
    from metricdiff.impls import chosen_metrics
    from metricdiff.impls.user.python import load_timeout

    if isinstance(systems, str) or not isinstance(systems, Mapping) or len(systems) < 2:
        raise InputError("systems must map at least two system names to their hypotheses")
    corpora = {name: per_segment(hyps, refs, ref_streams) for name, hyps in systems.items()}
    for corpus in corpora.values():
        warn_if_prepared_input(*corpus)
    requested = metric_list(metrics)
    named = None if impls is None else names(impls, "impls")
    chosen = chosen_metrics(requested, named, DEFAULT_METRICS)
    named = impl_list(named, chosen)
    one_of("report", report, REPORTS)
    one_of("test", test, TESTS)
    workers, seconds = workers_and_timeout(jobs, timeout)
    try:
        trials = limits.whole_number(trials, 1, limits.MAX_TRIALS)
    except ValueError as error:
        raise ConventionError(f"trials {error}") from None
    schemes = {}
    for family, default in DEFAULTS.items():
        scheme = resample or default.scheme
        chosen_seed = seed if seed is not None else (
            SACREBLEU_SEED if scheme == "bootstrap-sacrebleu" else 0)
        schemes[family] = Resampling.parse(scheme, chosen_seed, samples, trials)
    with load_timeout(seconds):
        return rank_corpus({metric: dict(corpora) for metric in chosen}, named,
                           report=report, resampling=schemes, test=test,
                           all_pairs=all_pairs, workers=workers, timeout=seconds)


def reproduce(
    score: str | float, hyps: Sequence[str], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metric: str = "bleu",
    impls: Sequence[str] | None = None,
    signature: str | None = None,
    jobs: int = 2,
    timeout: float = 120.0,
) -> Reproduction:
    """Which implementations and profiles give ``score`` as printed (``"27.3"``:
    pass the text, so that its precision is known) on ``hyps``, as ``metricdiff
    reproduce``; ``signature`` (ours or sacrebleu's) is checked against it too."""
    from metricdiff.conclusions.reproduce import reproduce_score
    from metricdiff.impls.user.python import load_timeout

    corpus = per_segment(hyps, refs, ref_streams)
    warn_if_prepared_input(*corpus)
    [metric] = names([metric], "metric", metric_names())
    named = None if impls is None else impl_list(names(impls, "impls"), [metric])
    workers, seconds = workers_and_timeout(jobs, timeout)
    with load_timeout(seconds):
        return reproduce_score(str(score), corpus, metric, named, signature, workers, seconds)


def sensitivity(
    hyps: Sequence[str], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metric: str = "bleu",
    report: str = "f",
) -> Sensitivity:
    """How far each value of every axis ``metric`` depends on moves the score from
    the paper's profile on this corpus, and which pairs interact, as ``metricdiff
    sensitivity``."""
    from metricdiff.conclusions.sensitivity import sensitivity_of

    corpus = per_segment(hyps, refs, ref_streams)
    warn_if_prepared_input(*corpus)
    [metric] = names([metric], "metric", metric_names())
    one_of("report", report, REPORTS)
    return sensitivity_of(corpus, metric, report)


__all__ = ["rank", "reproduce", "sensitivity"]

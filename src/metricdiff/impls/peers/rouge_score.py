"""Google's rouge-score (``rouge_score.rouge_scorer.RougeScorer``).

Declared default profile, read from rouge-score 0.1.2:

* ``tokenize=rouge-score``, ``lowercase=none``: ``tokenizers.DefaultTokenizer`` ->
  ``tokenize.tokenize``: ``text.lower()``, every run of non-``[a-z0-9]`` becomes a
  space, split on whitespace, drop what is not ``^[a-z0-9]+$`` -- metricdiff's
  ``rouge-score`` tokenizer, whose lowercasing is part of it (so non-ASCII
  letters vanish: "café" -> ["caf"], "日本語" -> []).
* ``stemmer=none``; ``use_stemmer=True`` is ``stemmer=porter-nltk``:
  ``porter.PorterStemmer()`` (NLTK's default mode, NLTK_EXTENSIONS), applied in
  ``tokenize.tokenize`` only to tokens with ``len(x) > 3`` (``stem_min_length=3``).
* ``sentence_split=newline`` (``RougeScorer.score``'s ``get_sents`` for
  ``rougeLsum``: ``text.split("\\n")``, empty lines dropped); ``split_summaries=True``
  is ``punkt`` (``nltk.sent_tokenize``), offered only when NLTK's punkt model is
  installed -- it is never downloaded.  Only ``rougeLsum`` looks at sentences;
  ``rougeL`` is the sentence-level LCS of the whole text (``_score_lcs``).
* ``multi_ref=best-f``: ``score_multi`` takes, per rouge type, the target with
  the largest F (``np.argmax``, so the first on ties).
* ``f_measure=alpha=0.5``: ``scoring.fmeasure`` = 2PR / (P + R), 0 when P + R = 0.
* ``counts=multiset`` (``_score_ngrams``: ``min`` of the two counts), precision and
  recall over ``max(count, 1)``, so an empty side scores 0: ``empty_policy=zero``.
* ``corpus_average=macro``: ``RougeScorer`` scores pairs only; the usual corpus
  number is the mean of the pair scores.  ``bootstrap-median`` is
  ``scoring.BootstrapAggregator(n_samples=bootstrap_samples).aggregate()[...].mid``:
  despite its docstring ("Mid is always the mean") ``mid`` is
  ``np.percentile(..., 50)`` of the resampled means, i.e. their median.  It
  draws from numpy's global generator; the adapter seeds it with
  ``np.random.seed(bootstrap_seed)`` and restores the previous state afterwards.
  There is no bootstrap mean, so ``bootstrap-mean`` is refused.
* ``report=f`` (scores come as (precision, recall, fmeasure); any ``report`` is
  accepted, since all three are returned), ``rounding=exact``.

Other text axes go through ``RougeScorer(tokenizer=...)`` (an object with a
``tokenize(text)`` method, the ``tokenizers.Tokenizer`` interface), which then
replaces ``DefaultTokenizer`` and its stemmer: the object runs metricdiff's
tokenizer, stopword removal and stemmer.  ``stemmer=porter-nltk`` with the
declared tokenization is ``use_stemmer=True`` itself.

Counts: ``Score`` holds P, R and F only.  ``matches``/``hyp_total``/``ref_total``
are recomputed with the scorer's tokenizer and ``rouge_scorer._create_ngrams``
(ROUGE-N) or ``rouge_scorer._lcs_table`` (ROUGE-L); for ROUGE-Lsum the totals are
the token counts and the hits R x ref_total.  With several references they are
those of the reference ``score_multi`` chose.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

import attrs

from metricdiff.impls.base import ANY, References, Requests, Scored
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.peers._rouge_common import (
    PREPROCESSING_SETTABLE,
    ROUGE_N_METRICS,
    PeerRougeAdapter,
    macro,
    punkt_available,
    punkt_refusal,
    result,
    text_axes_are,
    text_pipeline,
    with_counts,
)
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult, summed_counts


def rouge_type(metric: str) -> str:
    """rouge-score's name for a metric: rouge1 ... rouge9, rougeL, rougeLsum."""
    if metric == "rouge-l":
        return "rougeL"
    if metric == "rouge-lsum":
        return "rougeLsum"
    return "rouge" + metric.removeprefix("rouge-")


class _HookTokenizer:
    """A ``rouge_score.tokenizers.Tokenizer``: ``tokenize(text)`` -> tokens, by
    metricdiff's text pipeline."""

    def __init__(self, options: RougeOptions) -> None:
        self._tokenize = text_pipeline(options)

    def tokenize(self, text: str) -> list[str]:
        return self._tokenize(text)


def uses_default_tokenizer(options: RougeOptions) -> bool:
    """Whether ``DefaultTokenizer`` (with or without its stemmer) does it."""
    return text_axes_are(
        options, tokenize="rouge-score", lowercase="none", lowercase_stage="before-tokenize"
    ) and options.stemmer in ("none", "porter-nltk")


def scorer_for(metric: str | Sequence[str], options: RougeOptions,
               package: str = "rouge_score") -> Any:
    """The ``RougeScorer`` of ``metric`` (or of several, which then differ only in
    ``variant`` and ``n``) configured as ``options`` say, from ``package``
    (rouge-score, or a reimplementation with its interface)."""
    rouge_scorer = importlib.import_module(f"{package}.rouge_scorer")
    metrics = [metric] if isinstance(metric, str) else metric
    types = [rouge_type(name) for name in metrics]
    if uses_default_tokenizer(options):
        return rouge_scorer.RougeScorer(
            types,
            use_stemmer=options.stemmer == "porter-nltk",
            split_summaries=options.sentence_split == "punkt",
        )
    return rouge_scorer.RougeScorer(
        types,
        split_summaries=options.sentence_split == "punkt",
        tokenizer=_HookTokenizer(options),
    )


class RougeScoreAdapter(PeerRougeAdapter):
    """rouge-score 0.1.2: ROUGE-1..9, ROUGE-L and ROUGE-Lsum."""

    name = "rouge-score"
    package = Package(
        distribution="rouge-score",
        modules=("rouge_score.rouge_scorer", "rouge_score.scoring", "numpy"),
        extra="rouge",
    )
    declared = Declared(
        metrics=(*ROUGE_N_METRICS, "rouge-l", "rouge-lsum"),
        # The departures from Lin 2004's profile (RougeOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "tokenize": "rouge-score",
            "multi_ref": "best-f",
            "report": "f",
        },
        settable={
            **PREPROCESSING_SETTABLE,
            "sentence_split": ("newline", "punkt"),
            "report": ANY,
            "corpus_average": ("macro", "bootstrap-median"),
            "bootstrap_seed": ANY,
            "bootstrap_samples": ANY,
        },
        # use_stemmer=True
        own_stemmer="porter-nltk",
    )
    #: The package with rouge-score's interface that is driven.
    library: ClassVar[str] = "rouge_score"

    def refuse(self, metric: str, options: RougeOptions) -> None:
        if options.sentence_split == "punkt" and metric == "rouge-lsum" and not punkt_available():
            raise punkt_refusal(self.name, "sentence_split=punkt (split_summaries=True)")

    def pair_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        """Each segment's ``score_multi`` result with its counts."""
        return self.pair_scores_many([(metric, options)], hyps, refs)[0]

    def pair_scores_many(
        self, metrics: Sequence[tuple[str, RougeOptions]], hyps: Sequence[str],
        refs: References,
    ) -> list[list[RougeResult]]:
        """Per metric, each segment's ``score_multi`` result with its counts, from
        one ``RougeScorer`` for all of them: the library tokenizes each text once
        per call for every type (``RougeScorer.score``), and the counts are taken
        from one tokenization per text too.  The metrics' options differ only in
        ``variant`` and ``n``."""
        for metric, options in metrics:
            self.prepared(metric, options)
        options = metrics[0][1]
        scorer = scorer_for([metric for metric, _ in metrics], options, self.library)
        tokenize = lru_cache(maxsize=16)(scorer._tokenizer.tokenize)
        keys = [rouge_type(metric) for metric, _ in metrics]
        results: list[list[RougeResult]] = [[] for _ in metrics]
        targets_scored = _EachTarget(scorer)
        for hyp, targets in self.segments(hyps, refs):
            best, each = targets_scored.score_multi(targets, hyp)
            for key, column in zip(keys, results, strict=True):
                # score_multi keeps the first target with the largest F; the
                # first target scoring exactly the chosen Score is that one.
                chosen = best[key]
                target = targets[[scores[key] for scores in each].index(chosen)]
                counts = self.counts(tokenize, key, target, hyp, chosen, options)
                column.append(result(chosen.recall, chosen.precision, chosen.fmeasure, counts))
            tokenize.cache_clear()
        return results

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        return self.corpus(metric, self.pair_scores(metric, hyps, refs, options), options)

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        return self.pair_scores(metric, hyps, refs, options)

    def score_many(self, metrics: Requests[RougeOptions], hyps: Sequence[str],
                   refs: References, *, sentences: bool = False) -> list[Scored[RougeResult]]:
        """Metrics whose options differ only in ``variant`` and ``n`` (the same
        ``-o`` for all) are scored by one ``RougeScorer`` with all their types;
        each segment's results are the corpus result's, computed once."""
        groups: dict[RougeOptions, list[int]] = {}
        for index, (_, options) in enumerate(metrics):
            groups.setdefault(attrs.evolve(options, variant="n", n=1), []).append(index)
        scored: dict[int, Scored[RougeResult]] = {}
        for members in groups.values():
            columns = self.pair_scores_many([metrics[i] for i in members], hyps, refs)
            for index, pairs in zip(members, columns, strict=True):
                metric, options = metrics[index]
                scored[index] = Scored(self.corpus(metric, pairs, options),
                                       tuple(pairs) if sentences else None)
        return [scored[index] for index in range(len(metrics))]

    def corpus(self, metric: str, pairs: Sequence[RougeResult],
               options: RougeOptions) -> RougeResult:
        """The corpus result of the segments' results, by ``corpus_average``."""
        if options.corpus_average == "macro":
            return macro(pairs)
        if not pairs:
            raise ValueError("rouge-score's BootstrapAggregator gives no score for an empty "
                             "corpus")
        return with_counts(_bootstrap_median(self.library, metric, pairs, options),
                           summed_counts(pairs))

    def counts(self, tokenize: Callable[[str], list[str]], key: str, target: str,
               prediction: str, score: Any, options: RougeOptions) -> tuple[float, float, float]:
        """(matches, hyp_total, ref_total) of one pair, from the library's functions
        and its scorer's ``tokenize``.  ROUGE-L's LCS is not computed a second
        time: ``_score_lcs``' recall is LCS / |target| as a correctly rounded
        float, so recall * |target| lies within LCS * 2^-52 of the LCS, and
        rounding it gives the LCS exactly (as ``pair_counts`` does for rougeLsum)."""
        rouge_scorer = importlib.import_module("rouge_score.rouge_scorer")
        return pair_counts(tokenize, key, target, prediction, score, options,
                           lambda ref, hyp: round(score.recall * len(ref)),
                           rouge_scorer._create_ngrams)


class _EachTarget:
    """``score_multi`` of a scorer, with the scores of every target it chose among.

    ``score_multi`` scores each target with ``self.score`` and keeps, per type,
    the first with the largest F.  Telling which target that was needs every
    target's scores, and scoring them again doubled the library's work on
    segments with several references.  So ``score`` is wrapped on the instance
    (``self.score`` finds it first) and what ``score_multi`` computed is kept.
    Where ``score_multi`` does not go through ``self.score`` (a compiled
    scorer), the targets are scored again."""

    def __init__(self, scorer: Any) -> None:
        self._scorer = scorer
        self._score: Callable[[str, str], dict[str, Any]] = scorer.score
        self._seen: list[dict[str, Any]] = []
        with contextlib.suppress(AttributeError):  # an instance without attributes
            scorer.score = self._recording

    def _recording(self, target: str, prediction: str) -> dict[str, Any]:
        scores = self._score(target, prediction)
        self._seen.append(scores)
        return scores

    def score_multi(self, targets: list[str], hyp: str
                    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``score_multi(targets, hyp)``, and each target's scores in order."""
        self._seen = []
        best: dict[str, Any] = self._scorer.score_multi(targets, hyp)
        if len(targets) == 1:
            return best, [best]
        if len(self._seen) == len(targets):
            return best, self._seen
        return best, [self._score(target, hyp) for target in targets]


def pair_counts(
    tokenize: Callable[[str], list[str]], key: str, target: str, prediction: str, score: Any,
    options: RougeOptions, lcs_length: Callable[[list[str], list[str]], int],
    ngrams: Callable[[list[str], int], Mapping[Any, int]],
) -> tuple[float, float, float]:
    """(matches, hyp_total, ref_total) of one pair, with the scorer's ``tokenize``
    and the library's ``lcs_length`` and ``ngrams`` (n-gram -> count)."""
    if key == "rougeLsum":
        if options.sentence_split == "punkt":
            nltk = importlib.import_module("nltk")
            split = nltk.sent_tokenize
        else:
            def split(text: str) -> list[str]:
                return text.split("\n")
        ref_total = sum(len(tokenize(s)) for s in split(target) if s)
        hyp_total = sum(len(tokenize(s)) for s in split(prediction) if s)
        if ref_total and hyp_total:
            return round(score.recall * ref_total), hyp_total, ref_total
        return 0, hyp_total, ref_total
    ref_tokens, hyp_tokens = tokenize(target), tokenize(prediction)
    if key == "rougeL":
        lcs = lcs_length(ref_tokens, hyp_tokens) if ref_tokens and hyp_tokens else 0
        return lcs, len(hyp_tokens), len(ref_tokens)
    n = int(key.removeprefix("rouge"))
    ref_grams, hyp_grams = ngrams(ref_tokens, n), ngrams(hyp_tokens, n)
    matches = sum(min(count, hyp_grams[gram]) for gram, count in ref_grams.items())
    return matches, sum(hyp_grams.values()), sum(ref_grams.values())


def _bootstrap_median(package: str, metric: str, pairs: Sequence[RougeResult],
                      options: RougeOptions) -> RougeResult:
    """``BootstrapAggregator(n_samples).aggregate()[type].mid`` of ``package``
    with numpy's global generator seeded by ``bootstrap_seed`` (its state restored
    afterwards)."""
    scoring = importlib.import_module(f"{package}.scoring")
    numpy = importlib.import_module("numpy")
    key = rouge_type(metric)
    aggregator = scoring.BootstrapAggregator(n_samples=options.bootstrap_samples)
    for pair in pairs:
        aggregator.add_scores({key: scoring.Score(pair.precision, pair.recall, pair.fmeasure)})
    state = numpy.random.get_state()
    numpy.random.seed(options.bootstrap_seed)
    try:
        mid = aggregator.aggregate()[key].mid
    finally:
        numpy.random.set_state(state)
    return result(mid.recall, mid.precision, mid.fmeasure)


__all__ = ["RougeScoreAdapter", "pair_counts", "rouge_type", "scorer_for"]

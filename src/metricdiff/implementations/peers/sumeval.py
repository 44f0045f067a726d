"""sumeval (PyPI ``sumeval``, 0.2.2): ``RougeCalculator`` and ``BLEUCalculator``.

ROUGE
-----
``sumeval.metrics.rouge.RougeCalculator(stopwords=True, stemming=False,
word_limit=-1, length_limit=-1, lang="en")``; ``rouge_n(summary, references, n)``
and ``rouge_l(summary, references)`` return F alone.  Declared default profile,
read from ``sumeval/metrics/rouge.py`` and ``sumeval/metrics/lang/lang_en.py``:

* ``tokenize=rouge155``, ``lowercase=ascii``: ``LangEN._preprocess`` pads every
  ``-`` with spaces and turns every character outside ``[A-Za-z0-9-]`` into a
  space, ``tokenize_with_preprocess`` splits on ``" "`` and keeps the pieces that
  start with ``[A-Za-z0-9$]`` (which drops the ``-`` pieces), then
  ``RougeCalculator.tokenize`` lowercases each token.  So the tokens are the runs
  of ASCII letters and digits, folded: ROUGE-1.5.5's preprocessing.
* ``stopwords=smart``: ``stopwords=True`` is the default, and its list
  (``lang/data/en/stop_words.txt``, 598 words) is ROUGE-1.5.5's
  ``smart_common_words.txt`` word for word.  ``stopwords=False`` is ``none``.
* ``stemmer=none``.  ``stemming=True`` is not offered: it looks tokens of 3
  characters or more up in a table (``lang/data/en/stemming.txt``, no Porter
  fallback) and does so for the references only (``if self.stemming and
  is_reference``), which no axis value describes (docs/peers.md).
* ``multi_ref=pooled``: matches and reference n-grams are summed over the
  references, and the hypothesis count is multiplied by their number.
* ``counts=multiset`` (``count_overlap``: the smaller count of each n-gram);
  ROUGE-L is the sentence-level LCS of the whole texts (``lcs``; a line break is
  just a separator), metricdiff's ``rouge-l``.
* ``f_measure=alpha=0.5`` (``_calc_f1``: P R / ((1 - a) P + a R), 0 on a zero
  denominator; any alpha), ``empty_policy=zero``, ``report=f`` (F is all it
  returns), ``corpus_average=macro`` (the command line's ``averages``: the mean
  of the pair scores).  ``word_limit``/``length_limit`` are not offered
  (``truncate=none``).

R, P and the counts are computed with the library's own ``tokenize``,
``count_ngrams``, ``count_overlap``, ``len_ngram`` and ``lcs``, as ``rouge_n`` and
``rouge_l`` compute them; F is the library's.  ``lang="ja"``/``"zh"`` (MeCab or
janome, jieba) are not driven.

BLEU
----
``sumeval.metrics.bleu`` does ``from sacrebleu import corpus_bleu, TOKENIZERS,
DEFAULT_TOKENIZER``; sacrebleu 2.0 removed both names, so with the sacrebleu that
metricdiff pins (2.6.0) importing it raises ``ImportError``.  The BLEU adapter
is registered so that ``metricdiff impls`` says so; it needs sacrebleu < 2.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar

from metricdiff.implementations.base import ANY, Adapter, References
from metricdiff.implementations.peers._rouge_common import (
    ANY_ALPHA,
    ROUGE_N_METRICS,
    PeerRougeAdapter,
    alpha_of,
    macro,
    result,
)
from metricdiff.profiles import BleuOptions
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import BleuResult, RougeResult


def _share(part: float, whole: float) -> float:
    """``_calc_f1``'s ``safe_div``: 0 when ``whole`` is 0."""
    return 0.0 if whole == 0 else part / whole


class SumevalRougeAdapter(PeerRougeAdapter):
    """sumeval 0.2.2's ``RougeCalculator``: ROUGE-N and sentence-level ROUGE-L."""

    name = "sumeval"
    distribution = "sumeval"
    modules = ("sumeval.metrics.rouge",)
    install_hint = "pip install 'metricdiff[peers]'"
    metrics = (*ROUGE_N_METRICS, "rouge-l")
    # The departures from Lin 2004's profile (RougeOptions' defaults); every
    # axis not named here is at the paper's value.
    profile: ClassVar[Mapping[str, Any]] = {
        "tokenize": "rouge155",
        "lowercase": "ascii",
        "stopwords": "smart",
        "multi_ref": "pooled",
        "report": "f",
    }
    settable: ClassVar[Mapping[str, Collection[str] | None]] = {
        "stopwords": ("none", "smart"),
        "f_measure": ANY_ALPHA,
        "report": ANY,
    }

    def pair_scores(self, metric: str, hyps: Sequence[str], refs: References,
                    options: RougeOptions) -> list[RougeResult]:
        """Each segment's result: F from the library, R, P and counts from its
        own counting functions."""
        self.prepared(metric, options)
        rouge = importlib.import_module("sumeval.metrics.rouge")
        calculator = rouge.RougeCalculator(stopwords=options.stopwords == "smart", lang="en")
        alpha = alpha_of(options.f_measure)
        scores = []
        for hyp, targets in self.segments(hyps, refs):
            if options.variant == "l":
                fmeasure = calculator.rouge_l(hyp, targets, alpha=alpha)
            else:
                fmeasure = calculator.rouge_n(hyp, targets, options.n, alpha=alpha)
            matches, hyp_total, ref_total = _counts(calculator, hyp, targets, options)
            scores.append(result(_share(matches, ref_total), _share(matches, hyp_total),
                                 fmeasure, (matches, hyp_total, ref_total)))
        return scores

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: RougeOptions) -> RougeResult:
        return macro(self.pair_scores(metric, hyps, refs, options))

    def sentence_scores(self, metric: str, hyps: Sequence[str], refs: References,
                        options: RougeOptions) -> list[RougeResult]:
        return self.pair_scores(metric, hyps, refs, options)


def _counts(calculator: Any, hyp: str, targets: list[str],
            options: RougeOptions) -> tuple[float, float, float]:
    """(matches, count for precision, count for recall) as ``rouge_n`` /
    ``rouge_l`` sum them over the references."""
    summary = calculator.tokenize(hyp)
    references = [calculator.tokenize(target, True) for target in targets]
    if options.variant == "l":
        matches = sum(calculator.lcs(ref, summary) for ref in references)
        return matches, len(targets) * len(summary), sum(len(ref) for ref in references)
    n = options.n
    summary_ngrams = calculator.count_ngrams(summary, n)
    matches = sum(calculator.count_overlap(summary_ngrams, calculator.count_ngrams(ref, n))
                  for ref in references)
    return (matches, len(targets) * calculator.len_ngram(summary, n),
            sum(calculator.len_ngram(ref, n) for ref in references))


class SumevalBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """sumeval 0.2.2's ``BLEUCalculator``: it cannot be imported beside sacrebleu 2
    (see the module docstring), so it only says why."""

    name = "sumeval"
    distribution = "sumeval"
    modules = ("sumeval.metrics.bleu",)
    # BLEUCalculator's defaults: sacrebleu's 13a, smooth_method="floor" with
    # smooth_value=0.01, use_effective_order=True.
    profile: ClassVar[Mapping[str, Any]] = {
        "tokenize": "13a",
        "smoothing": "floor",
        "smooth_value": 0.01,
        "empty_order": "effective-order",
    }

    def unavailable_reason(self) -> str | None:
        try:
            importlib.import_module("sumeval.metrics.bleu")
        except ImportError:
            return (
                f"{self.name}: its BLEU cannot be imported: it needs sacrebleu < 2 "
                "(sacrebleu.TOKENIZERS), metricdiff pins sacrebleu 2.6.0; its ROUGE runs"
            )
        return None

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: BleuOptions) -> BleuResult:
        self.prepared(metric, options)
        raise NotImplementedError(  # pragma: no cover - unreachable with sacrebleu 2
            "sumeval's BLEU is not driven: it needs sacrebleu < 2")


__all__ = ["SumevalBleuAdapter", "SumevalRougeAdapter"]

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
DEFAULT_TOKENIZER``; sacrebleu 2.0 removed both names, so beside the sacrebleu
metricdiff pins (2.6.0) importing it raises ``ImportError``.  It therefore runs
on sacrebleu 1.5.1, the last 1.x, installed into a folder of its own by
``metricdiff install-peers`` (``_isolated``: peer ``sumeval``); the main
environment's sumeval is imported while that sacrebleu stands in for the main one.

``BLEUCalculator()`` (``smooth_method="floor"``, ``smooth_value=0.01``,
``use_effective_order=True``, ``lang="en"``) calls ``corpus_bleu`` on one summary;
declared default profile, read from ``sumeval/metrics/bleu.py`` and sacrebleu
1.5.1's ``compute_bleu``:

* ``tokenize=13a`` (sacrebleu's ``DEFAULT_TOKENIZER``), ``lowercase=none``.
* ``smoothing=floor`` with ``smooth_value=0.01``: a zero precision becomes 0.01 /
  total; ``empty_order=effective-order`` (``use_effective_order=True``).
* ``all_zero=smooth``: sacrebleu 1.5.1 has no early return when nothing matches
  (2.x's ``if not any(correct)`` came later), so floor smoothing still scores.
* ``level=sentence-mean``: it has no corpus function; the corpus score is the mean
  of the segment scores (what its command line's ``averages`` does for ROUGE).
* ``empty_reference=dropped``: ``corpus_bleu`` removes empty references; a
  summary left with none raises ``EOFError`` ("No valid references for a
  sentence!"), let through.
* One reference is passed as a string (its README's use).  A list of several
  (its docstring: "str or str[]") becomes one reference *stream* of several
  lines against one hypothesis line, and sacrebleu raises ``EOFError``: the
  adapter passes the list as sumeval would and lets that error through.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from metricdiff.errors import PeerNotInstalled
from metricdiff.impls.base import ANY, Adapter, References
from metricdiff.impls.declarations import INSTALL_PEERS, Declared, Isolated, Package
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers._rouge_common import (
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

#: sumeval's BLEU imports names sacrebleu 2 removed: it runs on sacrebleu 1.5.1 (the
#: last 1.x), kept apart from the sacrebleu 2.6.0 of the main environment.
ISOLATED = Isolated("sumeval", "sacrebleu", "1.5.1", "sacrebleu", main_env_fallback=False)

def _share(part: float, whole: float) -> float:
    """``_calc_f1``'s ``safe_div``: 0 when ``whole`` is 0."""
    return 0.0 if whole == 0 else part / whole


class SumevalRougeAdapter(PeerRougeAdapter):
    """sumeval 0.2.2's ``RougeCalculator``: ROUGE-N and sentence-level ROUGE-L."""

    name = "sumeval"
    package = Package(distribution="sumeval", modules=("sumeval.metrics.rouge",), extra="peers")
    declared = Declared(
        metrics=(*ROUGE_N_METRICS, "rouge-l"),
        # The departures from Lin 2004's profile (RougeOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "tokenize": "rouge155",
            "lowercase": "ascii",
            "stopwords": "smart",
            "multi_ref": "pooled",
            "report": "f",
        },
        settable={
            "stopwords": ("none", "smart"),
            "f_measure": ANY_ALPHA,
            "report": ANY,
        },
    )

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
    """sumeval 0.2.2's ``BLEUCalculator``, on sacrebleu 1.5.1 from a folder of its
    own (see the module docstring)."""

    name = "sumeval"
    package = Package(distribution="sumeval", modules=("sumeval.metrics.rouge",), extra="peers",
                      isolated=ISOLATED)
    declared = Declared(
        # The departures from Papineni et al.'s profile (BleuOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "tokenize": "13a",
            "smoothing": "floor",
            "smooth_value": 0.01,
            "empty_order": "effective-order",
            "level": "sentence-mean",
            "empty_reference": "dropped",
        },
    )

    def unavailable_reason(self) -> str | None:
        missing = super().unavailable_reason()
        if missing is not None:
            return missing
        try:
            _bleu_module()
        except PeerNotInstalled as error:
            return f"{self.name}: its BLEU needs sacrebleu < 2 beside it: {error}"
        except Exception as error:  # a broken install makes the peer unusable
            return (f"{self.name}: its BLEU cannot be loaded ({error}); reinstall: "
                    f"{INSTALL_PEERS} --force {self.name}")
        return None

    def sentence_scores(self, metric: str, hyps: Sequence[str], refs: References,
                        options: BleuOptions) -> list[BleuResult]:
        """``BLEUCalculator().bleu(hyp, refs, score_only=False)`` per segment: one
        reference is passed as a string (its README's use), several as a list."""
        self.prepared(metric, options)
        bleu = _bleu_module()
        calculator = bleu.BLEUCalculator()
        results = []
        with _isolated.active(ISOLATED):
            for hyp, seg in PeerRougeAdapter.segments(hyps, refs):
                score = calculator.bleu(hyp, seg[0] if len(seg) == 1 else seg,
                                        score_only=False)
                results.append(_bleu_result(score, score.score))
        return results

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: BleuOptions) -> BleuResult:
        """``level=sentence-mean``: the mean of the segments' scores, with their
        statistics pooled and sacrebleu 1.5.1's precisions and BP of those."""
        segments = self.sentence_scores(metric, hyps, refs, options)
        if not segments:
            raise ValueError("sumeval scores one summary at a time: an empty corpus has none")
        orders = len(segments[0].counts)
        counts = [sum(s.counts[n] for s in segments) for n in range(orders)]
        totals = [sum(s.totals[n] for s in segments) for n in range(orders)]
        sys_len, ref_len = sum(s.sys_len for s in segments), sum(s.ref_len for s in segments)
        with _isolated.active(ISOLATED) as peer:
            pooled = peer.module.compute_bleu(
                counts, totals, sys_len, ref_len, smooth_method="floor", smooth_value=0.01,
                use_effective_order=True)
        return _bleu_result(pooled, sum(s.score for s in segments) / len(segments))


def _bleu_module() -> Any:
    """``sumeval.metrics.bleu``, imported while sacrebleu 1.5.1 stands in for the
    main environment's sacrebleu (its functions keep that sacrebleu)."""
    with _isolated.active(ISOLATED):
        return importlib.import_module("sumeval.metrics.bleu")


def _bleu_result(score: Any, headline: float) -> BleuResult:
    """A BleuResult from a sacrebleu 1.x ``BLEUScore`` with ``headline`` as score;
    its counts and totals are whole numbers (floor smoothing leaves them)."""
    return BleuResult(float(headline), tuple(map(float, score.precisions)), float(score.bp),
                      int(score.sys_len), float(score.ref_len),
                      tuple(map(float, score.counts)), tuple(map(float, score.totals)))


__all__ = ["SumevalBleuAdapter", "SumevalRougeAdapter"]

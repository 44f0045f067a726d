"""ROUGE of a corpus (ROUGE-CORPUS-AVERAGE, Lin 2004 §5: scores averaged over the
documents): each segment scored by ``rouge.sentence_rouge``, then combined by
``corpus_average``, one segment at a time (``CorpusPairs``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

import attrs

from metricdiff.impls.reference import resample
from metricdiff.impls.reference.rouge import (
    PairCounter,
    _empty_result,
    _segment_counts,
    combine_references,
    counting_options,
    f_score,
    result_from_counts,
    rounded,
)
from metricdiff.impls.reference.rouge_counts import PairCounts, pair_counts
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

#: The axes only a corpus's average reads (``CorpusPairs``).
CORPUS_AXES = ("corpus_average", "bootstrap_seed", "bootstrap_samples")


@lru_cache(maxsize=1 << 12)
def per_segment(options: RougeOptions) -> RougeOptions:
    """``options`` with the paper's corpus average (``CORPUS_AXES``): what a
    segment's result reads of them, so that options alike under it give every
    segment the same result."""
    paper = RougeOptions()
    return attrs.evolve(options, **{axis: getattr(paper, axis) for axis in CORPUS_AXES})


class CorpusPairs:
    """The segments' results (as ``sentence_rouge`` gives them) made into the
    corpus's (ROUGE-CORPUS-AVERAGE), added one at a time.

    Every rule but the bootstrap needs sums only: the column sums of R, P and F
    left to right (as ``resample.mean`` adds), and the counts' exact sums (as
    ``math.fsum`` adds; ``_ExactSum``), so memory does not grow with the corpus
    and the numbers are those of the lists.  ``bootstrap-mean`` and
    ``bootstrap-median`` resample the pairs: they keep each pair's R, P and F,
    as ``keep_rows`` does for any rule (``under`` may then average them by a
    bootstrap too)."""

    def __init__(self, options: RougeOptions, *, keep_rows: bool = False) -> None:
        self.options = options
        self.pairs = 0
        self.empties = 0
        self.columns = [0.0, 0.0, 0.0]  # R, P, F summed left to right
        self.counts = (_ExactSum(), _ExactSum(), _ExactSum())
        keep = keep_rows or options.corpus_average.startswith("bootstrap")
        self.rows: list[tuple[float, float, float]] | None = [] if keep else None

    def add(self, pair: RougeResult, empty: bool) -> None:
        """One segment's result; ``empty``: it had no token on either side."""
        self.pairs += 1
        self.empties += empty
        row = (pair.recall, pair.precision, pair.fmeasure)
        for column, value in enumerate(row):
            self.columns[column] += value
        for total, value in zip(self.counts, (pair.matches, pair.hyp_total, pair.ref_total),
                                strict=True):
            total.add(value)
        if self.rows is not None:
            self.rows.append(row)

    def result(self) -> RougeResult:
        """The corpus result of the segments added so far (no segments give 0)."""
        return self.under(self.options)

    def under(self, options: RougeOptions) -> RougeResult:
        """``result`` averaged as ``options`` say: options that agree with this
        corpus's on every axis but the corpus average's (``CORPUS_AXES``) had the
        same segments' results, which are summed once for all of them."""
        if not self.pairs:
            return RougeResult(0.0, 0.0, 0.0)
        if options.corpus_average == "micro":
            return rounded(self._micro(options), options, recompute_f=True)
        return rounded(self._average(options), options, recompute_f=False)

    def _average(self, options: RougeOptions) -> RougeResult:
        """``macro``: mean R, P and F.  ``f-of-means``: mean R and P, F of those.
        ``bootstrap-mean`` / ``bootstrap-median``: ``bootstrap_samples``
        resamples of the pairs (seeded with ``bootstrap_seed``; see
        ``resample``), each giving column means of R, P and F, then the mean
        (ROUGE-1.5.5's reported average) or the median (rouge-score's ``mid``)
        of those means, per column.  ``bootstrap-rouge155``: the resamples
        ROUGE-1.5.5 draws (``srand(i)`` before resample i, Perl's generator) and
        their mean summed in sorted order, the "Average" it prints.
        ``bootstrap-sacrebleu``: the resamples sacrebleu's paired tests draw
        (numpy's ``default_rng(bootstrap_seed)``, rows summed as float32) and the
        mean of their means.  Counts are the sums over the pairs."""
        recall, precision, fmeasure = (column / self.pairs for column in self.columns)
        if options.corpus_average == "f-of-means":
            fmeasure = f_score(precision, recall, options.f_measure)
        elif options.corpus_average.startswith("bootstrap"):
            assert self.rows is not None, "a bootstrap needs the rows kept"
            recall, precision, fmeasure = resample.bootstrap_average(
                self.rows, options.corpus_average, options.bootstrap_samples,
                options.bootstrap_seed)
        return RougeResult(recall, precision, fmeasure, *(t.value() for t in self.counts))

    def _micro(self, options: RougeOptions) -> RougeResult:
        """``micro``: the pairs' counts (as the multi-reference rule left them)
        summed, then R and P from the sums.  If every pair was empty,
        ``empty_policy`` decides."""
        if self.empties == self.pairs:
            return _empty_result(options)
        matches, hyp_total, ref_total = (total.value() for total in self.counts)
        return result_from_counts(PairCounts(matches, hyp_total, ref_total), options)


class _ExactSum:
    """A sum of floats kept exactly, as the partials of Shewchuk's algorithm (the
    one ``math.fsum`` runs): ``value()`` is ``math.fsum`` of every number added."""

    def __init__(self) -> None:
        self.partials: list[float] = []

    def add(self, value: float) -> None:
        kept = 0
        for partial in self.partials:
            if abs(value) < abs(partial):
                value, partial = partial, value
            high = value + partial
            low = partial - (high - value)
            if low:
                self.partials[kept] = low
                kept += 1
            value = high
        self.partials[kept:] = [value]

    def value(self) -> float:
        return math.fsum(self.partials)


def corpus_rouge(
    hyps: Iterable[str], refs: Iterable[Sequence[str | None]], options: RougeOptions,
    *, count: PairCounter = pair_counts,
) -> RougeResult:
    """Corpus ROUGE (ROUGE-CORPUS-AVERAGE): each segment scored against its references,
    then combined by ``corpus_average`` (``CorpusPairs``).  ``refs`` yields each
    segment's references.  With ``rounding=perl-5dp`` each pair is rounded before
    averaging and the average is rounded again (ROUGE-1.5.5 averages the
    per-unit scores it printed).  No segments give 0.  ``count`` counts each
    pair (``rouge_counts.pair_counts``, or a fast path equal to it).
    """
    corpus = CorpusPairs(options)
    counting = counting_options(options)
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        counts = _segment_counts(hyp, tuple(seg_refs), counting, count)
        corpus.add(rounded(combine_references(counts, options), options, recompute_f=True),
                   all(c.empty for c in counts))
    return corpus.result()


def corpus_from_pairs(
    pairs: Sequence[RougeResult], empties: int, options: RougeOptions
) -> RougeResult:
    """The corpus result of the segments' results ``pairs`` (as ``sentence_rouge``
    gives them), ``empties`` of which had no token on either side (ROUGE-CORPUS-AVERAGE)."""
    corpus = CorpusPairs(options)
    for pair in pairs:
        corpus.add(pair, False)
    corpus.empties = empties
    return corpus.result()


__all__ = ["CORPUS_AXES", "CorpusPairs", "corpus_from_pairs", "corpus_rouge", "per_segment"]

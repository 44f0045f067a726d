"""ROUGE-S and -SU counts with no limit on the skip distance, from a table of
skip-bigram counts per pair of distinct tokens, for texts long beside their
vocabulary.

Not a definition: ``rouge_counts.units`` and ``gram_counts`` are, and
tests/impls/reference/fast/test_skip_bigram_tables.py holds these counts equal
to theirs (exact integers).

A text of n tokens has n(n-1)/2 skip-bigrams with no limit on the skip, and
``rouge_pair_counts.skip_units`` makes each one (12 ms for two texts of 300
tokens).  The audit's generated edge cases are such texts, 64-310 tokens over
3-28 distinct ones: ROUGE-S and -SU spent three quarters of their
explaining there.  Here every token is a column of a one-hot matrix, and the
count of the skip-bigram (a, b) is the sum over the positions j holding b of
how many a come before j: one integer matrix product, n·V² operations for V
distinct tokens, done by numpy (integer products use no BLAS, and so no
threads).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy
import numpy.typing as npt

from metricdiff.impls.reference.rouge_counts import PairCounts
from metricdiff.profiles.rouge import RougeOptions

Table = npt.NDArray[numpy.int64]

#: Below this many tokens in the two texts, making each skip-bigram is as quick
#: as numpy's fixed cost (about 50 µs a pair of texts, measured).
FEWEST_TOKENS = 32
#: A table is used while V² is at most this many times the tokens of the two
#: texts: about half of where the two ways cost the same (measured: two texts of
#: 300 tokens each, V = 150, took 15 ms either way; V = 80, 5 ms against 15).
SQUARED_VOCABULARY_PER_TOKEN = 16


def worth_a_table(hyp_length: int, ref_length: int, size: int, options: RougeOptions) -> bool:
    """Whether counting these texts by tables is quicker: no skip limit, enough
    tokens, and few distinct ones (``size``) for them."""
    tokens = hyp_length + ref_length
    return (options.skip < 0 and tokens >= FEWEST_TOKENS
            and size * size <= SQUARED_VOCABULARY_PER_TOKEN * tokens)


def pair_table(ids: Sequence[int], size: int) -> Table:
    """T[a, b]: how many positions i < j hold ``ids[i] = a`` and ``ids[j] = b``,
    for tokens coded as numbers below ``size``."""
    one_hot = numpy.zeros((len(ids), size), dtype=numpy.int64)
    one_hot[numpy.arange(len(ids)), numpy.asarray(ids, dtype=numpy.int64)] = 1
    before = numpy.cumsum(one_hot, axis=0) - one_hot  # counts strictly before each j
    table: Table = before.T @ one_hot
    return table


def table_counts(hyp_ids: Sequence[int], ref_ids: Sequence[int], size: int,
                 options: RougeOptions) -> PairCounts:
    """``rouge_pair_counts.skip_gram_counts`` of texts coded by ``_coded``, with no
    skip limit: the skip-bigram tables, and for -SU the unigram counts
    (``su_unigrams``: every token, or all but the last), compared cell by cell."""
    tables = [(pair_table(hyp_ids, size), pair_table(ref_ids, size))]
    if options.variant == "su":
        last = None if options.su_unigrams == "paper" else -1
        tables.append((numpy.bincount(hyp_ids[:last], minlength=size),
                       numpy.bincount(ref_ids[:last], minlength=size)))
    if options.counts == "set":
        return PairCounts(sum(int(numpy.count_nonzero((h > 0) & (r > 0))) for h, r in tables),
                          sum(int(numpy.count_nonzero(h)) for h, _ in tables),
                          sum(int(numpy.count_nonzero(r)) for _, r in tables))
    return PairCounts(sum(int(numpy.minimum(h, r).sum()) for h, r in tables),
                      sum(int(h.sum()) for h, _ in tables), sum(int(r.sum()) for _, r in tables))


__all__ = ["FEWEST_TOKENS", "SQUARED_VOCABULARY_PER_TOKEN", "pair_table", "table_counts",
           "worth_a_table"]

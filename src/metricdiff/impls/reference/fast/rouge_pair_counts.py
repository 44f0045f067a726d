"""A fast path for ``rouge_counts.pair_counts`` where the audit spends its time:
ROUGE-S and -SU skip-bigrams, ROUGE-1.5.5's ROUGE-W marks, and the same pair
counted again under another profile.

Not a definition: ``rouge_counts`` and ``lcs`` are the reference, and
tests/impls/reference/fast/test_rouge_pair_counts.py holds this module equal to them (exact values).

The audit's explainer scores the same few cases under many profiles.  Those
that differ only after the counts already share them (``rouge.counting_options``);
those that differ in the text pipeline (``lowercase`` on a text with no capital,
a stemmer that stems none of its words) often give the same tokens, and then
the same counts, which are remembered here by the tokens (``remembered_pair_counts``).
What is counted afresh is counted with loops in C:

* skip-bigrams: the tokens numbered, each pair (a, b) one number, the pairs
  ``gap`` apart made by ``map`` for each gap and counted by Counter's C helper
  (``ngram_counts``), where the readable ``skip_bigram_counts`` builds a tuple
  per index pair in a generator; texts long beside their vocabulary, with no
  skip limit, by tables of token pairs (``skip_bigram_tables``);
* ROUGE-1.5.5's WLCS marks: the values of the table ``lcs.wlcs_marks`` fills,
  one inlined loop per row with the weights f(k) looked up, computed by the
  same expressions in the same order, so every cell is the same float; the
  moves are read off those values on the walk back instead of being stored.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Hashable, Sequence
from functools import lru_cache

import attrs

from metricdiff.impls.reference import lcs, rouge_counts
from metricdiff.impls.reference.fast.ngram_counts import Grams, clipped, count_elements
from metricdiff.impls.reference.fast.skip_bigram_tables import table_counts, worth_a_table
from metricdiff.impls.reference.rouge_corpus import corpus_rouge
from metricdiff.impls.reference.rouge_counts import COUNT_AXES, PairCounts
from metricdiff.impls.reference.rouge_text import Sentences
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

Tokens = Sequence[Hashable]


def skip_units(ids: Sequence[int], size: int, options: RougeOptions) -> Grams:
    """``rouge_counts.units`` for ROUGE-S and -SU, of tokens coded as numbers
    below ``size`` (``_coded``): the skip-bigram (a, b) is the number
    size² + a·size + b, the pairs ``gap`` apart summed by ``map`` for each gap
    up to skip + 1 (every gap for ``skip = -1``); -SU adds each token's own
    number (every token, or all but the last for ``su_unigrams=rouge155``)."""
    counts: Grams = {}
    firsts = [size * (size + token) for token in ids]
    reach = len(ids) - 1 if options.skip < 0 else min(options.skip + 1, len(ids) - 1)
    for gap in range(1, reach + 1):
        count_elements(counts, map(operator.add, firsts[:-gap], ids[gap:]))
    if options.variant == "su":
        count_elements(counts, ids if options.su_unigrams == "paper" else ids[:-1])
    return counts


def _coded(hyp: Tokens, ref: Tokens) -> tuple[list[int], list[int], int]:
    """Both sides' tokens as numbers, equal tokens the same number, and how many
    numbers there are: a number hashes and adds faster than a tuple of strings."""
    numbers: dict[Hashable, int] = {}
    hyp_ids = [numbers.setdefault(token, len(numbers)) for token in hyp]
    ref_ids = [numbers.setdefault(token, len(numbers)) for token in ref]
    return hyp_ids, ref_ids, len(numbers)


def skip_gram_counts(hyp: Tokens, ref: Tokens, options: RougeOptions) -> PairCounts:
    """``rouge_counts.gram_counts`` of the ROUGE-S or -SU units of both sides (by
    the tables of ``skip_bigram_tables`` where that is quicker)."""
    hyp_ids, ref_ids, size = _coded(hyp, ref)
    if worth_a_table(len(hyp_ids), len(ref_ids), size, options):
        return table_counts(hyp_ids, ref_ids, size, options)
    hyp_units, ref_units = skip_units(hyp_ids, size, options), skip_units(ref_ids, size, options)
    if options.counts == "set":
        return PairCounts(len(hyp_units.keys() & ref_units.keys()), len(hyp_units),
                          len(ref_units))
    return PairCounts(clipped(hyp_units, ref_units), sum(hyp_units.values()),
                      sum(ref_units.values()))


def wlcs_marks(ref: Tokens, hyp: Tokens, weight: float) -> list[int]:
    """``lcs.wlcs_marks``: the values c of the table of ``lcs._wlcs_rows``, then
    the same walk back from (m, n), each move read off the values as that table
    chose it (diagonal on equal tokens, else up when c(i-1, j) >= c(i, j-1)).

    The walk takes every pair of equal tokens it meets without reading the
    table, so the texts' common ending is marked first and the table is made
    for what comes before it alone (c(i, j) depends on ref[:i] and hyp[:j]
    only): nothing of it for a sentence against itself, which the audit's
    generated cases often have, hundreds of tokens long."""
    i, j = len(ref), len(hyp)
    while i > 0 and j > 0 and ref[i - 1] == hyp[j - 1]:
        i, j = i - 1, j - 1
    ending = range(i, len(ref))
    rows = _wlcs_values(ref[:i], hyp[:j], weight)
    marks: list[int] = []
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            i, j = i - 1, j - 1
            marks.append(i)
        elif rows[i - 1][j] >= rows[i][j - 1]:
            i -= 1
        else:
            j -= 1
    marks.reverse()
    marks += ending
    return marks


def _wlcs_values(ref: Tokens, hyp: Tokens, weight: float) -> list[list[float]]:
    """The rows c(i, ·), i = 0..m, of the WLCS table (``lcs._wlcs_rows``): one
    inlined loop per row, f looked up; a match cell adds f(k+1) - f(k) to the
    cell up and left in the table's order, any other cell takes the larger of
    the cell above and the cell before it.  A row whose token the hypothesis
    lacks is therefore the running maximum of the row above (``accumulate``)."""
    n = len(hyp)
    f = [lcs.wlcs_weight(k, weight) for k in range(min(len(ref), n) + 2)]
    present = set(hyp)
    no_runs = [0] * (n + 1)
    c_prev, w_prev = [0.0] * (n + 1), no_runs
    rows = [c_prev]
    for ref_token in ref:
        if ref_token not in present:
            c_prev, w_prev = list(itertools.accumulate(c_prev, max)), no_runs
            rows.append(c_prev)
            continue
        c_row = [0.0] * (n + 1)
        w_row = [0] * (n + 1)
        left = 0.0  # c(i, j - 1)
        for j, hyp_token in enumerate(hyp, start=1):
            if ref_token == hyp_token:
                k = w_prev[j - 1]
                left = c_prev[j - 1] + f[k + 1] - f[k]
                w_row[j] = k + 1
            elif c_prev[j] > left:
                left = c_prev[j]
            c_row[j] = left
        rows.append(c_row)
        c_prev, w_prev = c_row, w_row
    return rows


def wlcs(ref: Tokens, hyp: Tokens, weight: float) -> float:
    """``lcs.wlcs``: c(m, n) of the table (a tie between up and left gives the
    cell the same value whichever move is recorded)."""
    return _wlcs_values(ref, hyp, weight)[-1][len(hyp)]


def remembered_wlcs_marks(ref: Sequence[str], hyp: Sequence[str], weight: float
                          ) -> tuple[int, ...]:
    """``wlcs_marks``, remembered by the two sentences: profiles whose text
    pipelines differ still share most sentences."""
    return _remembered_marks(tuple(ref), tuple(hyp), weight)


@lru_cache(maxsize=1 << 16)
def _remembered_marks(ref: tuple[str, ...], hyp: tuple[str, ...], weight: float
                      ) -> tuple[int, ...]:
    return tuple(wlcs_marks(ref, hyp, weight))


def fast_pair_counts(hyp: Sentences, ref: Sentences, options: RougeOptions,
                     marks: rouge_counts.Marks = wlcs_marks) -> PairCounts:
    """``rouge_counts.pair_counts``, skip-bigrams, WLCS and ROUGE-1.5.5's WLCS
    marks (``marks``) by the fast paths above; every other variant by the
    reference itself."""
    if not any(hyp) and not any(ref):
        return PairCounts(0, 0, 0, empty=True)
    if options.variant in ("s", "su"):
        return skip_gram_counts(_joined(hyp), _joined(ref), options)
    if options.variant == "w" and options.wlcs == "rouge155":
        return rouge_counts.wlcs_rouge155_counts(hyp, ref, options.weight, marks=marks)
    if options.variant == "w":
        return rouge_counts.wlcs_counts(_joined(hyp), _joined(ref), options.weight, wlcs=wlcs)
    return rouge_counts.pair_counts(hyp, ref, options)


def _joined(sentences: Sentences) -> list[str]:
    return sentences[0] if len(sentences) == 1 else [t for s in sentences for t in s]


FrozenSentences = tuple[tuple[str, ...], ...]


def remembered_pair_counts(hyp: Sentences, ref: Sentences, options: RougeOptions
                           ) -> PairCounts:
    """``fast_pair_counts``, remembered by the tokens and the ``COUNT_AXES``."""
    return _remembered(_frozen(hyp), _frozen(ref), count_options(options))


def _frozen(sentences: Sentences) -> FrozenSentences:
    return tuple(map(tuple, sentences))


@lru_cache(maxsize=1 << 12)
def count_options(options: RougeOptions) -> RougeOptions:
    """The paper's options with ``options``' ``COUNT_AXES``: the key under which
    a pair's counts are remembered."""
    return attrs.evolve(RougeOptions(), **{axis: getattr(options, axis) for axis in COUNT_AXES})


@lru_cache(maxsize=1 << 16)
def _remembered(hyp: FrozenSentences, ref: FrozenSentences, options: RougeOptions
                ) -> PairCounts:
    return fast_pair_counts([list(s) for s in hyp], [list(s) for s in ref], options,
                            remembered_wlcs_marks)


#: A corpus of this many segments or more is counted without remembering
#: (``fast_pair_counts``): its pairs are seldom counted again, and remembering
#: their tokens would only hold memory.  The audit's cases are smaller.
REMEMBER_BELOW = 256


def fast_corpus_rouge(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                      options: RougeOptions) -> RougeResult:
    """``rouge_corpus.corpus_rouge``, each pair counted by ``remembered_pair_counts``
    (by ``fast_pair_counts`` from ``REMEMBER_BELOW`` segments on)."""
    small = len(hyps) < REMEMBER_BELOW
    return corpus_rouge(hyps, refs, options,
                        count=remembered_pair_counts if small else fast_pair_counts)


__all__ = ["COUNT_AXES", "REMEMBER_BELOW", "count_options", "fast_corpus_rouge", "fast_pair_counts",
           "remembered_pair_counts", "remembered_wlcs_marks", "skip_gram_counts",
           "skip_units", "wlcs", "wlcs_marks"]

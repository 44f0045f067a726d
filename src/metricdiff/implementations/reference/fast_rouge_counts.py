"""A fast path for ``rouge_counts.pair_counts`` where the audit spends its time:
ROUGE-S and -SU skip-bigrams, ROUGE-1.5.5's ROUGE-W marks, and the same pair
counted again under another profile.

Not a definition: ``rouge_counts`` and ``lcs`` are the reference, and
tests/test_fast_rouge_counts.py holds this module equal to them (exact values).

The audit's explainer scores the same few cases under many profiles.  Those
that differ only after the counts already share them (``rouge.counting_options``);
those that differ in the text pipeline (``lowercase`` on a text with no capital,
a stemmer that stems none of its words) often give the same tokens, and then
the same counts, which are remembered here by the tokens (``remembered_pair_counts``).
What is counted afresh is counted with loops in C:

* skip-bigrams: every pair at most ``skip + 1`` apart is ``zip(tokens,
  tokens[gap:])`` for each gap, or ``itertools.combinations`` when the skip is
  unlimited, counted by Counter's C helper (``fast_counting``), where the
  readable ``skip_bigram_counts`` runs a generator over index pairs;
* ROUGE-1.5.5's WLCS marks: the table ``lcs.wlcs_marks`` fills, in one
  inlined loop over the hypothesis with the weights f(k) looked up, computed by
  the same expression in the same order, so every cell's value is the same float.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from functools import lru_cache

import attrs

from metricdiff.implementations.reference import lcs, rouge_counts
from metricdiff.implementations.reference.fast_counting import Grams, _count_elements, clipped
from metricdiff.implementations.reference.rouge_corpus import corpus_rouge
from metricdiff.implementations.reference.rouge_counts import PairCounts
from metricdiff.implementations.reference.rouge_text import Sentences
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

Tokens = Sequence[Hashable]

#: The axes ``rouge_counts.pair_counts`` reads: two profiles equal on these give
#: the same counts for the same tokens.
COUNT_AXES = ("variant", "n", "skip", "su_unigrams", "counts", "wlcs", "weight")


def skip_bigram_counts(tokens: Tokens, skip: int) -> Grams:
    """``rouge_counts.skip_bigram_counts``: the pairs (tokens[i], tokens[j]),
    1 <= j - i <= skip + 1 (any j > i for ``skip = -1``), counted."""
    counts: Grams = {}
    if skip < 0 or skip + 2 >= len(tokens):
        _count_elements(counts, itertools.combinations(tokens, 2))
    else:
        for gap in range(1, skip + 2):
            _count_elements(counts, zip(tokens, tokens[gap:], strict=False))
    return counts


def skip_units(tokens: Tokens, options: RougeOptions) -> Grams:
    """``rouge_counts.units`` for ROUGE-S and -SU: the skip-bigrams, and for
    -SU the unigrams as 1-tuples (every token, or all but the last for
    ``su_unigrams=rouge155``)."""
    counts = skip_bigram_counts(tokens, options.skip)
    if options.variant == "su":
        kept = tokens if options.su_unigrams == "paper" else tokens[:-1]
        _count_elements(counts, zip(kept))
    return counts


def skip_gram_counts(hyp: Tokens, ref: Tokens, options: RougeOptions) -> PairCounts:
    """``rouge_counts.gram_counts`` of the skip units of both sides."""
    hyp_units, ref_units = skip_units(hyp, options), skip_units(ref, options)
    if options.counts == "set":
        return PairCounts(len(hyp_units.keys() & ref_units.keys()), len(hyp_units),
                          len(ref_units))
    return PairCounts(clipped(hyp_units, ref_units), sum(hyp_units.values()),
                      sum(ref_units.values()))


def wlcs_marks(ref: Tokens, hyp: Tokens, weight: float) -> list[int]:
    """``lcs.wlcs_marks``: the table of ``lcs._wlcs_rows`` with ``up_on_tie``,
    keeping only the moves, then the same walk back from (m, n)."""
    n = len(hyp)
    f = [lcs.wlcs_weight(k, weight) for k in range(min(len(ref), n) + 2)]
    c_prev = [0.0] * (n + 1)
    w_prev = [0] * (n + 1)
    moves = [[0] * (n + 1)]
    for ref_token in ref:
        c_row = [0.0] * (n + 1)
        w_row = [0] * (n + 1)
        move_row = [0] * (n + 1)
        left = 0.0  # c(i, j-1)
        for j, hyp_token in enumerate(hyp, start=1):
            if ref_token == hyp_token:
                k = w_prev[j - 1]
                left = c_prev[j - 1] + f[k + 1] - f[k]
                w_row[j] = k + 1
                move_row[j] = lcs.DIAGONAL
            elif c_prev[j] >= left:
                left = c_prev[j]
                move_row[j] = lcs.UP
            else:
                move_row[j] = lcs.LEFT
            c_row[j] = left
        moves.append(move_row)
        c_prev, w_prev = c_row, w_row
    i, j = len(ref), n
    marks: list[int] = []
    while i > 0 and j > 0:
        move = moves[i][j]
        if move == lcs.DIAGONAL:
            i, j = i - 1, j - 1
            marks.append(i)
        elif move == lcs.UP:
            i -= 1
        else:
            j -= 1
    marks.reverse()
    return marks


def fast_pair_counts(hyp: Sentences, ref: Sentences, options: RougeOptions) -> PairCounts:
    """``rouge_counts.pair_counts``, skip-bigrams and ROUGE-1.5.5's WLCS marks
    by the fast paths above; every other variant by the reference itself."""
    if not any(hyp) and not any(ref):
        return PairCounts(0, 0, 0, empty=True)
    if options.variant in ("s", "su"):
        return skip_gram_counts(_joined(hyp), _joined(ref), options)
    if options.variant == "w" and options.wlcs == "rouge155":
        return rouge_counts.wlcs_rouge155_counts(hyp, ref, options.weight, marks=wlcs_marks)
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
    return fast_pair_counts([list(s) for s in hyp], [list(s) for s in ref], options)


def fast_corpus_rouge(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                      options: RougeOptions) -> RougeResult:
    """``rouge_corpus.corpus_rouge``, each pair counted by ``remembered_pair_counts``."""
    return corpus_rouge(hyps, refs, options, count=remembered_pair_counts)


__all__ = ["COUNT_AXES", "count_options", "fast_corpus_rouge", "fast_pair_counts",
           "remembered_pair_counts", "skip_bigram_counts", "skip_units", "wlcs_marks"]

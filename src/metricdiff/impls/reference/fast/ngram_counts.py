"""N-gram counting for the fast paths (``rouge_variants``, ``bleu_statistics``): each
order counted into a plain dict by Counter's C helper, clipped matches taken
over the key intersection with ``map``, so that both loops run in C.

Not a definition: ``rouge_counts.ngram_counts`` and ``bleu.ngram_counts`` are;
the fast paths' tests hold these equal to them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

Grams = dict[Hashable, int]


def _count_into(counts: Grams, items: Iterable[Hashable]) -> None:
    for item in items:
        counts[item] = counts.get(item, 0) + 1


# Counter's own C helper (what ``Counter(items)`` calls after its Python-level
# checks); the loop above where an interpreter lacks it.
count_elements: Callable[[Grams, Iterable[Hashable]], None] = getattr(
    __import__("collections"), "_count_elements", _count_into)


def order_counts(tokens: Sequence[str], n: int) -> Grams:
    """The n-grams of one order n and their counts; a unigram is its token, a
    longer n-gram a tuple."""
    counts: Grams = {}
    count_elements(counts, tokens if n == 1 else zip(*(tokens[i:] for i in range(n)),
                                                        strict=False))
    return counts


def clipped(hyp: Grams, ref: Grams) -> int:
    """Σ min(count in ``hyp``, count in ``ref``) over the n-grams in both."""
    common = hyp.keys() & ref.keys()
    return sum(map(min, map(hyp.__getitem__, common), map(ref.__getitem__, common)))


__all__ = ["Grams", "clipped", "order_counts"]

"""A fast path for ``rouge_shared.score_variants``: ROUGE-N and sentence-level
ROUGE-L of a corpus, several variants in one pass.

Not a definition: ``rouge_counts`` and ``rouge`` are the reference, and
tests/test_fast_rouge.py holds this module equal to ``rouge_shared.score_variants``
result for result (exact floats).  It covers the variants the multi-metric
``score`` call mostly asks for (``variant=n`` and ``variant=l``);
``fast_score_variants`` returns None for anything else, and the caller then
takes the readable path.

Where the time goes in the readable path, and what is done instead here:

* a Counter per side and per n, then ``min`` of the two counts of every n-gram
  in a generator: here the common n-grams' counts are taken with ``map`` over
  the key intersection, so the loop runs in C;
* the bit-parallel LCS (``lcs.lcs_length``) goes through a generator and a
  deque: here it is one inlined loop;
* the text pipeline (``rouge_text.text_sentences``): a one-line text with no
  truncation, stopwords or stemming is only case folding and tokenizing, which
  is called directly;
* a segment with one reference needs no multi-reference rule: every rule of
  ``combine_references`` but ``mean`` and ``max-p-max-r`` gives that pair's
  result, which is formed from the counts directly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from metricdiff.implementations.reference.rouge import (
    combine_references,
    corpus_from_pairs,
    result_from_counts,
    rounded,
    usable_references,
)
from metricdiff.implementations.reference.rouge_counts import PairCounts
from metricdiff.implementations.reference.rouge_shared import (
    VariantScores,
    text_key,
    text_options,
)
from metricdiff.implementations.reference.rouge_text import text_sentences
from metricdiff.implementations.text.tokenizers import preprocess
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

#: The multi-reference rules under which one reference's result is its pair's.
_ONE_REFERENCE_IS_THE_PAIR = ("best-f", "best-recall", "pooled", "jackknife")

Tokens = Sequence[str]


def covers(options: RougeOptions) -> bool:
    """Whether the fast path computes ``options``' variant."""
    return options.variant in ("n", "l")


def _plain(pipeline: RougeOptions) -> bool:
    """A pipeline that is only case folding and tokenizing (for a one-line text)."""
    return pipeline.truncate == "none" and pipeline.stopwords == "none" and (
        pipeline.stemmer == "none"
    )


def _flat_tokens(text: str, pipeline: RougeOptions, plain: bool, truncate: bool) -> Tokens:
    """The tokens ``text_sentences`` gives, joined."""
    if plain and "\n" not in text:
        return preprocess(text, pipeline.tokenize, pipeline.lowercase, pipeline.lowercase_stage)
    sentences = text_sentences(text, pipeline, truncate=truncate)
    return sentences[0] if len(sentences) == 1 else [t for s in sentences for t in s]


def clipped_ngram_matches(
    hyp: Tokens, ref: Tokens, n: int, counts: str = "multiset"
) -> tuple[int, int, int]:
    """Clipped n-gram matches and both n-gram totals (as ``rouge_counts.gram_counts``);
    with ``counts=set`` each distinct n-gram once."""
    if n == 1:
        hyp_grams: Counter[Hashable] = Counter(hyp)
        ref_grams: Counter[Hashable] = Counter(ref)
    else:
        hyp_grams = Counter(zip(*(hyp[i:] for i in range(n)), strict=False))
        ref_grams = Counter(zip(*(ref[i:] for i in range(n)), strict=False))
    common = hyp_grams.keys() & ref_grams.keys()
    if counts == "set":
        return len(common), len(hyp_grams), len(ref_grams)
    matches = sum(map(min, map(hyp_grams.__getitem__, common), map(ref_grams.__getitem__, common)))
    return matches, max(len(hyp) - n + 1, 0), max(len(ref) - n + 1, 0)


def lcs_length(a: Tokens, b: Tokens) -> int:
    """|LCS(a, b)|: ``lcs.lcs_length``'s bit-parallel recurrence, inlined."""
    if len(a) < len(b):
        a, b = b, a
    masks: dict[str, int] = {}
    bit = 1
    for token in a:
        masks[token] = masks.get(token, 0) | bit
        bit <<= 1
    v = -1
    get = masks.get
    for token in b:
        match = get(token)
        if match is not None:
            u = v & match
            v = (v + u) | (v - u)
    return (~v).bit_count()


def fast_pair_counts(hyp: Tokens, ref: Tokens, options: RougeOptions) -> PairCounts:
    """``rouge_counts.pair_counts`` of two token sequences, for a covered variant."""
    if not hyp and not ref:
        return PairCounts(0, 0, 0, empty=True)
    if options.variant == "l":
        return PairCounts(lcs_length(hyp, ref), len(hyp), len(ref))
    return PairCounts(*clipped_ngram_matches(hyp, ref, options.n, options.counts))


def _segment_result(counts: list[PairCounts], options: RougeOptions) -> RougeResult:
    if len(counts) == 1 and options.multi_ref in _ONE_REFERENCE_IS_THE_PAIR:
        result = result_from_counts(counts[0], options)
    else:
        result = combine_references(counts, options)
    return rounded(result, options, recompute_f=True)


def fast_score_variants(
    hyps: Sequence[str], refs: Sequence[Sequence[str | None]], variants: Sequence[RougeOptions]
) -> list[VariantScores] | None:
    """``rouge_shared.score_variants(hyps, refs, variants)``, or None when a variant
    is not covered."""
    if not all(covers(options) for options in variants):
        return None
    keys = [text_key(options) for options in variants]
    pipelines = {key: text_options(options) for key, options in zip(keys, variants, strict=True)}
    slots = {key: slot for slot, key in enumerate(pipelines)}
    steps = [(p, _plain(p), p.truncate_side == "both") for p in pipelines.values()]
    plan: list[tuple[RougeOptions, int, list[RougeResult], list[int]]] = [
        (options, slots[key], [], [0]) for options, key in zip(variants, keys, strict=True)
    ]
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        references = usable_references(seg_refs)
        tokens = [
            (
                _flat_tokens(hyp, pipeline, plain, True),
                [_flat_tokens(ref, pipeline, plain, truncate_refs) for ref in references],
            )
            for pipeline, plain, truncate_refs in steps
        ]
        for options, slot, pairs, empties in plan:
            hyp_tokens, ref_tokens = tokens[slot]
            counts = [fast_pair_counts(hyp_tokens, ref, options) for ref in ref_tokens]
            if all(count.empty for count in counts):
                empties[0] += 1
            pairs.append(_segment_result(counts, options))
    return [
        VariantScores(corpus_from_pairs(pairs, empties[0], options), tuple(pairs))
        for options, _, pairs, empties in plan
    ]


__all__ = ["covers", "fast_pair_counts", "fast_score_variants", "lcs_length"]

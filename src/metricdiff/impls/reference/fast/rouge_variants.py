"""A fast path for ``rouge_shared.score_variants``: ROUGE-N and sentence-level
ROUGE-L of a corpus, several variants in one pass.

Not a definition: ``rouge_counts`` and ``rouge`` are the reference, and
tests/impls/reference/fast/test_rouge_variants.py holds this module equal to
``rouge_shared.score_variants`` result for result (exact floats). It covers the
variants the multi-metric ``score`` call mostly asks for (``variant=n`` and
``variant=l``); ``fast_score_variants`` returns None for anything else, and the
caller then takes the readable path.

Where the time goes in the readable path, and what is done instead here:

* a Counter per side and per n, then ``min`` of the two counts of every n-gram
  in a generator: here ``ngram_counts`` counts and clips, with loops in C;
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

from collections.abc import Hashable, Sequence
from functools import lru_cache

from metricdiff.impls.reference.fast.ngram_counts import clipped, order_counts
from metricdiff.impls.reference.rouge import (
    FORM_AXES,
    combine_references,
    result_from_counts,
    rounded,
)
from metricdiff.impls.reference.rouge_corpus import per_segment
from metricdiff.impls.reference.rouge_counts import PairCounts
from metricdiff.impls.reference.rouge_shared import (
    CorpusVariants,
    VariantScores,
    first_alike,
    text_key,
    text_options,
)
from metricdiff.impls.reference.rouge_text import text_sentences
from metricdiff.impls.segment_references import usable_rouge_references
from metricdiff.impls.text.tokenizers import get_tokenizer, preprocess
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

#: The multi-reference rules under which one reference's result is its pair's.
_ONE_REFERENCE_IS_THE_PAIR = ("best-f", "best-recall", "pooled", "jackknife")

Tokens = Sequence[str]


def covers(options: RougeOptions) -> bool:
    """Whether the fast path computes ``options``' variant."""
    return options.variant in ("n", "l")


def clipped_ngram_matches(
    hyp: Tokens, ref: Tokens, n: int, counts: str = "multiset"
) -> tuple[int, int, int]:
    """Clipped n-gram matches and both n-gram totals (as ``rouge_counts.gram_counts``);
    with ``counts=set`` each distinct n-gram once."""
    hyp_grams, ref_grams = order_counts(hyp, n), order_counts(ref, n)
    if counts == "set":
        return len(hyp_grams.keys() & ref_grams.keys()), len(hyp_grams), len(ref_grams)
    return clipped(hyp_grams, ref_grams), max(len(hyp) - n + 1, 0), max(len(ref) - n + 1, 0)


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


_EMPTY = PairCounts(0, 0, 0, empty=True)


def fast_pair_counts(hyp: Tokens, ref: Tokens, options: RougeOptions) -> PairCounts:
    """``rouge_counts.pair_counts`` of two token sequences, for a covered variant."""
    if not hyp and not ref:
        return _EMPTY
    if options.variant == "l":
        return PairCounts(lcs_length(hyp, ref), len(hyp), len(ref))
    return PairCounts(*clipped_ngram_matches(hyp, ref, options.n, options.counts))


class _Pipeline:
    """One ``text_options`` pipeline: a text's tokens as ``text_sentences`` gives
    them, joined; a one-line text under a plain pipeline goes straight to the
    tokenizer."""

    def __init__(self, pipeline: RougeOptions) -> None:
        self.options = pipeline
        self.truncate_refs = pipeline.truncate_side == "both"
        plain = pipeline.truncate == "none" and pipeline.stopwords == "none" and (
            pipeline.stemmer == "none")
        self.tokenizer = get_tokenizer(pipeline.tokenize) if plain and (
            pipeline.lowercase == "none") else None
        self.plain = plain

    def tokens(self, text: str, truncate: bool) -> Tokens:
        if self.plain and "\n" not in text:
            if self.tokenizer is not None:
                return self.tokenizer(text)
            pipeline = self.options
            return preprocess(text, pipeline.tokenize, pipeline.lowercase,
                              pipeline.lowercase_stage)
        return _pipeline_tokens(self, text, truncate)

    def segment(self, hyp: str, references: Sequence[str]) -> tuple[Tokens, list[Tokens]]:
        return self.tokens(hyp, True), [self.tokens(ref, self.truncate_refs)
                                        for ref in references]


# Remembered, by the pipeline object (``_pipeline`` makes one per text key):
# the explainer and the attribution score one corpus under many profiles in
# pass after pass, and most passes share most pipelines.  A one-line text of a
# plain pipeline is remembered by its tokenizer already.
@lru_cache(maxsize=1 << 16)
def _pipeline_tokens(pipeline: _Pipeline, text: str, truncate: bool) -> tuple[str, ...]:
    sentences = text_sentences(text, pipeline.options, truncate=truncate)
    return tuple(sentences[0] if len(sentences) == 1 else (t for s in sentences for t in s))


#: One pipeline per ``text_key``, made for the first variant with that key.
#: Keyed by the options, the pipelines of ROUGE-1 and ROUGE-2 would differ
#: (in ``n``, which no text step reads), and compare's attribution of ROUGE-2
#: tokenized the corpus again after ROUGE-1's (21,000 texts on 500 segments).
_PIPELINES: dict[Hashable, _Pipeline] = {}


def _pipeline(key: Hashable, options: RougeOptions) -> _Pipeline:
    """The pipeline of ``text_options`` ``options``, whose ``text_key`` is ``key``."""
    if key not in _PIPELINES:
        if len(_PIPELINES) >= 1 << 10:  # bounded, as the lru_cache before it was
            _PIPELINES.clear()
        _PIPELINES[key] = _Pipeline(options)
    return _PIPELINES[key]


class FastVariants:
    """Covered variants (``covers``) scored one segment at a time: what the loop
    of ``rouge_shared.score_variants`` does for one segment.  Each text is
    tokenized once per distinct ``text_key``, each pair counted once per
    distinct tokens and counting key (``_count_key``), and each segment's
    result formed once per distinct counts and ``FORM_AXES``: the audit's
    explainer scores one corpus under dozens of profiles at once, most of which
    share all three."""

    def __init__(self, variants: Sequence[RougeOptions]) -> None:
        keys = [text_key(options) for options in variants]
        pipelines = {key: _pipeline(key, text_options(options))
                     for key, options in zip(keys, variants, strict=True)}
        slots = {key: slot for slot, key in enumerate(pipelines)}
        self.pipelines = list(pipelines.values())
        counted = {(slots[key], _count_key(options)): options
                   for key, options in zip(keys, variants, strict=True)}
        self.counted = [(slot, options) for (slot, _), options in counted.items()]
        self.count_keys = [key for _, key in counted]
        count_slots = {key: index for index, key in enumerate(counted)}
        formed = {(count_slots[(slots[key], _count_key(options))], per_segment(options)): options
                  for key, options in zip(keys, variants, strict=True)}
        self.formed = [(count_slot, options, options.multi_ref in _ONE_REFERENCE_IS_THE_PAIR)
                       for (count_slot, _), options in formed.items()]
        self.form_keys = first_alike([tuple(getattr(options, axis) for axis in FORM_AXES)
                                      for options in formed.values()])  # by number: cheap
        result_slots = {key: index for index, key in enumerate(formed)}
        self.plan = [result_slots[(count_slots[(slots[key], _count_key(options))],
                                   per_segment(options))]
                     for key, options in zip(keys, variants, strict=True)]

    def segment(self, hyp: str, refs: Sequence[str | None]) -> list[tuple[RougeResult, bool]]:
        """Each variant's result for one segment, and whether the segment was
        empty (no token on either side, against every reference)."""
        references = usable_rouge_references(refs)
        tokens = [pipeline.segment(hyp, references) for pipeline in self.pipelines]
        # pipelines that differ often give a text the same tokens: counted once
        alike = first_alike([(tuple(hyp_tokens), tuple(map(tuple, ref_tokens)))
                             for hyp_tokens, ref_tokens in tokens])
        done: dict[tuple[int, tuple[str, int, str]], list[PairCounts]] = {}
        counted = []
        for (slot, options), key in zip(self.counted, self.count_keys, strict=True):
            same = (alike[slot], key)
            if same not in done:
                hyp_tokens, ref_tokens = tokens[slot]
                done[same] = [fast_pair_counts(hyp_tokens, ref, options) for ref in ref_tokens]
            counted.append(done[same])
        made: dict[tuple[int, int], tuple[RougeResult, bool]] = {}
        formed = []
        for (count_slot, options, one_is_the_pair), form in zip(self.formed, self.form_keys,
                                                                 strict=True):
            counts = counted[count_slot]
            twin = (id(counts), form)  # the same counts, formed alike: formed once
            if twin not in made:
                if len(counts) == 1 and one_is_the_pair:
                    result = result_from_counts(counts[0], options)
                else:
                    result = combine_references(counts, options)
                made[twin] = (rounded(result, options, recompute_f=True),
                              all(count.empty for count in counts))
            formed.append(made[twin])
        return [formed[slot] for slot in self.plan]


def _count_key(options: RougeOptions) -> tuple[str, int, str]:
    """What ``fast_pair_counts`` reads of ``options``, given the tokens."""
    if options.variant == "l":
        return ("l", 0, "")
    return (options.variant, options.n, options.counts)


def fast_corpus_variants(
    variants: Sequence[RougeOptions], *, keep_segments: bool
) -> CorpusVariants | None:
    """``rouge_shared.CorpusVariants`` scoring each segment by the fast path, or
    None when a variant is not covered."""
    if not all(covers(options) for options in variants):
        return None
    return CorpusVariants(variants, keep_segments=keep_segments,
                          segment=FastVariants(variants).segment)


def fast_score_variants(
    hyps: Sequence[str], refs: Sequence[Sequence[str | None]], variants: Sequence[RougeOptions]
) -> list[VariantScores] | None:
    """``rouge_shared.score_variants(hyps, refs, variants)``, or None when a variant
    is not covered."""
    corpus = fast_corpus_variants(variants, keep_segments=True)
    if corpus is None:
        return None
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        corpus.add(hyp, seg_refs)
    return corpus.results()


__all__ = ["FastVariants", "covers", "fast_corpus_variants", "fast_pair_counts",
           "fast_score_variants", "lcs_length"]

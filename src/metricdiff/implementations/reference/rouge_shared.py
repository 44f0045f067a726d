"""Several ROUGE variants of one corpus, each text tokenized once for all of them.

``rouge.corpus_rouge`` scores one variant; called once per variant it runs the
text pipeline (ROUGE-TOKENIZE: truncation, sentences, tokens, stopwords,
stemming) on every text again.  The pipeline's output depends only on the text
axes, not on the variant, except that variants looking at sentences (ROUGE-LSUM,
and ROUGE-W with ``wlcs=rouge155``) keep a segment's sentences apart where the
others join them.  The others only
ever read the joined tokens (``pair_counts`` flattens what it is given), and
splitting at line breaks is what they do too, so the sentences split at line
breaks serve both.  Variants with the same text axes therefore share one
tokenization per text; the results are those of ``corpus_rouge`` and
``sentence_rouge``, number for number.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import attrs

from metricdiff.implementations.reference.rouge import (
    combine_references,
    corpus_from_pairs,
    rounded,
    usable_references,
)
from metricdiff.implementations.reference.rouge_counts import pair_counts
from metricdiff.implementations.reference.rouge_text import (
    Sentences,
    by_sentence,
    text_sentences,
)
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult


def text_options(options: RougeOptions) -> RougeOptions:
    """Options under which ``text_sentences`` gives tokens that ``options``'
    variant can use: kept in sentences, split as ``options`` split them, or at
    line breaks for a variant that joins them."""
    split = options.sentence_split if by_sentence(options) else "newline"
    return attrs.evolve(options, variant="lsum", sentence_split=split)


def text_key(options: RougeOptions) -> Hashable:
    """What ``text_sentences`` under ``text_options(options)`` depends on: two
    variants with the same key can share tokens."""
    shared = text_options(options)
    return (
        shared.sentence_split, shared.truncate, shared.truncate_side, shared.tokenize,
        shared.lowercase, shared.lowercase_stage, shared.stopwords, shared.stemmer,
        shared.stem_min_length,
    )


@attrs.frozen
class VariantScores:
    """One variant's corpus result and each segment's (``sentence_rouge``'s)."""

    corpus: RougeResult
    segments: tuple[RougeResult, ...]


def score_variants(
    hyps: Sequence[str], refs: Sequence[Sequence[str | None]], variants: Sequence[RougeOptions]
) -> list[VariantScores]:
    """Each options in ``variants`` on the corpus (ROUGE-CORPUS-AVERAGE), in order, as
    ``corpus_rouge`` and ``sentence_rouge`` score them, with each text tokenized
    once per distinct ``text_key``."""
    keys = [text_key(options) for options in variants]
    pipelines = {key: text_options(options) for key, options in zip(keys, variants, strict=True)}
    slots = {key: slot for slot, key in enumerate(pipelines)}
    # Per variant: its options, the slot of its tokens, its segments' results and
    # its count of empty segments (one cell, to be added to in the loop).
    plan: list[tuple[RougeOptions, int, list[RougeResult], list[int]]] = [
        (options, slots[key], [], [0]) for options, key in zip(variants, keys, strict=True)
    ]
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        references = usable_references(seg_refs)
        tokens = [_tokens(hyp, references, pipeline) for pipeline in pipelines.values()]
        for options, slot, pairs, empties in plan:
            hyp_sentences, ref_sentences = tokens[slot]
            counts = [pair_counts(hyp_sentences, ref, options) for ref in ref_sentences]
            if counts[0].empty and all(count.empty for count in counts):
                empties[0] += 1
            pairs.append(rounded(combine_references(counts, options), options, recompute_f=True))
    return [
        VariantScores(corpus_from_pairs(pairs, empties[0], options), tuple(pairs))
        for options, _, pairs, empties in plan
    ]


def _tokens(
    hyp: str, references: Sequence[str], pipeline: RougeOptions
) -> tuple[Sentences, list[Sentences]]:
    """The hypothesis's and each reference's sentences of tokens (ROUGE-TOKENIZE);
    references are truncated only with ``truncate_side=both`` (ROUGE-TRUNCATE)."""
    truncate_refs = pipeline.truncate_side == "both"
    return (
        text_sentences(hyp, pipeline, truncate=True),
        [text_sentences(ref, pipeline, truncate=truncate_refs) for ref in references],
    )


__all__ = ["VariantScores", "score_variants", "text_key", "text_options"]

"""Several ROUGE variants of one corpus, each text tokenized once for all of them.

``rouge_corpus.corpus_rouge`` scores one variant; called once per variant it runs the
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

from collections.abc import Callable, Hashable, Sequence

import attrs

from metricdiff.impls.reference.rouge import (
    PairCounter,
    combine_references,
    counting_options,
    rounded,
)
from metricdiff.impls.reference.rouge_corpus import CorpusPairs, per_segment
from metricdiff.impls.reference.rouge_counts import COUNT_AXES, PairCounts, pair_counts
from metricdiff.impls.reference.rouge_text import (
    Sentences,
    by_sentence,
    text_sentences,
)
from metricdiff.impls.segment_references import usable_rouge_references
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
    """One variant's corpus result and each segment's (``sentence_rouge``'s), and
    how many segments had no token on either side (``empties``)."""

    corpus: RougeResult
    segments: tuple[RougeResult, ...]
    empties: int = 0


#: One segment's result under each variant, and whether it was empty.
SegmentScorer = Callable[[str, Sequence[str | None]], list[tuple[RougeResult, bool]]]


def score_variants(
    hyps: Sequence[str], refs: Sequence[Sequence[str | None]], variants: Sequence[RougeOptions]
) -> list[VariantScores]:
    """Each options of ``variants`` on the corpus, its segments' results kept."""
    corpus = CorpusVariants(variants, keep_segments=True)
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        corpus.add(hyp, seg_refs)
    return corpus.results()


class CorpusVariants:
    """Each options of ``variants`` on a corpus given one segment at a time
    (ROUGE-CORPUS-AVERAGE), as ``corpus_rouge`` and ``sentence_rouge`` score
    them, with each text tokenized once per distinct ``text_key`` and each pair
    counted once per distinct tokens and ``COUNT_AXES`` (what counting reads:
    pipelines that differ often give a text the same tokens).  Each
    variant's corpus result is built up as ``CorpusPairs`` (sums only); each
    segment's result is kept only with ``keep_segments``."""

    def __init__(self, variants: Sequence[RougeOptions], *, keep_segments: bool,
                 segment: SegmentScorer | None = None, count: PairCounter = pair_counts
                 ) -> None:
        # ``segment``: another way to score one segment with the same results (the
        # fast path, ``rouge_variants.FastVariants.segment``); by default, this
        # module's, counting each pair with ``count`` (``pair_counts`` or a fast
        # path equal to it).
        self.segment = segment or self._segment
        self.count = count
        keys = [text_key(options) for options in variants]
        self.pipelines = {key: text_options(options)
                          for key, options in zip(keys, variants, strict=True)}
        slots = {key: slot for slot, key in enumerate(self.pipelines)}
        # Variants with the same tokens and the same ``counting_options`` have the
        # same counts (they differ after them: F, rounding, the corpus average):
        # each segment is counted once for them, under the first one's options.
        counted = {(slots[key], counting_options(options)): options
                   for key, options in zip(keys, variants, strict=True)}
        count_slots = {counting: place for place, counting in enumerate(counted)}
        self.counted = [(slot, options) for (slot, _), options in counted.items()]
        # what counting reads of each, given the tokens, by number (an options'
        # hash is dear)
        self.count_keys = first_alike([tuple(getattr(options, axis) for axis in COUNT_AXES)
                                       for options in counted.values()])
        self.count_slot = [count_slots[(slots[key], counting_options(options))]
                           for key, options in zip(keys, variants, strict=True)]
        # Variants that differ only in the corpus average have the same result for
        # every segment: one corpus sums them for all (its first variant adds
        # each), and each variant averages it its own way (``CorpusPairs.under``).
        summed = [per_segment(options) for options in variants]
        alike: dict[RougeOptions, list[int]] = {}
        for place, key in enumerate(summed):
            alike.setdefault(key, []).append(place)
        corpora = {key: CorpusPairs(variants[places[0]], keep_rows=any(
            variants[place].corpus_average.startswith("bootstrap") for place in places))
            for key, places in alike.items()}
        # Per variant: its options, whether it adds to its corpus, its corpus so
        # far and its segments' results (None: not kept).
        self.plan: list[tuple[RougeOptions, bool, CorpusPairs, list[RougeResult] | None]] = [
            (options, alike[key][0] == place, corpora[key], [] if keep_segments else None)
            for place, (options, key) in enumerate(zip(variants, summed, strict=True))
        ]

    def add(self, hyp: str, refs: Sequence[str | None]) -> list[RougeResult]:
        """One segment, scored by every variant; its results, in order."""
        results = []
        for (pair, empty), (_, adds, corpus, segments) in zip(self.segment(hyp, refs),
                                                              self.plan, strict=True):
            if adds:
                corpus.add(pair, empty)
            if segments is not None:
                segments.append(pair)
            results.append(pair)
        return results

    def _segment(self, hyp: str, refs: Sequence[str | None]) -> list[tuple[RougeResult, bool]]:
        """Each variant's result for one segment (``sentence_rouge``), and whether
        the segment was empty (no token on either side, against every reference)."""
        references = usable_rouge_references(refs)
        tokens = [_tokens(hyp, references, pipeline) for pipeline in self.pipelines.values()]
        alike = first_alike([(_frozen(hyp_sentences), tuple(map(_frozen, ref_sentences)))
                             for hyp_sentences, ref_sentences in tokens])
        done: dict[tuple[int, int], list[PairCounts]] = {}
        counted = []
        for (slot, options), key in zip(self.counted, self.count_keys, strict=True):
            same = (alike[slot], key)
            if same not in done:
                hyp_sentences, ref_sentences = tokens[slot]
                done[same] = [self.count(hyp_sentences, ref, options) for ref in ref_sentences]
            counted.append(done[same])
        out = []
        for (options, _, _, _), count_slot in zip(self.plan, self.count_slot, strict=True):
            counts = counted[count_slot]
            out.append((rounded(combine_references(counts, options), options, recompute_f=True),
                        all(count.empty for count in counts)))
        return out

    def results(self) -> list[VariantScores]:
        """Each variant's corpus result, and its segments' if kept (else none)."""
        return [VariantScores(corpus.under(options), tuple(segments or ()), corpus.empties)
                for options, _, corpus, segments in self.plan]



def first_alike(keys: Sequence[Hashable]) -> list[int]:
    """For each of ``keys``, the place of the first one equal to it: the same
    number for equal keys (each pipeline's tokens of one segment, what counting
    or forming reads of each options)."""
    first: dict[Hashable, int] = {}
    return [first.setdefault(key, place) for place, key in enumerate(keys)]


def _frozen(sentences: Sentences) -> tuple[tuple[str, ...], ...]:
    return tuple(map(tuple, sentences))


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


__all__ = ["CorpusVariants", "SegmentScorer", "VariantScores", "score_variants", "text_key",
           "text_options"]

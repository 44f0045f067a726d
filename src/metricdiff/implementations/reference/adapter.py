"""The reference, written from the papers, driven like any other implementation:
the paper's profile by default, every axis settable."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from metricdiff.implementations.base import (
    ANY,
    Adapter,
    OptionsT,
    References,
    Requests,
    ResultT,
    Scored,
)
from metricdiff.implementations.reference import fast_bleu, fast_rouge, rouge, rouge_shared
from metricdiff.profiles import AXES, BleuOptions, RougeOptions
from metricdiff.profiles.metrics import METRICS
from metricdiff.statistics import BleuResult, RougeResult


class _Reference(Adapter[OptionsT, ResultT]):
    """The paper's functions of one family behind the adapter interface; the
    declared profile is the paper's (``Adapter.profile`` is empty)."""

    name = "reference"
    settable = dict.fromkeys(AXES, ANY)
    #: The corpus score of (hypotheses, references, options), and the score of
    #: one segment (hypothesis, its references, options).
    corpus: ClassVar[Callable[..., Any]]
    sentence: ClassVar[Callable[..., Any]]

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: OptionsT
    ) -> ResultT:
        result: ResultT = type(self).corpus(hyps, refs, options)
        return result

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: OptionsT
    ) -> list[ResultT]:
        sentence = type(self).sentence
        return [sentence(hyp, seg, options) for hyp, seg in zip(hyps, refs, strict=True)]


class ReferenceBleuAdapter(_Reference[BleuOptions, BleuResult]):
    """BLEU as Papineni et al. (2002) define it (``bleu.py``), counted by its
    fast path (``fast_bleu``, tested equal to ``bleu.py``)."""

    corpus = staticmethod(fast_bleu.fast_corpus_bleu)
    sentence = staticmethod(fast_bleu.fast_sentence_bleu)


class ReferenceRougeAdapter(_Reference[RougeOptions, RougeResult]):
    """ROUGE as Lin (2004) defines it (``rouge.py``)."""

    family = "rouge"
    metrics = tuple(metric for metric in METRICS if metric.startswith("rouge"))
    corpus = staticmethod(rouge.corpus_rouge)
    sentence = staticmethod(rouge.sentence_rouge)

    #: From this many segments on, a covered variant's corpus is scored by the
    #: fast path (``fast_rouge``); below, the readable path's remembered segment
    #: counts serve the audit, which scores small cases under many profiles.
    FAST_FROM = 256

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: RougeOptions) -> RougeResult:
        if len(hyps) >= self.FAST_FROM:
            scored = fast_rouge.fast_score_variants(hyps, refs, [options])
            if scored is not None:
                return scored[0].corpus
        return super().corpus_score(metric, hyps, refs, options)

    def score_many(self, metrics: Requests[RougeOptions], hyps: Sequence[str],
                   refs: References, *, sentences: bool = False) -> list[Scored[RougeResult]]:
        """Every metric's corpus and segment results from one pass, each text
        tokenized once for every variant with the same text axes
        (``rouge_shared``; ``fast_rouge`` for the variants it covers)."""
        for metric, _ in metrics:
            self.check_metric(metric)
        wanted = [options for _, options in metrics]
        variants = fast_rouge.fast_score_variants(hyps, refs, wanted)
        if variants is None:
            variants = rouge_shared.score_variants(hyps, refs, wanted)
        return [Scored(v.corpus, v.segments if sentences else None) for v in variants]

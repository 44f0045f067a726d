"""The reference, written from the papers, driven like any other implementation:
the paper's profile by default, every axis settable."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

from metricdiff.implementations.base import (
    ANY,
    Adapter,
    OptionsT,
    References,
    Requests,
    ResultT,
    Scored,
)
from metricdiff.implementations.reference import (
    bleu,
    fast_bleu,
    fast_rouge,
    fast_rouge_counts,
    rouge,
    rouge_shared,
)
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


class Tally(Protocol[ResultT]):
    """Several metrics of one family on a corpus given one segment at a time
    (``metricdiff score`` reading its input as a stream): ``add`` each segment,
    then ``scored`` gives what ``score_many`` gives for the whole corpus."""

    def add(self, hyp: str, refs: Sequence[str | None]) -> None: ...

    def scored(self) -> list[Scored[ResultT]]: ...


class _BleuTally:
    """Corpus BLEU per metric as running sums (``bleu.CorpusBleu``); each
    segment's result is kept only when ``sentences`` asks for them."""

    def __init__(self, metrics: Requests[BleuOptions], sentences: bool) -> None:
        self.corpora: list[tuple[bleu.CorpusBleu, list[BleuResult] | None]] = [
            (bleu.CorpusBleu(options, statistics=fast_bleu.fast_uncached_statistics),
             [] if sentences else None) for _, options in metrics]

    def add(self, hyp: str, refs: Sequence[str | None]) -> None:
        for corpus, segments in self.corpora:
            stats = corpus.add(hyp, refs)
            if segments is not None:
                segments.append(bleu.bleu_from_statistics(stats, corpus.options))

    def scored(self) -> list[Scored[BleuResult]]:
        return [Scored(corpus.result(), None if segments is None else tuple(segments))
                for corpus, segments in self.corpora]


class _RougeTally:
    """Every ROUGE metric from one tokenization per text (``rouge_shared``; each
    segment by ``fast_rouge`` when it covers every variant), each corpus result as
    running sums; segments kept only for ``sentences``."""

    def __init__(self, metrics: Requests[RougeOptions], sentences: bool) -> None:
        self.sentences = sentences
        variants = [options for _, options in metrics]
        self.corpus = (fast_rouge.fast_corpus_variants(variants, keep_segments=sentences)
                       or rouge_shared.CorpusVariants(variants, keep_segments=sentences))

    def add(self, hyp: str, refs: Sequence[str | None]) -> None:
        self.corpus.add(hyp, refs)

    def scored(self) -> list[Scored[RougeResult]]:
        return [Scored(v.corpus, v.segments if self.sentences else None)
                for v in self.corpus.results()]


class ReferenceBleuAdapter(_Reference[BleuOptions, BleuResult]):
    """BLEU as Papineni et al. (2002) define it (``bleu.py``), counted by its
    fast path (``fast_bleu``, tested equal to ``bleu.py``)."""

    corpus = staticmethod(fast_bleu.fast_corpus_bleu)
    sentence = staticmethod(fast_bleu.fast_sentence_bleu)

    def tally(self, metrics: Requests[BleuOptions], *, sentences: bool = False
              ) -> Tally[BleuResult]:
        """``score_many`` one segment at a time (``Tally``)."""
        for metric, _ in metrics:
            self.check_metric(metric)
        return _BleuTally(metrics, sentences)


class ReferenceRougeAdapter(_Reference[RougeOptions, RougeResult]):
    """ROUGE as Lin (2004) defines it (``rouge.py``); a corpus's pairs counted by
    the fast path ``fast_rouge_counts`` (tested equal to ``rouge_counts``)."""

    family = "rouge"
    metrics = tuple(metric for metric in METRICS if metric.startswith("rouge"))
    corpus = staticmethod(fast_rouge_counts.fast_corpus_rouge)
    sentence = staticmethod(rouge.sentence_rouge)

    #: From this many segments on, a covered variant's corpus is scored by the
    #: fast path (``fast_rouge``); below, the remembered segment and pair counts
    #: (``fast_rouge_counts``) serve the audit, which scores small cases under
    #: many profiles.
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
        tally = self.tally(metrics, sentences=sentences)
        for hyp, seg_refs in zip(hyps, refs, strict=True):
            tally.add(hyp, seg_refs)
        return tally.scored()

    def tally(self, metrics: Requests[RougeOptions], *, sentences: bool = False
              ) -> Tally[RougeResult]:
        """``score_many`` one segment at a time (``Tally``)."""
        for metric, _ in metrics:
            self.check_metric(metric)
        return _RougeTally(metrics, sentences)

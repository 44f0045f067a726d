"""The reference, written from the papers, driven like any other implementation:
the paper's profile by default, every axis settable."""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.implementations.base import ANY, Adapter, References, Requests, Scored
from metricdiff.implementations.reference import bleu, rouge, rouge_shared
from metricdiff.profiles import AXES, BleuOptions, RougeOptions
from metricdiff.profiles.metrics import METRICS, paper_options
from metricdiff.statistics import BleuResult, RougeResult

_EVERY_AXIS = dict.fromkeys(AXES, ANY)


class ReferenceBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """BLEU as Papineni et al. (2002) define it (``bleu.py``)."""

    name = "reference"
    settable = _EVERY_AXIS

    def default_options(self, metric: str) -> BleuOptions:
        return BleuOptions()

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        return bleu.corpus_bleu(hyps, refs, options)

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> list[BleuResult]:
        return [bleu.sentence_bleu(hyp, seg, options) for hyp, seg in zip(hyps, refs, strict=True)]


class ReferenceRougeAdapter(Adapter[RougeOptions, RougeResult]):
    """ROUGE as Lin (2004) defines it (``rouge.py``)."""

    name = "reference"
    family = "rouge"
    metrics = tuple(metric for metric in METRICS if metric.startswith("rouge"))
    settable = _EVERY_AXIS

    def default_options(self, metric: str) -> RougeOptions:
        options = paper_options(metric)
        assert isinstance(options, RougeOptions)
        return options

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        return rouge.corpus_rouge(hyps, refs, options)

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        return [
            rouge.sentence_rouge(hyp, seg, options) for hyp, seg in zip(hyps, refs, strict=True)
        ]

    def score_many(self, metrics: Requests[RougeOptions], hyps: Sequence[str],
                   refs: References, *, sentences: bool = False) -> list[Scored[RougeResult]]:
        """Every metric's corpus and segment results from one pass, each text
        tokenized once for every variant with the same text axes
        (``rouge_shared``)."""
        for metric, _ in metrics:
            self.check_metric(metric)
        variants = rouge_shared.score_variants(hyps, refs, [options for _, options in metrics])
        return [Scored(v.corpus, v.segments if sentences else None) for v in variants]

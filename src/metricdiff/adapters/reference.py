"""The reference, written from the papers, driven like any other implementation."""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.adapters.base import ANY, Adapter, References
from metricdiff.conventions import AXES, BleuOptions
from metricdiff.reference import bleu
from metricdiff.results import BleuResult


class ReferenceBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """metricdiff's own reference: the paper's profile by default, every axis
    settable."""

    name = "reference"
    settable = dict.fromkeys(AXES, ANY)

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

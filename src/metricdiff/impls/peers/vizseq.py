"""vizseq's BLEU (PyPI ``vizseq``: ``vizseq.scorers.bleu.BLEUScorer``), Facebook's
toolkit for visualising text generation, whose corpus BLEU is sacrebleu's.

Declared default profile, read from ``vizseq/scorers/bleu.py`` (0.2.1):
``score_corpus_multiprocess`` builds ``sacrebleu.metrics.BLEU(tokenize=...,
force=True)`` with every other argument at sacrebleu's default, and
``VizSeqScore.make`` rounds the score to 3 decimals.  So the profile is
sacrebleu's (``smoothing=exp``, ``all_zero=zero``) except ``tokenize=none``: the
tokenizer is ``extra_args['tokenizer']``, ``'none'`` unless given, and any
tokenizer sacrebleu runs offline can be set.  References go in as sacrebleu's
streams (one list per reference "file", ``None`` where a segment has fewer).

Its sentence scores (``sent_level=True``) are another BLEU (sacrebleu's
``floor`` smoothing with effective order), not the corpus BLEU of one segment,
so ``sentence_scores`` is each segment scored as a corpus, like every adapter's.

It reports the rounded score alone: the rest is ``unknown``.  Importing vizseq
imports all its scorers, and its METEOR module calls ``nltk.download('wordnet')``
at import; metricdiff assumes no network, so that call is made a no-op while
vizseq is imported (BLEU never reads WordNet).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
from collections.abc import Iterator, Sequence
from typing import Any, cast

from metricdiff.impls.base import Adapter, References, Tolerance
from metricdiff.impls.declarations import Declared, Package

# vizseq hands its tokenizer name to sacrebleu: the same names, the same refusals.
from metricdiff.impls.peers.sacrebleu import (
    _TOKENIZERS,
    SacrebleuAdapter,
    reference_streams,
)
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import MISSING, BleuResult

_UNREPORTED = frozenset({"precisions", "bp", "sys_len", "ref_len", "counts", "totals"})


class VizseqAdapter(Adapter[BleuOptions, BleuResult]):
    """vizseq's ``BLEUScorer``: sacrebleu's corpus BLEU, whitespace tokens, the
    score rounded to 3 decimals."""

    name = "vizseq"
    package = Package(
        distribution="vizseq",
        # vizseq itself takes seconds to import (IPython, pandas, matplotlib): it is
        # looked for here, and imported in the worker that scores.
        modules=("nltk", "sacrebleu"),
        extra="vizseq",
    )
    declared = Declared(
        profile={
            "smoothing": "exp",
            "all_zero": "zero",
        },
        settable={
            "tokenize": SacrebleuAdapter.declared.settable["tokenize"],
            "empty_reference": ("length-zero", "dropped"),
        },
        refused=SacrebleuAdapter.declared.refused,
        tolerance=Tolerance(
            absolute=5e-4,
            reason="VizSeqScore.make rounds the score to 3 decimals (numpy.round)",
        ),
    )

    def unavailable_reason(self) -> str | None:
        reason = super().unavailable_reason()
        if reason is not None:
            return reason
        if importlib.util.find_spec("vizseq") is None:
            return f"vizseq: vizseq is not installed; install: {self.package.install_hint}"
        return None

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)
        scorer = _scorer_class()(
            corpus_level=True, sent_level=False, n_workers=1,
            extra_args={"tokenizer": _TOKENIZERS[options.tokenize]},
        )
        score = scorer.score(list(hyps), reference_streams(refs, options)).corpus_score
        return BleuResult(float(score), (), MISSING, cast(int, MISSING), MISSING, (), (),
                          unknown=_UNREPORTED)


def _scorer_class() -> Any:
    """``vizseq.scorers.bleu.BLEUScorer``, imported without its METEOR module's
    download."""
    with _no_nltk_download():
        return importlib.import_module("vizseq.scorers.bleu").BLEUScorer


@contextlib.contextmanager
def _no_nltk_download() -> Iterator[None]:
    import nltk

    real = nltk.download
    nltk.download = lambda *args, **kwargs: True
    try:
        yield
    finally:
        nltk.download = real

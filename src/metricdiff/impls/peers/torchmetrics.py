"""torchmetrics' ROUGE (``torchmetrics.text.rouge.ROUGEScore``) and BLEU
(``BLEUScore``, ``SacreBLEUScore``: ``TorchmetricsBleuAdapter``), behind the
``torch`` extra (``pip install 'metricdiff[torch]'``): without torch the adapter
is unavailable and its tests skip.

Declared default profile, read from torchmetrics 1.9.0
(``torchmetrics/functional/text/rouge.py``), which "should imitate the behaviour
of the rouge-score package":

* ``tokenize=rouge-score``, ``lowercase=none``: ``_normalize_and_tokenize_text``
  without a ``normalizer`` does ``re.sub(r"[^a-z0-9]+", " ", text.lower())``, and
  without a ``tokenizer`` ``re.split(r"\\s+", ...)``, dropping empty tokens.
  Other text axes go through the two hooks: ``normalizer`` is the identity and
  ``tokenizer`` runs metricdiff's tokenizer, stopword removal and stemmer (the
  library then drops empty tokens, so ``whitespace-strict``'s are lost).
* ``stemmer=none``; ``use_stemmer=True`` is ``porter-nltk``
  (``nltk.stem.porter.PorterStemmer()``) on tokens with ``len(x) > 3``.
* ``sentence_split=punkt`` for ``rougeLsum``: ``_split_sentence`` always uses
  ``nltk.sent_tokenize`` -- newlines do not split sentences (its
  ``re.sub("<n>", "", x)`` discards its result) -- and, if the punkt model is
  missing, ``_ensure_nltk_punkt_is_downloaded`` tries to download it.  The
  adapter never lets it: without the model, ``rouge-lsum`` is refused.
* ``multi_ref=best-f``: ``accumulate="best"`` keeps, per key, the reference with
  the largest F (``torch.argmax``: the first on ties); ``"avg"`` is ``mean`` (R, P
  and F averaged over the references).
* ``f_measure=alpha=0.5`` (``_compute_metrics``: 2PR/(P + R)), ``counts=multiset``,
  an empty side scores 0 (``empty_policy=zero``), ``corpus_average=macro``
  (``_rouge_score_compute``: ``torch.tensor(scores).mean()``), ``report=f``.
* Every score is a float32 tensor (``tensor(precision)``), so results agree
  with float64 implementations to about 1e-7 only; ``rounding=exact`` is
  declared since no decimal rounding happens.

Counts are not exposed and are left 0.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from metricdiff.impls.base import ANY, Adapter, References, Tolerance
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.peers._rouge_common import (
    PREPROCESSING_SETTABLE,
    ROUGE_N_METRICS,
    PeerRougeAdapter,
    punkt_available,
    punkt_refusal,
    result,
    text_axes_are,
    text_pipeline,
)
from metricdiff.impls.peers.rouge_score import RougeScoreAdapter, rouge_type
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.profiles import BleuOptions
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import MISSING, BleuResult, RougeResult

_ACCUMULATE = {"best-f": "best", "mean": "avg"}


def _identity(text: str) -> str:
    return text


class TorchmetricsRougeAdapter(PeerRougeAdapter):
    """torchmetrics ``ROUGEScore``: ROUGE-1..9, ROUGE-L and ROUGE-Lsum."""

    name = "torchmetrics"
    package = Package(distribution="torchmetrics", modules=("torch", "torchmetrics.text.rouge"),
                      extra="torch")
    declared = Declared(
        metrics=(*ROUGE_N_METRICS, "rouge-l", "rouge-lsum"),
        # torchmetrics ported rouge-score: the same conventions, except that ROUGE-Lsum
        # always splits sentences with NLTK's punkt.
        profile={**RougeScoreAdapter.declared.profile, "sentence_split": "punkt"},
        settable={
            **PREPROCESSING_SETTABLE,
            "multi_ref": tuple(_ACCUMULATE),
            "report": ANY,
        },
        tolerance=Tolerance(relative=1e-6, reason="its results are float32 tensors"),
    )

    def refuse(self, metric: str, options: RougeOptions) -> None:
        if metric == "rouge-lsum" and not punkt_available():
            raise punkt_refusal(
                self.name, "rouge-lsum (its sentences come from nltk.sent_tokenize)"
            )

    def metric_object(self, metric: str, options: RougeOptions) -> Any:
        """The ``ROUGEScore`` configured as ``options`` say."""
        rouge = importlib.import_module("torchmetrics.text.rouge")
        native = text_axes_are(options, tokenize="rouge-score", lowercase="none",
                               lowercase_stage="before-tokenize")
        use_stemmer = native and options.stemmer == "porter-nltk"
        normalizer: Callable[[str], str] | None = None
        tokenizer: Callable[[str], Sequence[str]] | None = None
        if not (native and options.stemmer in ("none", "porter-nltk")):
            normalizer, tokenizer = _identity, text_pipeline(options)
        return rouge.ROUGEScore(
            use_stemmer=use_stemmer,
            normalizer=normalizer,
            tokenizer=tokenizer,
            accumulate=_ACCUMULATE[options.multi_ref],
            rouge_keys=(rouge_type(metric),),
        )

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        self.prepared(metric, options)
        segments = self.segments(hyps, refs)
        scorer = self.metric_object(metric, options)
        scorer.update([hyp for hyp, _ in segments], [seg for _, seg in segments])
        scores = scorer.compute()
        key = rouge_type(metric)
        return result(
            scores[f"{key}_recall"].item(),
            scores[f"{key}_precision"].item(),
            scores[f"{key}_fmeasure"].item(),
        )


# --------------------------------------------------------------------------
# BLEU: ``torchmetrics.text.BLEUScore`` and ``SacreBLEUScore``


def _bleu_tokenizers() -> tuple[str, ...]:
    """The ``tokenize`` values SacreBLEUScore runs offline and metricdiff names
    alike (its ``zh`` is not offered: which of metricdiff's zh values it is has
    not been checked)."""
    return ("none", "13a", "intl", "char")


class TorchmetricsBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """torchmetrics ``BLEUScore`` (``tokenize=none``) and ``SacreBLEUScore`` (any
    other tokenizer, or lowercasing; the variant ``torchmetrics+sacrebleu`` is its
    default, 13a), read from torchmetrics 1.9.0
    (``torchmetrics/functional/text/bleu.py`` and ``sacre_bleu.py``):

    * ``closest_tie=first``: ``target_len_list[diffs.index(min(diffs))]``;
    * ``lowercase_stage=after-tokenize``: ``_lower`` runs on the tokenized line;
    * no smoothing by default, and ``if min(numerator) == 0.0: return 0`` before
      its add-one ``smooth=True`` even runs, so that option is not offered (it is
      add-k only where every order matched: on no axis);
    * an empty string (and ``None``, which the adapter drops) is a reference of
      length 0; corpus level, uniform weights unless given.

    The score is a float32 tensor; the pooled counts and lengths are read from
    the metric's states, its precisions and BP are never exposed (``unknown``).
    """

    name = "torchmetrics"
    package = Package(distribution="torchmetrics", modules=("torch", "torchmetrics.text"),
                      extra="torch")
    declared = Declared(
        profile={
            "closest_tie": "first",
            "lowercase_stage": "after-tokenize",
        },
        settable={
            "tokenize": _bleu_tokenizers(),
            "lowercase": ("none", "unicode"),
            "max_order": ANY,
            "weights": ANY,
            "empty_reference": ("length-zero", "dropped"),
        },
        variants={"sacrebleu": {"tokenize": "13a"}},
        tolerance=Tolerance(relative=1e-6, reason="its score and counts are float32 tensors"),
    )

    def metric_object(self, options: BleuOptions) -> Any:
        text = importlib.import_module("torchmetrics.text")
        common = {"n_gram": options.max_order, "weights": list(options.order_weights())}
        if options.tokenize == "none" and options.lowercase == "none":
            return text.BLEUScore(**common)
        return text.SacreBLEUScore(
            tokenize=options.tokenize, lowercase=options.lowercase == "unicode", **common
        )

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)
        bleu = self.metric_object(options)
        bleu.update(list(hyps), [usable_bleu_references(seg, options) for seg in refs])
        score = bleu.compute()
        return BleuResult(
            score=100 * score.item(),
            precisions=(),
            bp=MISSING,
            sys_len=int(bleu.preds_len.item()),
            ref_len=float(bleu.target_len.item()),
            counts=tuple(float(c) for c in bleu.numerator.tolist()),
            totals=tuple(float(t) for t in bleu.denominator.tolist()),
            unknown=frozenset({"precisions", "bp"}),
        )

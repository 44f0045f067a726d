"""pytorch-ignite's ``Bleu`` and ``Rouge`` (``ignite.metrics.nlp``), behind the
``torch`` extra: without torch the adapters are unavailable and their tests skip.
Both take token lists, which the adapters make with metricdiff's tokenizers
(``tokenize=none``, ``str.split``, as ignite's own examples do).

Declared default profiles, read from pytorch-ignite 0.5.5:

BLEU (``ignite/metrics/nlp/bleu.py``, "inspired by nltk"):

* ``level=sentence-mean``: ``average="macro"`` (the default) adds up
  ``_sentence_bleu`` per segment and divides by their number; ``"micro"`` pools
  the counts (``level=corpus``).
* ``smooth="no_smooth"``: ``_brevity_penalty_smoothing`` returns 0 when any
  order has no match (the paper's p_n = 0).  Its other smoothers are not
  offered: ``smooth1`` and ``nltk_smooth2`` divide by ``max(1, total)`` and
  ``smooth2`` gives an empty order (0 + 1)/(0 + 1) = 1, combinations of the
  smoothing and empty-order axes the adapter has not verified.
* ``ref_length=closest``, ties to the shorter (``min`` keyed on
  ``(abs(ref_len - hyp_len), ref_len)``); clipping by the largest count in any
  one reference (``Counter |``); uniform weights, ``max_order`` = ``ngram``.
* An empty string is a reference of length 0; ``None`` is dropped.  A segment
  without any reference makes ``min()`` of nothing fail: a crash.

``no_smooth`` divides by ``max(1, d)`` with ``d`` a float32 tensor, so each
precision is rounded to float32 (about 1e-8 relative): hence the tolerance.
Only the score is returned: with ``level=corpus`` the pooled counts and lengths
are read from the metric's states (float64 tensors), otherwise they are
``unknown``; precisions and BP always are.

ROUGE (``ignite/metrics/nlp/rouge.py``):

* ROUGE-1..9 (``RougeN``) and ROUGE-L (``RougeL``: the LCS of the whole token
  sequences, ``variant=l``).
* ``multi_ref=pooled``: ``multiref="average"`` (the default) is
  ``MultiRefAverageReducer``, which sums matches, candidate and reference counts
  over the references (ROUGE-1.5.5's ``-f A``); ``"best"`` keeps the reference
  with the best recall (``max(..., key=recall)``: ``best-recall``).
* ``f_measure=alpha=0``: ``alpha=0`` by default in ``P R / ((1 - alpha) P +
  alpha R)``, so its "F" is the recall; ``report=f``; an F whose P R is 0 is 0.
* ``counts=multiset`` (``Counter &``), ``corpus_average=macro`` (P, R and F
  summed per segment and divided by their number), an empty side scores 0.
  Scores are Python floats.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from metricdiff.impls.base import ANY, Adapter, References, Tolerance
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.peers._rouge_common import (
    ANY_ALPHA,
    PREPROCESSING_SETTABLE,
    ROUGE_N_METRICS,
    PeerRougeAdapter,
    alpha_of,
    text_pipeline,
)
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.impls.text.tokenizers import preprocess
from metricdiff.profiles import BleuOptions, RougeOptions
from metricdiff.statistics import MISSING, BleuResult, RougeResult

PACKAGE = Package(distribution="pytorch-ignite", modules=("torch", "ignite.metrics.nlp"),
                  extra="torch")
_LEVEL = {"sentence-mean": "macro", "corpus": "micro"}
_MULTIREF = {"pooled": "average", "best-recall": "best"}
_COUNTS = frozenset({"matches", "hyp_total", "ref_total"})


class IgniteBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """pytorch-ignite ``Bleu`` (``ignite.metrics.nlp.Bleu``)."""

    name = "ignite"
    package = PACKAGE
    declared = Declared(
        profile={"level": "sentence-mean"},
        settable={
            "tokenize": ANY,
            "lowercase": ANY,
            "lowercase_stage": ANY,
            "max_order": ANY,
            "level": tuple(_LEVEL),
            "empty_reference": ("length-zero", "dropped"),
        },
        # no_smooth divides by max(1, d), d a float32 tensor: the precisions are float32.
        tolerance=Tolerance(relative=1e-6, reason="its precisions are float32 tensors"),
    )

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)
        nlp = importlib.import_module("ignite.metrics.nlp")

        def tokens(text: str) -> list[str]:
            return list(preprocess(text, options.tokenize, options.lowercase,
                                   options.lowercase_stage))

        bleu = nlp.Bleu(ngram=options.max_order, average=_LEVEL[options.level])
        bleu.update(([tokens(hyp) for hyp in hyps],
                     [[tokens(ref) for ref in usable_bleu_references(seg, options)]
                      for seg in refs]))
        score = 100 * float(bleu.compute())
        if options.level != "corpus":
            return BleuResult(score, (), MISSING, 0, MISSING, (), (), unknown=frozenset(
                {"precisions", "bp", "sys_len", "ref_len", "counts", "totals"}))
        return BleuResult(
            score=score,
            precisions=(),
            bp=MISSING,
            sys_len=int(bleu.hyp_length_sum),
            ref_len=float(bleu.ref_length_sum),
            # index 0 of its states is unused: orders are counted from 1.
            counts=tuple(float(c) for c in bleu.p_numerators.tolist()[1:]),
            totals=tuple(float(t) for t in bleu.p_denominators.tolist()[1:]),
            unknown=frozenset({"precisions", "bp"}),
        )


class IgniteRougeAdapter(PeerRougeAdapter):
    """pytorch-ignite ``RougeN`` and ``RougeL``: ROUGE-1..9 and ROUGE-L."""

    name = "ignite"
    package = PACKAGE
    declared = Declared(
        metrics=(*ROUGE_N_METRICS, "rouge-l"),
        profile={
            "multi_ref": "pooled",
            "f_measure": "alpha=0",
            "report": "f",
        },
        settable={
            **PREPROCESSING_SETTABLE,
            "multi_ref": tuple(_MULTIREF),
            "f_measure": ANY_ALPHA,
            "report": ANY,
        },
    )

    def metric_object(self, metric: str, options: RougeOptions) -> Any:
        nlp = importlib.import_module("ignite.metrics.nlp")
        common = {"multiref": _MULTIREF[options.multi_ref],
                  "alpha": alpha_of(options.f_measure)}
        if metric == "rouge-l":
            return nlp.RougeL(**common)
        return nlp.RougeN(ngram=options.n, **common)

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        self.prepared(metric, options)
        tokens = text_pipeline(options)
        segments = self.segments(hyps, refs)
        rouge = self.metric_object(metric, options)
        rouge.update(([tokens(hyp) for hyp, _ in segments],
                      [[tokens(ref) for ref in seg] for _, seg in segments]))
        scores = rouge.compute()
        key = "Rouge-L" if metric == "rouge-l" else f"Rouge-{options.n}"
        # It returns the three scores alone: its counts are not exposed.
        return RougeResult(scores[f"{key}-R"], scores[f"{key}-P"], scores[f"{key}-F"],
                           0.0, 0.0, 0.0, unknown=_COUNTS)

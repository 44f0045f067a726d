"""jury (PyPI ``jury``, 2.3.1): ``jury.load_metric("rouge")`` and
``jury.load_metric("sacrebleu")``, ``.compute(predictions=..., references=...)``.

jury wraps Hugging Face ``evaluate`` but ships its own metric modules
(``jury/metrics/<name>/``), so these two run offline.  Its ``bleu`` does not: it
downloads tensorflow/nmt's ``bleu.py`` from GitHub at run time
(``_download_and_prepare``), so metricdiff's BLEU of jury is its ``sacrebleu``.
Its pins clash with the main environment, so it lives in a folder of its own
(``impls/peers/_isolated.py``; ``metricdiff install-peers jury``) with
what importing it needs.  ``HF_HUB_OFFLINE``, ``HF_EVALUATE_OFFLINE`` and
``HF_DATASETS_OFFLINE`` are set before it is imported (nothing may reach for the
network), and ``HF_HOME`` points into its folder, where ``evaluate`` keeps the
files of each ``compute``.  Where the main environment has a package jury pins
too, the main one is used (``rouge_score`` 0.1.2 instead of jury's 0.0.4).

Declared default profiles, read from jury 2.3.1:

* ROUGE (``metrics/rouge/rouge_for_language_generation.py``): rouge-score's
  ``RougeScorer`` with ``use_stemmer=False`` -- the ``rouge-score`` adapter's
  ``tokenize=rouge-score`` -- reporting F only (``metric_to_select="fmeasure"``:
  ``report=f``; R, P and the counts are unknown).  Several references: each is
  scored and ``reduce_fn="max"`` keeps the largest F per ROUGE type
  (``multi_ref=best-f``).  The corpus number is the ``mid`` of rouge-score's
  ``BootstrapAggregator`` (``use_aggregator=True``, forced for several
  references): ``corpus_average=bootstrap-median`` with 1000 samples, drawn from
  numpy's global generator, which the adapter seeds with ``bootstrap_seed`` (and
  restores).  ``use_aggregator=False`` returns the *first* prediction's scores
  alone (``{k: v[0] ...}``): not offered.
* BLEU (``metrics/sacrebleu/sacrebleu_for_language_generation.py``):
  ``sacrebleu.corpus_bleu`` with sacrebleu's defaults -- the ``sacrebleu``
  adapter's profile (``tokenize=13a``, ``smoothing=exp``, ``all_zero=zero``) --
  scores and precisions divided by 100 (multiplied back here).  It hands its
  per-prediction reference lists to sacrebleu, which reads references as
  *streams* (one list per reference, across segments): jury's references are
  transposed, a defect (docs/peers.md); every prediction must have the same
  number of references: jury checks it on purpose (``_validate_references``,
  "Sacrebleu requires the same number of references for each prediction"), so
  the adapter refuses such a corpus up front (``UnsupportedOption``: not
  applicable) rather than pass on jury's ``ValueError`` as a crash.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import ANY, Adapter, References
from metricdiff.impls.declarations import Cost, Declared, Isolated, Package
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers._rouge_common import IsolatedPeerAdapter
from metricdiff.impls.peers.hf_evaluate import ROUGE_SCORE_AGGREGATED
from metricdiff.impls.peers.rouge_score import rouge_type
from metricdiff.impls.peers.sacrebleu import SacrebleuAdapter
from metricdiff.impls.segment_references import usable_rouge_references
from metricdiff.profiles import BleuOptions, RougeOptions
from metricdiff.statistics import BleuResult, RougeResult

NAME = "jury"
# Its pins (nltk<3.7.1, rouge-score==0.0.4, click==8.0.4, datasets<2.10) clash with
# the main environment; beside it what importing it needs that the main environment
# lacks (pyarrow 20: datasets 2.9 needs pa.PyExtensionType, gone in pyarrow 21).
ISOLATED = Isolated(NAME, "jury", "2.3.1", "jury", (
    "evaluate==0.4.6", "datasets==2.9.0", "pyarrow==20.0.0", "pandas==3.1.1",
    "python-dateutil==2.9.0.post0", "tzdata==2026.6", "dill==0.3.6",
    "multiprocess==0.70.14", "xxhash==4.1.0", "fsspec==2026.9.0",
    "huggingface-hub==0.36.2", "responses==0.18.0", "aiohttp==3.14.5", "aiosignal==1.4.0",
    "frozenlist==1.8.0", "multidict==7.2.1", "yarl==1.25.1", "propcache==0.5.4",
    "aiohappyeyeballs==2.7.1", "scikit-learn==1.9.1", "scipy==1.17.1", "joblib==1.6.0",
    "threadpoolctl==3.8.0", "narwhals==2.29.0", "validators==0.36.0",
    # huggingface-hub, datasets and pandas import these at load time.
    *_isolated.REQUESTS, "pyyaml==6.0.4", "filelock==4.3.2", "typing-extensions==4.16.0",
    "pytz==2026.6",
))
#: jury's ROUGE reports F alone.
_F_ONLY = frozenset({"recall", "precision", "matches", "hyp_total", "ref_total"})


def _offline_first() -> None:
    """The variables must be set before ``evaluate`` is first imported."""
    os.environ.update(HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    os.environ.setdefault("HF_HOME", str(_isolated.peer_dir(ISOLATED) / ".hf-home"))


#: Both families' cost in an audit (``Cost.audit_generated_cases``).
AUDIT_GENERATED_CASES = 300
AUDIT_COST = ("about 0.1 s a case: each call of jury goes through Hugging Face datasets "
              "and, for ROUGE, 1000 bootstrap resamples")


def _metric(which: str) -> Any:
    """``jury.load_metric(which)``, offline, inside ``_isolated.active``."""
    _offline_first()
    # In memory: the default writes Arrow files under one HF_HOME that concurrent
    # workers share (same experiment id), and reading another's gave wrong scores.
    return _isolated.load(ISOLATED).module.load_metric(which, keep_in_memory=True)


class JuryRougeAdapter(IsolatedPeerAdapter):
    """jury 2.3.1's ``rouge`` (rouge-score underneath), F only."""

    name = NAME
    package = Package(
        distribution="jury",
        modules=("numpy", "rouge_score"),
        extra="peers",  # its sacrebleu metric imports the main environment's sacrebleu
        isolated=ISOLATED,
    )
    declared = Declared(
        metrics=(*(f"rouge-{n}" for n in range(1, 10)), "rouge-l", "rouge-lsum"),
        profile=ROUGE_SCORE_AGGREGATED,
        settable={
            "stemmer": ("none", "porter-nltk"),
            "bootstrap_seed": ANY,
        },
        own_stemmer="porter-nltk",
        reproducible=False,  # its bootstrap, though seeded, differs from run to run
    )
    cost = Cost(
        audit_generated_cases=AUDIT_GENERATED_CASES,
        audit_reason=AUDIT_COST,
    )

    def unavailable_reason(self) -> str | None:
        _offline_first()
        return super().unavailable_reason()

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: RougeOptions) -> RougeResult:
        import numpy

        self.prepared(metric, options)
        segments = self.segments(hyps, refs)
        kind = rouge_type(metric)
        with _isolated.active(ISOLATED):
            rouge = _metric("rouge")
            saved = numpy.random.get_state()
            numpy.random.seed(options.bootstrap_seed)
            try:
                scores = rouge.compute(predictions=[[hyp] for hyp, _ in segments],
                                       references=[seg for _, seg in segments],
                                       rouge_types=[kind],
                                       use_stemmer=options.stemmer != "none")
            finally:
                numpy.random.set_state(saved)
        return RougeResult(0.0, 0.0, float(scores["rouge"][kind]), unknown=_F_ONLY)


class JuryBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """jury 2.3.1's ``sacrebleu`` (its ``bleu`` needs the network)."""

    name = NAME
    package = JuryRougeAdapter.package
    declared = Declared(
        metrics=("bleu",),
        profile=SacrebleuAdapter.declared.profile,
    )
    cost = Cost(
        audit_generated_cases=AUDIT_GENERATED_CASES,
        audit_reason=AUDIT_COST,
    )
    family = "bleu"

    def version(self) -> str:
        return JuryRougeAdapter().version()

    def unavailable_reason(self) -> str | None:
        return JuryRougeAdapter().unavailable_reason()

    def ensure_available(self) -> None:
        JuryRougeAdapter().ensure_available()

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: BleuOptions) -> BleuResult:
        self.prepared(metric, options)
        if len(hyps) != len(refs):
            raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
        references = [usable_rouge_references(seg) for seg in refs]
        for number, seg in enumerate(references[1:], 2):
            if len(seg) != len(references[0]):
                raise UnsupportedOption(
                    f"{NAME} takes the same number of references for every segment (its "
                    "sacrebleu checks it); segment 1 has "
                    f"{len(references[0])}, segment {number} has {len(seg)}")
        with _isolated.active(ISOLATED):
            out = _metric("sacrebleu").compute(
                predictions=[[hyp] for hyp in hyps], references=references)["sacrebleu"]
        return BleuResult(
            score=float(out["score"]) * 100,
            precisions=tuple(float(p) * 100 for p in out["precisions"]),
            bp=float(out["bp"]),
            sys_len=int(out["sys_len"]),
            ref_len=float(out["ref_len"]),
            counts=tuple(out["counts"]),
            totals=tuple(out["totals"]),
        )

"""Hugging Face ``evaluate`` (PyPI ``evaluate``, 0.4.6): ``evaluate.load("bleu")``,
``evaluate.load("sacrebleu")``, ``evaluate.load("rouge")`` -- listed, never run.

Its metrics are not in the package: ``evaluate.load(name)`` downloads the
metric's script (``metrics/<name>/<name>.py`` of the evaluate repository, kept
on the Hugging Face Hub) at run time and imports it.  Neither the 0.4.6 wheel
(34 files, no ``metrics/``) nor its sdist ships them, and no registry package
does; with ``HF_EVALUATE_OFFLINE=1`` it only finds scripts a networked run has
cached.  metricdiff downloads nothing, and an adapter it cannot check against
the real scripts here would be a guess, so both families report themselves
unavailable, with the reason.  The profiles below are what the scripts do
(read from the evaluate repository), so that ``metricdiff impls`` can say it:

* ``bleu``: tensorflow/nmt's ``compute_bleu`` after evaluate's own 13a
  tokenizer: ``tokenize=13a``; the reference length is the *shortest*
  reference's (``min(len(r) for r in references)``: ``ref_length=shortest``);
  an empty hypothesis or reference corpus divides by zero
  (``empty_policy=error``); ``smooth=True`` adds 1 to every order's matches and
  totals, unigrams included.
* ``sacrebleu``: ``sacrebleu.corpus_bleu`` with sacrebleu's defaults -- the
  ``sacrebleu`` adapter's profile -- but every prediction must have the same
  number of references.
* ``rouge``: rouge-score's ``RougeScorer`` (the ``rouge-score`` adapter's
  profile, F only: ``report=f``), ``score_multi`` for several references
  (``multi_ref=best-f``) and, with the default ``use_aggregator=True``, the
  median of an *unseeded* ``BootstrapAggregator`` (``corpus_average=
  bootstrap-median``): the corpus number changes from run to run.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from metricdiff.errors import AdapterUnavailable
from metricdiff.impls.base import Adapter, References
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.peers._rouge_common import PeerRougeAdapter
from metricdiff.impls.peers.rouge_score import RougeScoreAdapter
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuResult

#: rouge-score's profile with its ``BootstrapAggregator``'s median as the corpus
#: number: what HF evaluate's and jury's ``rouge`` report by default.
ROUGE_SCORE_AGGREGATED: Mapping[str, Any] = {
    **RougeScoreAdapter.declared.profile, "corpus_average": "bootstrap-median"}

VERSION = "0.4.6"


def hub_only_reason(name: str) -> str:
    """Why an ``evaluate``-based implementation cannot run here."""
    try:
        installed = f"evaluate {importlib.metadata.version('evaluate')} is installed, but it"
    except importlib.metadata.PackageNotFoundError:
        installed = f"evaluate (pip install evaluate=={VERSION})"
    return (f"{name}: {installed} fetches its bleu, sacrebleu and rouge metric scripts "
            "from the Hugging Face Hub at run time (no wheel or registry package ships them) "
            "and there is no network here; metricdiff downloads nothing")


class _HubOnly:
    """What both families share: unavailable, with the reason."""

    name: ClassVar[str] = "hf-evaluate"
    # Not an extra of metricdiff: it would download its metrics at run time.
    package = Package(distribution="evaluate")

    def unavailable_reason(self) -> str | None:
        return hub_only_reason(self.name)

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: Any) -> Any:
        raise AdapterUnavailable(hub_only_reason(self.name))


class HfEvaluateBleuAdapter(_HubOnly, Adapter[BleuOptions, BleuResult]):
    """``evaluate.load("bleu")`` (tensorflow/nmt's BLEU): listed, unavailable."""

    family = "bleu"
    declared = Declared(
        metrics=("bleu",),
        profile={
            "tokenize": "13a",
            "ref_length": "shortest",
            "empty_policy": "error",
        },
    )


class HfEvaluateRougeAdapter(_HubOnly, PeerRougeAdapter):
    """``evaluate.load("rouge")`` (rouge-score underneath): listed, unavailable."""

    declared = Declared(
        metrics=("rouge-1", "rouge-2", "rouge-l", "rouge-lsum"),
        profile=ROUGE_SCORE_AGGREGATED,
    )

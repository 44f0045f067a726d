"""Adapters: one module per peer implementation, all behind ``base.Adapter``.

A peer that implements both BLEU and ROUGE has one adapter class per family in its
module; users name the peer and the metric, and ``get_adapter`` finds the class.
"""

from __future__ import annotations

import importlib
from typing import Any

from metricdiff.adapters.base import Adapter, AdapterUnavailable, UnsupportedOption
from metricdiff.conventions import ConventionError
from metricdiff.metrics import family

# name -> family -> "module:Class", imported lazily so a missing peer costs nothing.
_REGISTRY: dict[str, dict[str, str]] = {
    "reference": {
        "bleu": "reference:ReferenceBleuAdapter",
        "rouge": "reference:ReferenceRougeAdapter",
    },
    "sacrebleu": {"bleu": "sacrebleu:SacrebleuAdapter"},
    "nltk": {"bleu": "nltk:NltkAdapter"},
    "pycocoevalcap": {
        "bleu": "pycocoevalcap:PycocoevalcapBleuAdapter",
        "rouge": "pycocoevalcap:PycocoevalcapRougeAdapter",
    },
    "rouge-score": {"rouge": "rouge_score:RougeScoreAdapter"},
    "rouge-metric-py": {"rouge": "rouge_metric_py:RougeMetricPyAdapter"},
    "rouge-pltrdy": {"rouge": "rouge_pltrdy:RougePltrdyAdapter"},
    "py-rouge": {"rouge": "py_rouge:PyRougeAdapter"},
    "torchmetrics": {"rouge": "torchmetrics:TorchmetricsRougeAdapter"},
    "rouge155": {"rouge": "rouge155:Rouge155Adapter"},
}

AnyAdapter = Adapter[Any, Any]


def adapter_names() -> list[str]:
    """Every implementation metricdiff knows, installed or not."""
    return list(_REGISTRY)


def families_of(name: str) -> list[str]:
    """The metric families (``bleu``, ``rouge``) implementation ``name`` has."""
    return list(_entry(name))


def _entry(name: str) -> dict[str, str]:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ConventionError(
            f"unknown implementation {name!r} (known: {', '.join(_REGISTRY)})"
        ) from None


def get_adapter(name: str, metric: str = "bleu") -> AnyAdapter:
    """The adapter of implementation ``name`` for ``metric`` (it may still be
    unavailable: see ``Adapter.unavailable_reason``)."""
    return adapter_for_family(name, family(metric), metric)


def adapter_for_family(name: str, wanted: str, metric: str | None = None) -> AnyAdapter:
    """The adapter of implementation ``name`` for the family ``bleu`` or ``rouge``."""
    try:
        module_name, class_name = _entry(name)[wanted].split(":")
    except KeyError:
        raise UnsupportedOption(
            f"{name} does not implement {metric or wanted!r} (it implements: "
            f"{', '.join(families_of(name))})"
        ) from None
    module = importlib.import_module(f"metricdiff.adapters.{module_name}")
    adapter: AnyAdapter = getattr(module, class_name)()
    return adapter


__all__ = [
    "Adapter",
    "AdapterUnavailable",
    "AnyAdapter",
    "UnsupportedOption",
    "adapter_for_family",
    "adapter_names",
    "families_of",
    "get_adapter",
]

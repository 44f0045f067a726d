"""Adapters: one module per peer implementation, all behind ``base.Adapter``."""

from __future__ import annotations

import importlib

from metricdiff.adapters.base import Adapter, AdapterUnavailable, UnsupportedOption
from metricdiff.conventions import ConventionError

# name -> "module:Class", imported lazily so a missing peer costs nothing.
_REGISTRY: dict[str, str] = {
    "reference": "reference:ReferenceAdapter",
    "sacrebleu": "sacrebleu:SacrebleuAdapter",
    "nltk": "nltk:NltkAdapter",
    "pycocoevalcap": "pycocoevalcap:PycocoevalcapAdapter",
}


def adapter_names() -> list[str]:
    """Every implementation metricdiff knows, installed or not."""
    return list(_REGISTRY)


def get_adapter(name: str) -> Adapter:
    """The adapter called ``name`` (it may still be unavailable: see
    ``Adapter.unavailable_reason``)."""
    try:
        module_name, class_name = _REGISTRY[name].split(":")
    except KeyError:
        raise ConventionError(
            f"unknown implementation {name!r} (known: {', '.join(_REGISTRY)})"
        ) from None
    module = importlib.import_module(f"metricdiff.adapters.{module_name}")
    adapter: Adapter = getattr(module, class_name)()
    return adapter


__all__ = ["Adapter", "AdapterUnavailable", "UnsupportedOption", "adapter_names", "get_adapter"]

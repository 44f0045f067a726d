"""Adapters: one module per peer implementation, all behind ``base.Adapter``.

A peer that implements both BLEU and ROUGE has one adapter class per family in its
module; users name the peer and the metric, and ``get_adapter`` finds the class.

Besides the built-in ones: a user's own implementation, named by a spec string
(``python:MODULE:FUNCTION``, ``cmd:COMMAND``: ``user.py``), and third-party
adapters registered as entry points of the group ``metricdiff.adapters``: the
entry point's name is the implementation's, its value ``module:Class`` (an
``Adapter`` subclass; one entry point per family if it has both).
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import sys
from typing import Any

from metricdiff.errors import AdapterUnavailable, UnsupportedOption
from metricdiff.implementations.base import Adapter
from metricdiff.implementations.user import is_user_spec, user_adapter, user_families
from metricdiff.profiles import ConventionError
from metricdiff.profiles.metrics import family

#: The entry-point group through which other packages register adapters.
ENTRY_POINT_GROUP = "metricdiff.adapters"

# name -> family -> "module:Class", imported lazily so a missing peer costs nothing.
_REGISTRY: dict[str, dict[str, str]] = {
    "reference": {
        "bleu": "reference.adapter:ReferenceBleuAdapter",
        "rouge": "reference.adapter:ReferenceRougeAdapter",
    },
    "sacrebleu": {"bleu": "peers.sacrebleu:SacrebleuAdapter"},
    "nltk": {"bleu": "peers.nltk:NltkAdapter"},
    "pycocoevalcap": {
        "bleu": "peers.pycocoevalcap:PycocoevalcapBleuAdapter",
        "rouge": "peers.pycocoevalcap:PycocoevalcapRougeAdapter",
    },
    "rouge-score": {"rouge": "peers.rouge_score:RougeScoreAdapter"},
    "rouge-metric-py": {"rouge": "peers.rouge_metric_py:RougeMetricPyAdapter"},
    "rouge-pltrdy": {"rouge": "peers.rouge_pltrdy:RougePltrdyAdapter"},
    "py-rouge": {"rouge": "peers.py_rouge:PyRougeAdapter"},
    "torchmetrics": {"rouge": "peers.torchmetrics:TorchmetricsRougeAdapter"},
    "rouge155": {"rouge": "peers.rouge155:Rouge155Adapter"},
}

AnyAdapter = Adapter[Any, Any]


def adapter_names() -> list[str]:
    """Every implementation metricdiff knows, installed or not: the built-in ones,
    then those of entry points (a broken one is left out, with a note)."""
    return [*_REGISTRY, *(name for name in _plugin_entries() if _plugin_classes(name))]


def families_of(name: str) -> list[str]:
    """The metric families (``bleu``, ``rouge``) implementation ``name`` has."""
    if is_user_spec(name):
        return user_families(name)
    return list(_plugin_classes(name) or _entry(name))


def _entry(name: str) -> dict[str, str]:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ConventionError(
            f"unknown implementation {name!r} (known: {', '.join(adapter_names())}; "
            "or python:MODULE:FUNCTION, cmd:COMMAND)"
        ) from None


def _plugin_entries() -> dict[str, list[str]]:
    """Entry-point name -> its values, found on the current ``sys.path``."""
    return _entries_on(tuple(sys.path))


@functools.lru_cache(maxsize=8)
def _entries_on(path: tuple[str, ...]) -> dict[str, list[str]]:
    entries: dict[str, list[str]] = {}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in _REGISTRY or is_user_spec(entry.name):
            _note(entry.name, entry.value, "the name is taken by metricdiff")
            continue
        if entry.value not in entries.setdefault(entry.name, []):
            entries[entry.name].append(entry.value)
    return entries


def _plugin_classes(name: str) -> dict[str, type[AnyAdapter]]:
    """Family -> adapter class of the entry points named ``name`` (none for a
    built-in name or an unknown one)."""
    classes: dict[str, type[AnyAdapter]] = {}
    for value in [] if name in _REGISTRY else _plugin_entries().get(name, []):
        loaded = _load_plugin(name, value)
        if loaded is not None:
            classes.setdefault(loaded.family, loaded)
    return classes


@functools.cache
def _load_plugin(name: str, value: str) -> type[AnyAdapter] | None:
    """The class an entry point names, or None (with a note) if it is broken: a
    third-party package must not be able to stop metricdiff."""
    module_name, _, attribute = value.partition(":")
    try:
        loaded: Any = importlib.import_module(module_name.strip())
        for part in attribute.strip().split("."):
            loaded = getattr(loaded, part)
    except Exception as error:  # whatever its import raises
        _note(name, value, f"{type(error).__name__}: {error}")
        return None
    if not (isinstance(loaded, type) and issubclass(loaded, Adapter)):
        _note(name, value, "not an Adapter subclass")
        return None
    if getattr(loaded, "family", None) not in ("bleu", "rouge"):
        _note(name, value, f"family {loaded.family!r} is not bleu or rouge")
        return None
    # Worker processes find the adapter again by its name: they must be the same.
    if getattr(loaded, "name", None) != name:
        _note(name, value, f"its name is {getattr(loaded, 'name', None)!r}, not {name!r}")
        return None
    return loaded


def _note(name: str, value: str, why: str) -> None:
    print(f"metricdiff: note: skipping adapter entry point {name} = {value} ({why})",
          file=sys.stderr)


def get_adapter(name: str, metric: str = "bleu") -> AnyAdapter:
    """The adapter of implementation ``name`` for ``metric`` (it may still be
    unavailable: see ``Adapter.unavailable_reason``)."""
    return adapter_for_family(name, family(metric), metric)


def adapter_for_family(name: str, wanted: str, metric: str | None = None) -> AnyAdapter:
    """The adapter of implementation ``name`` for the family ``bleu`` or ``rouge``."""
    if wanted not in families_of(name):
        raise UnsupportedOption(
            f"{name} does not implement {metric or wanted!r} (it implements: "
            f"{', '.join(families_of(name))})"
        )
    if is_user_spec(name):
        return user_adapter(name, wanted)
    if name not in _REGISTRY:
        return _plugin_classes(name)[wanted]()
    module_name, class_name = _REGISTRY[name][wanted].split(":")
    module = importlib.import_module(f"metricdiff.implementations.{module_name}")
    adapter: AnyAdapter = getattr(module, class_name)()
    return adapter


__all__ = [
    "ENTRY_POINT_GROUP",
    "Adapter",
    "AdapterUnavailable",
    "AnyAdapter",
    "UnsupportedOption",
    "adapter_for_family",
    "adapter_names",
    "families_of",
    "get_adapter",
]

# ``metricdiff.implementations()`` lists them all (``metricdiff.api.implementations``).
from metricdiff._callable import make_callable  # noqa: E402

make_callable(__name__, "implementations")

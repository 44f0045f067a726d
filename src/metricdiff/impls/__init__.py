"""Implementations: the registry of adapters, and the one call that turns an
``--impl`` spec into an implementation (``resolve``).

An implementation is an adapter (``base.Adapter``) configured with the settings
its spec gives (``settings.py``: ``rouge-score[stemmer=porter-nltk]``).  Its name
is one of:

* a built-in peer or the reference: one module per peer, one adapter class per
  metric family (a peer that implements BLEU and ROUGE has two);
* a user's own implementation, named by a spec string (``python:MODULE:FUNCTION``,
  ``cmd:COMMAND``: the package ``user``);
* a third-party adapter registered as an entry point of the group
  ``metricdiff.adapters``: the entry point's name is the implementation's, its
  value ``module:Class`` (an ``Adapter`` subclass; one entry point per family if
  it has both).
"""

from __future__ import annotations

import functools
import importlib
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from metricdiff.errors import AdapterUnavailable, MetricdiffWarning, UnsupportedOption
from metricdiff.impls import user
from metricdiff.impls.base import Adapter
from metricdiff.impls.declarations import Isolated
from metricdiff.impls.quiet_import import import_quietly
from metricdiff.impls.settings import ImplSpec, parse_spec
from metricdiff.profiles import ConventionError, axis_names
from metricdiff.profiles.metrics import family, paper_options

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
    "sacrerouge": {"rouge": "peers.sacrerouge:SacrerougeAdapter"},
    "pyrouge": {"rouge": "peers.pyrouge:PyrougeAdapter"},
    "jury": {"bleu": "peers.jury:JuryBleuAdapter", "rouge": "peers.jury:JuryRougeAdapter"},
    "hf-evaluate": {
        "bleu": "peers.hf_evaluate:HfEvaluateBleuAdapter",
        "rouge": "peers.hf_evaluate:HfEvaluateRougeAdapter",
    },
    "torchmetrics": {
        "bleu": "peers.torchmetrics:TorchmetricsBleuAdapter",
        "rouge": "peers.torchmetrics:TorchmetricsRougeAdapter",
    },
    "rouge155": {"rouge": "peers.rouge155:Rouge155Adapter"},
    "easy-rouge": {"rouge": "peers.easy_rouge:EasyRougeAdapter"},
    "rouge-chinese": {"rouge": "peers.rouge_chinese:RougeChineseAdapter"},
    "rouge-score-rs": {"rouge": "peers.rouge_score_rs:RougeScoreRsAdapter"},
    "sumeval": {
        "bleu": "peers.sumeval:SumevalBleuAdapter",
        "rouge": "peers.sumeval:SumevalRougeAdapter",
    },
    "multi-bleu": {"bleu": "peers.multi_bleu:MultiBleuAdapter"},
    "mteval-v13a": {"bleu": "peers.mteval:MtevalV13aAdapter"},
    "ignite": {
        "bleu": "peers.ignite:IgniteBleuAdapter",
        "rouge": "peers.ignite:IgniteRougeAdapter",
    },
    "bleuscore": {"bleu": "peers.bleuscore:BleuscoreAdapter"},
    "compare-mt": {"bleu": "peers.compare_mt:CompareMtAdapter"},
    "fast-bleu": {"bleu": "peers.fast_bleu:FastBleuAdapter"},
    "vizseq": {"bleu": "peers.vizseq:VizseqAdapter"},
    "bleu": {"bleu": "peers.pypi_bleu:PypiBleuAdapter"},
}

AnyAdapter = Adapter[Any, Any]
FAMILIES = ("bleu", "rouge")


def adapter_names() -> list[str]:
    """Every implementation metricdiff knows, installed or not: the built-in ones,
    then those of entry points (a broken one is left out, with a
    ``MetricdiffWarning``)."""
    return [*_REGISTRY, *(name for name in _plugin_entries() if _plugin_classes(name))]


def builtin_classes() -> list[type[AnyAdapter]]:
    """Every built-in adapter class (the reference's and the peers'), one per
    implementation and family, in the registry's order; each peer's module is
    imported, not its library."""
    found = []
    for families in _REGISTRY.values():
        for target in families.values():
            module_name, class_name = target.split(":")
            module = importlib.import_module(f"metricdiff.impls.{module_name}")
            found.append(getattr(module, class_name))
    return found


def isolated_peers() -> dict[str, Isolated]:
    """Name -> the folder of its own of every built-in peer that needs one
    (``Package.isolated``): what ``metricdiff install-peers`` installs."""
    peers: dict[str, Isolated] = {}
    for adapter in builtin_classes():
        if adapter.package.isolated is not None:
            peers.setdefault(adapter.package.isolated.name, adapter.package.isolated)
    return peers


def _adapter_class(name: str, wanted: str) -> type[AnyAdapter] | None:
    """The adapter class of implementation ``name`` (without settings) for the
    family ``wanted``, None if it has no such family; ConventionError if the name
    is unknown."""
    own = user.adapter_class(name, wanted)
    if own is not None:
        return own if own.declared.metrics else None
    if name in _REGISTRY:
        if wanted not in _REGISTRY[name]:
            return None
        module_name, class_name = _REGISTRY[name][wanted].split(":")
        module = importlib.import_module(f"metricdiff.impls.{module_name}")
        found: type[AnyAdapter] = getattr(module, class_name)
        return found
    classes = _plugin_classes(name)
    if not classes:
        raise ConventionError(
            f"unknown implementation {name!r} (known: {', '.join(adapter_names())}; "
            "or python:MODULE:FUNCTION, cmd:COMMAND)"
        )
    return classes.get(wanted)


def _foreign_axes(spec: ImplSpec, wanted: str) -> list[str]:
    """The axes the spec sets that the family ``wanted`` does not have."""
    axes = axis_names(type(paper_options("bleu" if wanted == "bleu" else "rouge-1")))
    return [axis for axis, _ in spec.settings if axis not in axes]


def families_of(spec: str) -> list[str]:
    """The metric families (``bleu``, ``rouge``) the implementation ``spec`` names
    has, and its settings apply to."""
    parsed = parse_spec(spec)
    return [f for f in FAMILIES if _has_family(parsed.name, f) and not _foreign_axes(parsed, f)]


def _has_family(name: str, wanted: str) -> bool:
    if name in _REGISTRY:  # without importing the peer's module
        return wanted in _REGISTRY[name]
    return _adapter_class(name, wanted) is not None


def _plugin_entries() -> dict[str, list[str]]:
    """Entry-point name -> its values, found on the current ``sys.path``."""
    return _entries_on(tuple(sys.path))


@functools.lru_cache(maxsize=8)
def _entries_on(path: tuple[str, ...]) -> dict[str, list[str]]:
    import importlib.metadata  # here: it costs start-up, and a built-in name needs none

    entries: dict[str, list[str]] = {}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in _REGISTRY or user.is_user_spec(entry.name):
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
    """The class an entry point names, or None (with a ``MetricdiffWarning``) if it
    is broken: a third-party package must not be able to stop metricdiff."""
    module_name, _, attribute = value.partition(":")
    try:
        loaded: Any = import_quietly(module_name.strip())
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
    warnings.warn(f"skipping adapter entry point {name} = {value} ({why})",
                  MetricdiffWarning, stacklevel=2)


def adapter_for_family(spec: str, wanted: str, metric: str | None = None) -> AnyAdapter:
    """The adapter of implementation ``spec`` for the family ``bleu`` or
    ``rouge``, configured with the spec's settings (not yet checked: ``resolve``
    checks them)."""
    parsed = parse_spec(spec)
    found = _adapter_class(parsed.name, wanted)
    if found is None:
        families = [f for f in FAMILIES if _has_family(parsed.name, f)]
        raise UnsupportedOption(
            f"{parsed.name} does not implement {metric or wanted!r} (it implements: "
            f"{', '.join(families)})"
        )
    foreign = _foreign_axes(parsed, wanted)
    if foreign:
        raise UnsupportedOption(f"{parsed.text}: {foreign[0]} is not an axis of {metric or wanted}")
    return found().configured(dict(parsed.settings))


def get_adapter(spec: str, metric: str = "bleu") -> AnyAdapter:
    """The adapter of implementation ``spec`` for the family of ``metric``,
    configured with the spec's settings, whether or not it computes ``metric``
    itself (it may also be unavailable: see ``Adapter.unavailable_reason``)."""
    return adapter_for_family(spec, family(metric), metric)


def computes(spec: str, metric: str) -> bool:
    """Whether the implementation ``spec`` names computes ``metric`` (installed or
    not; ConventionError if it is unknown)."""
    try:
        return metric in get_adapter(spec, metric).declared.metrics
    except UnsupportedOption:  # not even the metric's family, or its settings' axes
        return False



def chosen_metrics(
    requested: Sequence[str] | None, impls: Sequence[str] | None, defaults: Sequence[str]
) -> list[str]:
    """The metrics a command runs: ``--metric``'s; else the default ones, but with
    ``--impl`` only those one of the named implementations computes (running
    ``--impl sacrebleu`` on seven ROUGE metrics nobody can run says nothing)."""
    if requested:
        return list(dict.fromkeys(requested))
    if not impls:
        return list(defaults)
    chosen = [m for m in defaults if any(computes(name, m) for name in impls)]
    if not chosen:
        raise ConventionError(
            f"none of {', '.join(impls)} computes any of: {', '.join(defaults)}; give --metric"
        )
    return chosen

def check_named(names: Sequence[str], metrics: Sequence[str]) -> None:
    """ConventionError for a named implementation that is unknown, or that
    computes none of ``metrics``: a name given is never dropped in silence."""
    for name in names:
        families_of(name)  # an unknown name is an error, not a silent no-show
        if not any(computes(name, metric) for metric in metrics):
            raise ConventionError(f"{name} computes none of: {', '.join(metrics)}")


def resolve(spec: str, metric: str) -> AnyAdapter:
    """The implementation ``--impl SPEC`` names, for ``metric``: its adapter,
    configured with the spec's settings and checked.  A one-line error
    (ConventionError, UnsupportedOption) for an unknown name, axis or value, a
    metric it does not compute, or a setting it cannot honour.  Whether it can
    run here is ``unavailable_reason``'s to say; ``options(metric, overrides)``
    then gives its profile, with ``-o`` overrides if any."""
    adapter = get_adapter(spec, metric)
    adapter.check_metric(metric)
    try:
        adapter.options(metric)  # refuses a setting it cannot honour
    except UnsupportedOption:  # its message names the implementation
        raise
    except ConventionError as error:  # an unknown value: say where it was given
        raise ConventionError(f"--impl {adapter.display_name!r}: {error}") from None
    return adapter


def split_impl(impl: str) -> tuple[str, str | None]:
    """``rouge-score-0.1.2`` -> (``rouge-score``, ``0.1.2``): the longest known
    implementation name the text starts with; (text, None) if none fits.

    A user's own implementation (``python:my.py:bleu-local``) is its spec and
    what follows the last ``-``; the placeholder ``local`` is no version."""
    if user.is_user_spec(impl):
        spec, dash, version = impl.rpartition("-")
        if not dash:
            return impl, None
        return spec, None if version == user.LOCAL_VERSION else version
    for name in sorted(adapter_names(), key=len, reverse=True):
        if impl == name:
            return name, None
        if impl.startswith(f"{name}-"):
            return name, impl[len(name) + 1:]
    return impl, None


__all__ = [
    "ENTRY_POINT_GROUP",
    "FAMILIES",
    "Adapter",
    "AdapterUnavailable",
    "AnyAdapter",
    "UnsupportedOption",
    "adapter_for_family",
    "adapter_names",
    "builtin_classes",
    "check_named",
    "chosen_metrics",
    "computes",
    "families_of",
    "get_adapter",
    "isolated_peers",
    "resolve",
    "split_impl",
]

# ``metricdiff.implementations()`` lists them all (``metricdiff.api.implementations``).

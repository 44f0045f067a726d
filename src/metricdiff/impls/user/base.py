"""What ``python:`` and ``cmd:`` adapters share: the adapter whose profile the
user declares, and a result from the fields the user's code reported."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from metricdiff.errors import InvalidOutput
from metricdiff.impls.base import ANY, Adapter
from metricdiff.impls.declarations import Declared
from metricdiff.profiles import AXES
from metricdiff.profiles.metrics import Options, Result
from metricdiff.profiles.profile import unknown_signature
from metricdiff.statistics import BleuResult, RougeResult

#: The version of a user's implementation that states none (a ``python:`` module
#: without ``__version__``, every ``cmd:``): a placeholder, not a version to show.
LOCAL_VERSION = "local"

#: The keys a result may have, per family: ``to_json``'s; the first is required.
FIELDS: dict[str, tuple[str, ...]] = {
    "bleu": ("score", "precisions", "bp", "sys_len", "ref_len", "counts", "totals"),
    "rouge": ("fmeasure", "recall", "precision", "matches", "hyp_total", "ref_total"),
}
_FROM_JSON: dict[str, Callable[[dict[str, Any]], Result]] = {
    "bleu": BleuResult.from_json,
    "rouge": RougeResult.from_json,
}


def _number(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise InvalidOutput(f"{value!r} is not a number") from None
    return value


def result_from_fields(family_name: str, fields: object) -> Result:
    """The result a user's function or program reported, the statistics it left
    out marked unknown (``Result.unknown``)."""
    if not isinstance(fields, Mapping):
        raise InvalidOutput(f"returned {type(fields).__name__}, not a dict of fields")
    allowed = FIELDS[family_name]
    extra = sorted(str(key) for key in fields if key not in allowed)
    if extra:
        raise InvalidOutput(
            f"unknown field {', '.join(extra)} (a {family_name} result has: "
            f"{', '.join(allowed)})"
        )
    if fields.get(allowed[0]) is None:
        raise InvalidOutput(f"no {allowed[0]!r} in the result")
    data: dict[str, Any] = {}
    for key in allowed:
        value = fields.get(key)
        if value is not None and not isinstance(value, (str, bytes)) and hasattr(
            value, "__iter__"
        ):
            data[key] = [_number(item) for item in value]
        else:
            data[key] = None if value is None else _number(value)
    return _FROM_JSON[family_name](data)


# -------------------------------------------------------------- the adapters


class UserAdapter(Adapter[Any, Any]):
    """What ``python:`` and ``cmd:`` adapters share: the spec is the name, the
    profile is declared with settings (``--impl 'python:f.py:bleu[tokenize=13a]'``)
    or ``-o`` (every axis may be declared), or unknown: then the paper's profile
    stands in for it.

    There is one subclass per spec and family (``user.adapter_class``), so that
    ``type(adapter)()`` -- how worker processes rebuild an adapter from its name --
    gives the same adapter again."""

    declared = Declared(
        settable=dict.fromkeys(AXES, ANY),
        user_profile=True,
    )
    #: The spec after its prefix.
    spec: ClassVar[str] = ""

    def __init__(self) -> None:
        #: The axes declared when ``options`` was last called (settings and
        #: overrides): none means the profile is unknown.
        self.declared_axes: frozenset[str] = frozenset()

    def version(self) -> str:
        return LOCAL_VERSION

    def options(self, metric: str, overrides: Mapping[str, str] | None = None) -> Options:
        options: Options = super().options(metric, overrides)
        self.declared_axes = frozenset({**self.settings, **(overrides or {})})
        return options

    def signature(self, metric: str, options: Options) -> str:
        if not self.declared_axes:
            return unknown_signature(metric, f"{self.name}-{self.version()}")
        return super().signature(metric, options)

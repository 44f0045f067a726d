"""What ``python:`` and ``cmd:`` adapters share: the adapter whose profile the
user declares, and a result from the fields the user's code reported."""

from __future__ import annotations

import math
import numbers
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


#: Each field's scale, as metricdiff reports it (score and precisions 0-100,
#: ROUGE's ratios 0-1, a brevity penalty 0-1 as Papineni et al. 2002 §2.2.2
#: defines it), and whether it is a count (a whole number).  A value outside it
#: is invalid output: read on another scale, or not what the field means.
_RANGES: dict[str, tuple[float, float, bool]] = {
    "score": (0.0, 100.0, False), "precisions": (0.0, 100.0, False),
    "bp": (0.0, 1.0, False), "sys_len": (0.0, math.inf, True),
    "ref_len": (0.0, math.inf, False), "counts": (0.0, math.inf, True),
    "totals": (0.0, math.inf, True),
    "fmeasure": (0.0, 1.0, False), "recall": (0.0, 1.0, False),
    "precision": (0.0, 1.0, False), "matches": (0.0, math.inf, False),
    "hyp_total": (0.0, math.inf, False), "ref_total": (0.0, math.inf, False),
}
#: The fields that hold one value per n-gram order.
_LISTED = ("precisions", "counts", "totals")


def _number(name: str, value: Any) -> int | float:
    """A field's value, checked: a real number (an int or a float, numpy's
    included), not a bool, a text or bytes that look like one (``"42.5"``,
    ``b"42"``, ``True``: nothing is coerced); within the field's scale, and whole
    for a count.  InvalidOutput otherwise.  (NaN, an infinity, a negative value
    or one no float holds is left to ``scoring.validate``, which says so in the
    words it uses for every implementation.)"""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or type(
            value).__name__ == "bool_":
        raise InvalidOutput(f"{name} is {type(value).__name__} {value!r:.40}, not a number")
    number = int(value) if isinstance(value, numbers.Integral) else float(value)
    try:
        as_float = float(number)
    except OverflowError:
        return number
    if not math.isfinite(as_float) or as_float < 0:
        return number
    _low, high, whole = _RANGES[name.split("[")[0]]
    if as_float > high:
        raise InvalidOutput(f"{name} = {number!r} is above {high:g}: on metricdiff's scale "
                            f"it lies between 0 and {high:g} (use #scale for a program that "
                            "prints another)")
    if whole and not as_float.is_integer():
        raise InvalidOutput(f"{name} = {number!r} is a count, and not a whole number")
    return number


def result_from_fields(family_name: str, fields: object) -> Result:
    """The result a user's function or program reported, each value checked
    (``_number``: a score of 250, a count of 2.5 or the text "42.5" is invalid
    output), the statistics it left out marked unknown (``Result.unknown``)."""
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
        if value is None:
            data[key] = None
        elif key in _LISTED:
            if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
                raise InvalidOutput(f"{key} is {type(value).__name__}, not a list of numbers "
                                    "(one per n-gram order)")
            data[key] = [_number(f"{key}[{i}]", item) for i, item in enumerate(value)]
        else:
            data[key] = _number(key, value)
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

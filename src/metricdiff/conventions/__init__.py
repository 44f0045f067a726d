"""The one place where convention names live (see shared/CONVENTIONS.md)."""

from metricdiff.conventions.axes import ALL_AXES, AXES, Axis, ConventionError, axis_named
from metricdiff.conventions.bleu import BleuOptions
from metricdiff.conventions.profile import axis_names, profile_of, signature, with_overrides
from metricdiff.conventions.rouge import RougeOptions

__all__ = [
    "ALL_AXES",
    "AXES",
    "Axis",
    "BleuOptions",
    "ConventionError",
    "RougeOptions",
    "axis_named",
    "axis_names",
    "profile_of",
    "signature",
    "with_overrides",
]

"""The one place where convention names live (written out in docs/conventions.md and
printed by ``metricdiff axes``)."""

from metricdiff.errors import ConventionError
from metricdiff.profiles.axes import ALL_AXES, AXES, Axis, axis_named
from metricdiff.profiles.bleu import BleuOptions
from metricdiff.profiles.profile import axis_names, profile_of, signature, with_overrides
from metricdiff.profiles.rouge import RougeOptions

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

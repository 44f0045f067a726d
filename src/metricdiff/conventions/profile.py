"""Options as profiles: overriding axes from ``-o axis=value`` text, listing the
values on every axis, and writing the one-line signature."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

import attrs

from metricdiff.conventions.axes import AXES, ConventionError, axis_named

Options = TypeVar("Options", bound=attrs.AttrsInstance)


def axis_names(options_type: type[attrs.AttrsInstance]) -> tuple[str, ...]:
    """The axes an options type has, in signature order."""
    return tuple(field.name for field in attrs.fields(options_type))


def with_overrides(options: Options, overrides: Mapping[str, str]) -> Options:
    """``options`` with the axes in ``overrides`` (axis name -> text) replaced.

    Raises ConventionError naming the axis when a name or value is unknown or the
    result is inconsistent (for instance four weights with max_order=2).
    """
    known = axis_names(type(options))
    changes = {}
    for name, text in overrides.items():
        axis = axis_named(name)
        if name not in known:
            raise ConventionError(f"axis {name!r} does not apply to this metric")
        changes[name] = axis.parse(text)
    try:
        evolved: Options = attrs.evolve(options, **changes)  # type: ignore[misc]
        return evolved
    except (TypeError, ValueError) as error:
        raise ConventionError(str(error)) from None


def profile_of(options: attrs.AttrsInstance) -> dict[str, str]:
    """Every axis of ``options`` with its value written as text."""
    return {
        name: AXES[name].format(value)
        for name, value in attrs.asdict(options, recurse=False).items()
    }


def signature(metric: str, impl: str, options: attrs.AttrsInstance) -> str:
    """The one-line signature, e.g. ``bleu|impl:sacrebleu-2.6.0|tok:13a|...``."""
    parts = [metric, f"impl:{impl}"]
    parts += [f"{AXES[name].short}:{text}" for name, text in profile_of(options).items()]
    return "|".join(parts)

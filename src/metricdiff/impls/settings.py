"""An ``--impl`` spec: an implementation's name and the settings it runs under.

``NAME[AXIS=VALUE,AXIS=VALUE]`` sets convention axes of implementation NAME (a
built-in one, an entry point's, or a ``python:``/``cmd:`` spec): its adapter runs
with those values instead of its defaults, and refuses the ones it cannot honour.
A value may hold commas (``weights=0.5,0.5``): a piece without ``=`` continues the
previous value.  The spec with its settings, written canonically (axes in the
order of ``metricdiff.profiles``, values as signatures write them), names the
implementation everywhere: in findings, reports and locks
(``rouge-score[stemmer=porter-nltk]``), so that one implementation can take part
twice under different settings.  A name whose last ``[...]`` holds no ``=`` has
no settings (it is part of the name).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs

from metricdiff.profiles import AXES, ConventionError, axis_named

_WITH_SETTINGS = re.compile(r"(?P<name>.*)\[(?P<settings>[^\[\]]*=[^\[\]]*)\]", re.DOTALL)


@attrs.frozen
class ImplSpec:
    """A spec read: the implementation's ``name`` and its ``settings`` (axis ->
    value text), in axis order."""

    name: str
    settings: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        """The canonical spec: ``name``, or ``name[axis=value,...]``."""
        return spec_text(self.name, dict(self.settings))


def spec_text(name: str, settings: Mapping[str, str]) -> str:
    """``name`` with ``settings`` as a spec writes them."""
    if not settings:
        return name
    return f"{name}[{','.join(f'{axis}={value}' for axis, value in settings.items())}]"


def _canonical(axis: str, value: str) -> str:
    """``value`` as a signature writes it, or as given if it does not parse (the
    adapter then refuses it, with the reason: ``Adapter.options``)."""
    try:
        return AXES[axis].format(AXES[axis].parse(value))
    except ConventionError:
        return value.strip()


def parse_spec(text: str) -> ImplSpec:
    """``text`` as a name and settings; ConventionError (one line, quoting the
    spec) for an unknown axis, an axis given twice or a setting without ``=``."""
    text = text.strip()
    found = _WITH_SETTINGS.fullmatch(text)
    if found is None:
        return ImplSpec(text)
    name = found["name"].strip()
    if not name:
        raise ConventionError(f"--impl {text!r}: no implementation before '['")
    pairs: list[list[str]] = []
    for piece in found["settings"].split(","):
        axis, sep, value = piece.partition("=")
        if sep:
            pairs.append([axis.strip(), value])
        elif pairs and piece.strip():  # a value with commas: weights=0.5,0.5
            pairs[-1][1] += f",{piece}"
        else:
            raise ConventionError(
                f"--impl {text!r}: expected NAME[AXIS=VALUE,...], got {piece.strip()!r}"
            )
    settings: dict[str, str] = {}
    for axis, value in pairs:
        try:
            axis_named(axis)
        except ConventionError as error:
            raise ConventionError(f"--impl {text!r}: {error}") from None
        if axis in settings:
            raise ConventionError(f"--impl {text!r}: {axis} is set twice")
        settings[axis] = _canonical(axis, value)
    ordered = tuple((axis, settings[axis]) for axis in AXES if axis in settings)
    return ImplSpec(name, ordered)


def merged_settings(
    spec: str, settings: Mapping[str, str], overrides: Mapping[str, str]
) -> dict[str, str]:
    """``settings`` (from the spec's ``[...]``) and ``overrides`` (``-o``) together.
    An axis in both must have the same value in both: ``-o`` does not silently
    override what the spec says, nor the other way round."""
    merged = dict(settings)
    for axis, value in overrides.items():
        if axis in merged and _canonical(axis, value) != merged[axis]:
            raise ConventionError(
                f"{spec}: {axis} is set to {merged[axis]} in --impl and to {value} with -o; "
                "set it in one place"
            )
        merged[axis] = value
    return merged


def option_texts(options: object, where: str = "options") -> dict[str, str]:
    """``options`` given from Python (axis -> value) as ``-o`` takes them (axis ->
    text): a text as it is, a number (not a bool) written as Python writes it,
    a list or tuple of numbers comma-separated (``weights=(0.5, 0.5)``).
    ConventionError, naming ``where``, for anything else (``options=5``, a
    value of None)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ConventionError(f"{where} must be a mapping of axis to value, such as "
                              f"{{'tokenize': 'intl'}}, not {type(options).__name__}")
    texts = {}
    for axis, value in options.items():
        if not isinstance(axis, str):
            raise ConventionError(f"{where}: an axis is named by a string, not {axis!r}")
        texts[axis] = _value_text(value, f"{where}[{axis!r}]")
    return texts


def _value_text(value: object, where: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(item, (int, float)) and not isinstance(item, bool) for item in value):
        return ",".join(str(item) for item in value)
    raise ConventionError(f"{where} must be a string or a number (as -o takes it), not "
                          f"{type(value).__name__} {value!r}")


__all__ = ["ImplSpec", "merged_settings", "option_texts", "parse_spec", "spec_text"]

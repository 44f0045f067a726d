"""What a convention axis is: a name, a signature key, the values it takes and
the paper's value (an axis or value metricdiff does not know is a
``ConventionError``, in ``errors.py``).

The axes themselves are in ``axes_shared``, ``axes_bleu`` and ``axes_rouge``;
``axes`` gathers them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Union

import attrs

from metricdiff.errors import ConventionError

#: A typed axis value: a name from a fixed list, a number, or a weight vector.
Value = Union[str, int, float, "tuple[float, ...]", None]


def parse_whole_number(text: str, least: int, bound: str = "", most: int | None = None) -> int:
    """``text`` as a whole number from ``least`` (to ``most``); ``bound`` says so in
    the error (default ``>= least``, or ``from least to most``)."""
    default = f">= {least}" if most is None else f"from {least} to {most}"
    expected = f"expected a whole number {bound or default}, got {text!r}"
    try:  # a number of more than 4300 digits, or "²", is no number either
        number = int(text)
    except ValueError:
        raise ConventionError(expected) from None
    if number < least or (most is not None and number > most):
        raise ConventionError(expected)
    return number


def parse_int(text: str) -> int:
    """A whole number of at least 1 (an order, a count of resamples)."""
    return parse_whole_number(text, 1, "of at least 1")


def whole_numbers_up_to(most: int) -> Callable[[str], int]:
    """A parser of whole numbers from 1 to ``most``: a setting whose cost grows
    with it (an n-gram order, a count of resamples) bounded, generously, so that
    no value hangs a run."""
    def parse(text: str) -> int:
        return parse_whole_number(text, 1, most=most)

    return parse


def parse_positive_number(text: str, most: float = math.inf) -> float:
    """A finite number above 0 (and at most ``most``)."""
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number <= 0:
        raise ConventionError(f"expected a positive number, got {text!r}")
    if number > most:
        raise ConventionError(f"expected a positive number of at most {most:g}, got {text!r}")
    return number


def positive_numbers_up_to(most: float) -> Callable[[str], float]:
    """A parser of numbers above 0 and at most ``most``: a constant that would
    overflow a float beyond it (``weight=1e308`` makes k^weight infinite)."""
    def parse(text: str) -> float:
        return parse_positive_number(text, most)

    return parse


def _format(value: Value, none_text: str) -> str:
    if value is None:
        return none_text
    if isinstance(value, tuple):
        return ",".join(f"{w:g}" for w in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@attrs.frozen
class Axis:
    """One convention axis.

    ``values`` lists the allowed names for a choice axis; numeric axes leave it
    empty, parse with ``parser`` instead and say in ``accepts`` what they take.
    ``paper`` is the value that follows the paper, ``short`` the key used in
    signatures.
    """

    name: str
    short: str
    doc: str
    paper: Value
    values: tuple[str, ...] = ()
    parser: Callable[[str], Value] | None = None
    value_docs: dict[str, str] = attrs.field(factory=dict)
    none_text: str = "default"  # how a None value (the method's own default) prints
    accepts: str = ""  # a numeric axis's values, in words (docs/conventions.md)

    def parse(self, text: str) -> Value:
        """Turn the text a user wrote into the typed value, or raise ConventionError."""
        text = text.strip()
        if self.parser is not None:
            try:
                return self.parser(text)
            except ConventionError as error:
                raise ConventionError(f"axis {self.name!r}: {error}") from None
        if text not in self.values:
            raise ConventionError(
                f"unknown value {text!r} for axis {self.name!r} "
                f"(known: {', '.join(self.values)})"
            )
        return text

    def format(self, value: Value) -> str:
        """The value as it appears in a signature or report."""
        return _format(value, self.none_text)


def choice(
    name: str, short: str, doc: str, paper: str, values: dict[str, str]
) -> Axis:
    return Axis(name, short, doc, paper, tuple(values), None, values)

"""Values read back from JSON that metricdiff wrote, checked for their type: a
malformed file is a TypeError here, which the reader turns into a one-line error
naming the file (``reports.model``)."""

from __future__ import annotations

from typing import Any


def text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def listed(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {type(value).__name__}")
    return value


def number(value: Any) -> float:
    """An int or a float (not a bool), as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    return float(value)

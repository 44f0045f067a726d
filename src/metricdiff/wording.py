"""Small helpers for the words metricdiff prints, so that every command and report
counts things the same way ("1 case", "2 cases")."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` followed by ``noun``, in the plural unless ``count`` is 1:
    ``plural(1, "case")`` is ``1 case``, ``plural(3, "case")`` ``3 cases``.
    ``many`` is the plural form when adding an ``s`` is wrong."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {many if many is not None else noun + 's'}"


__all__ = ["plural"]

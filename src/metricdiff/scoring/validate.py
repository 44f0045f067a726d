"""Judging what an implementation returned: ``validate`` rejects what no correct
implementation can produce (NaN, a recall of 1.3, a negative count), and
``describe`` puts an exception on one short line."""

from __future__ import annotations

import math
from typing import Any

from metricdiff.statistics import BleuResult, RougeResult

#: Longest error text kept in a ``CaseResult``.
MAX_ERROR = 300
#: How far a ROUGE ratio may exceed 1 before it is invalid (float rounding).
RATIO_SLACK = 1e-9

def validate(result: object) -> str | None:
    """What is wrong with ``result``, or None if nothing is.

    Conservative: only what no correct implementation can produce is rejected.

    * Not a ``BleuResult`` or ``RougeResult``, or a field that is not a number.
    * NaN or an infinity in any field.
    * BLEU: a negative score, precision or brevity penalty; a negative count,
      total, or length.  A score above 100 is *not* rejected: some smoothing
      methods (e.g. adding a constant to numerator and denominator of an empty
      order) can push a modified precision, and so the score, past 100.
    * ROUGE: recall, precision or F outside [0, 1] (with ``RATIO_SLACK`` for
      rounding); a negative match count or total.
    """
    fields: list[tuple[str, Any, str]]  # (name, value, what it must be)
    if isinstance(result, BleuResult):
        fields = [
            ("score", result.score, "nonnegative"),
            *((f"precisions[{i}]", p, "nonnegative") for i, p in enumerate(result.precisions)),
            ("bp", result.bp, "nonnegative"),
            *((f"counts[{i}]", c, "count") for i, c in enumerate(result.counts)),
            *((f"totals[{i}]", t, "count") for i, t in enumerate(result.totals)),
            ("sys_len", result.sys_len, "count"),
            ("ref_len", result.ref_len, "count"),
        ]
    elif isinstance(result, RougeResult):
        fields = [
            ("recall", result.recall, "ratio"),
            ("precision", result.precision, "ratio"),
            ("fmeasure", result.fmeasure, "ratio"),
            ("matches", result.matches, "count"),
            ("hyp_total", result.hyp_total, "count"),
            ("ref_total", result.ref_total, "count"),
        ]
    else:
        return f"returned {type(result).__name__}, not a BleuResult or RougeResult"
    problems: list[str] = []
    for name, raw, kind in fields:
        if name in result.unknown:  # not reported: a placeholder, never compared
            continue
        try:
            value = float(raw)
        except (TypeError, ValueError):
            problems.append(f"{name} is not a number ({_short(repr(raw), 40)})")
            continue
        if math.isnan(value):
            problems.append(f"{name} is NaN")
        elif math.isinf(value):
            problems.append(f"{name} is {'-' if value < 0 else ''}inf")
        elif kind == "ratio" and not 0.0 <= value <= 1.0 + RATIO_SLACK:
            problems.append(f"{name} {value:g} outside [0, 1]")
        elif kind == "nonnegative" and value < 0:
            problems.append(f"{name} {value:g} is negative")
        elif kind == "count" and value < 0:
            problems.append(f"negative count: {name} = {value:g}")
    return _short("; ".join(problems)) if problems else None


def describe(error: BaseException) -> str:
    """``ExceptionType: message`` on one line, at most ``MAX_ERROR`` characters."""
    try:
        message = " ".join(str(error).split())
    except Exception:  # a __str__ that raises
        message = "(message unavailable)"
    name = type(error).__name__
    return _short(f"{name}: {message}" if message else name)


def _short(text: str, limit: int = MAX_ERROR) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["MAX_ERROR", "RATIO_SLACK", "describe", "validate"]

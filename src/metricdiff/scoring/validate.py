"""Judging what an implementation returned: ``validate`` rejects what no correct
implementation can produce (NaN, a recall of 1.3, a negative count), and
``describe`` puts an exception on one short line."""

from __future__ import annotations

import math
from typing import Any

from metricdiff.impls.peers._isolated import peers_dir
from metricdiff.machine_paths import without_machine_paths
from metricdiff.statistics import BleuResult, RougeResult
from metricdiff.wording import printable

#: Longest error text kept in a ``CaseResult``.
MAX_ERROR = 300
#: How far a ROUGE ratio may exceed 1 before it is invalid (float rounding).
RATIO_SLACK = 1e-9

#: Each result's fields and what their values must be (a sequence's items: each).
_BLEU_FIELDS = (("score", "nonnegative"), ("precisions", "nonnegative"), ("bp", "nonnegative"),
                ("counts", "count"), ("totals", "count"), ("sys_len", "count"),
                ("ref_len", "count"))
_ROUGE_FIELDS = (("recall", "ratio"), ("precision", "ratio"), ("fmeasure", "ratio"),
                 ("matches", "count"), ("hyp_total", "count"), ("ref_total", "count"))
#: Family -> field -> what each of its values must be (``within``).
FIELD_KINDS = {"bleu": dict(_BLEU_FIELDS), "rouge": dict(_ROUGE_FIELDS)}


def within(value: float, kind: str) -> bool:
    """Whether a number is what a field of ``kind`` may hold (false for NaN)."""
    if kind == "ratio":
        return 0.0 <= value <= 1.0 + RATIO_SLACK
    return 0.0 <= value < math.inf


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
    if not isinstance(result, (BleuResult, RougeResult)):
        return f"returned {type(result).__name__}, not a BleuResult or RougeResult"
    kinds = _BLEU_FIELDS if isinstance(result, BleuResult) else _ROUGE_FIELDS
    # (name, value or sequence of values, what each must be)
    fields = [(name, getattr(result, name), kind) for name, kind in kinds]
    if not result.unknown and _all_fine(fields):
        return None
    problems: list[str | None] = []
    for name, values, kind in fields:
        if name in result.unknown:  # not reported: a placeholder, never compared
            continue
        if isinstance(values, (tuple, list)):
            problems += [_problem(f"{name}[{i}]", raw, kind) for i, raw in enumerate(values)]
        else:
            problems.append(_problem(name, values, kind))
    found = [problem for problem in problems if problem is not None]
    return _short("; ".join(found)) if found else None


def _all_fine(fields: list[tuple[str, Any, str]]) -> bool:
    """Whether every value is what it must be: the quick answer for the results
    that are fine, which is nearly all of them (the explainer validates
    thousands of the reference's); a value that is not a number says no."""
    try:
        return all(
            within(float(value), kind)
            for _, values, kind in fields
            for value in (values if isinstance(values, (tuple, list)) else (values,))
        )
    except (TypeError, ValueError, OverflowError):  # not a number, or no float holds it
        return False


def _problem(name: str, raw: Any, kind: str) -> str | None:
    """What is wrong with one value that must be ``kind``, or None."""
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return f"{name} is not a number ({_short(repr(raw), 40)})"
    except OverflowError:  # an int such as 10**400: no float holds it
        return f"{name} is too large for a float"
    if math.isnan(value):
        return f"{name} is NaN"
    if math.isinf(value):
        return f"{name} is {'-' if value < 0 else ''}inf"
    if kind == "ratio" and not 0.0 <= value <= 1.0 + RATIO_SLACK:
        return f"{name} {value:g} outside [0, 1]"
    if kind == "nonnegative" and value < 0:
        return f"{name} {value:g} is negative"
    if kind == "count" and value < 0:
        return f"negative count: {name} = {value:g}"
    return None


def message_of(error: BaseException) -> str:
    """``str(error)``, or a placeholder when the exception's ``__str__`` raises."""
    try:
        return str(error)
    except Exception:  # a __str__ that raises
        return "(message unavailable)"


def describe(error: BaseException) -> str:
    """``ExceptionType: message`` on one line, at most ``MAX_ERROR`` characters, with
    no machine-specific path (it goes into findings and reports) and no control
    character (a program's standard error may hold terminal escapes:
    ``wording.printable``)."""
    message = printable(without_machine_paths(" ".join(message_of(error).split()), peers_dir()))
    name = type(error).__name__
    return _short(f"{name}: {message}" if message else name)


def _short(text: str, limit: int = MAX_ERROR) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["FIELD_KINDS", "MAX_ERROR", "RATIO_SLACK", "describe", "message_of", "validate",
           "within"]

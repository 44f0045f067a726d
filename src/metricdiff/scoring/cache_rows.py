"""The rows of the score cache (``cache.py``): an outcome written as JSON, and
read back as untrusted input by ``rows.outcome_from_row``, as every row
metricdiff reads back -- the shape the cache writes, a result of the metric's
family that passes ``validate``, or nothing."""

from __future__ import annotations

import json
from typing import Any

import attrs

from metricdiff.errors import RowError
from metricdiff.profiles.metrics import family
from metricdiff.scoring.jobs import CRASH, INVALID, OK, CaseResult, Raised
from metricdiff.scoring.rows import outcome_from_row
from metricdiff.scoring.validate import MAX_ERROR

#: The statuses kept: what the implementation answered, not what the machine did.
KEPT = (OK, INVALID, CRASH)


def keeps(outcome: CaseResult) -> bool:
    """Whether an outcome is an answer of the implementation (not of the machine)."""
    if outcome.status not in KEPT:
        return False
    return outcome.status != CRASH or outcome.raised is not None


def encode(outcome: CaseResult) -> str:
    raised = outcome.raised
    return json.dumps({
        "status": outcome.status,
        "error": outcome.error,
        "raised": None if raised is None else [raised.type, raised.message, raised.unsupported],
        "result": None if outcome.result is None else outcome.result.to_json(),
    }, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def decode(text: str, metric: str) -> CaseResult | None:
    """The outcome a row holds, or None if the row is not one the cache writes
    for ``metric``: never an exception."""
    try:
        row = json.loads(text, parse_constant=_no_constant)
        return _outcome(row, metric)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a score")


def _outcome(row: Any, metric: str) -> CaseResult | None:
    """The row's outcome, checked by the one validator of every row metricdiff
    reads back (``rows.outcome_from_row``: a known status, an error text, a
    valid result of the metric's family exactly when ok), then for what only
    the cache keeps: the statuses it stores and the exception raised."""
    if not isinstance(row, dict) or set(row) != {"status", "error", "raised", "result"}:
        return None
    try:
        outcome = outcome_from_row(row, family(metric))
    except RowError:
        return None
    raised = row["raised"]
    if outcome.status not in KEPT or len(outcome.error) > MAX_ERROR:
        return None
    if raised is not None and not (
            isinstance(raised, list) and len(raised) == 3 and isinstance(raised[0], str)
            and isinstance(raised[1], str) and isinstance(raised[2], bool)):
        return None
    if outcome.status == OK:
        return outcome if not outcome.error and raised is None else None
    if not outcome.error or (outcome.status == CRASH) != (raised is not None):
        return None
    return attrs.evolve(outcome, raised=None if raised is None else Raised(*raised))


__all__ = ["KEPT", "decode", "encode", "keeps"]

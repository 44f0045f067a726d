"""The rows of the score cache (``cache.py``): an outcome written as JSON, and
read back as untrusted input -- the shape the cache writes, a result of the
metric's family that passes ``validate``, or nothing."""

from __future__ import annotations

import json
import math
from typing import Any

from metricdiff.profiles.metrics import family
from metricdiff.scoring.jobs import CRASH, INVALID, OK, CaseResult, Raised
from metricdiff.scoring.validate import MAX_ERROR, validate
from metricdiff.statistics import BleuResult, RougeResult

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
    if not isinstance(row, dict) or set(row) != {"status", "error", "raised", "result"}:
        return None
    status, error, raised, result = row["status"], row["error"], row["raised"], row["result"]
    if status not in KEPT or not isinstance(error, str) or len(error) > MAX_ERROR:
        return None
    parsed = None
    if raised is not None:
        if not (isinstance(raised, list) and len(raised) == 3
                and isinstance(raised[0], str) and isinstance(raised[1], str)
                and isinstance(raised[2], bool)):
            return None
        parsed = Raised(raised[0], raised[1], raised[2])
    if status == OK:
        scored = _result(result, metric)
        if scored is None or error or parsed is not None or validate(scored) is not None:
            return None
        return CaseResult(OK, scored)
    if result is not None or not error or (status == CRASH) != (parsed is not None):
        return None
    return CaseResult(status, None, error, parsed)


_BLEU_KEYS = {"score", "precisions", "bp", "sys_len", "ref_len", "counts", "totals"}
_ROUGE_KEYS = {"recall", "precision", "fmeasure", "matches", "hyp_total", "ref_total"}


def _result(data: Any, metric: str) -> BleuResult | RougeResult | None:
    bleu = family(metric) == "bleu"
    if not isinstance(data, dict) or set(data) != (_BLEU_KEYS if bleu else _ROUGE_KEYS):
        return None
    for key, value in data.items():
        values = value if isinstance(value, list) else [value]
        if key in ("precisions", "counts", "totals") and not isinstance(value, list | None):
            return None
        if not all(value is None or _number(v) for v in values):
            return None
    if (data.get("score" if bleu else "fmeasure")) is None:
        return None
    return BleuResult.from_json(data) if bleu else RougeResult.from_json(data)


def _number(value: Any) -> bool:
    if type(value) is int:
        return True
    return type(value) is float and math.isfinite(value)


__all__ = ["KEPT", "decode", "encode", "keeps"]

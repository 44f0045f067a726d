"""Outcomes read back from a file: the one validator of every row metricdiff
wrote and later trusts -- a line of ``journal.jsonl`` (``audit --resume``), a row
of ``results.jsonl`` (``report --from``), a lock's ``[score.result]``, a cache of
implementations' outputs.

A file can be edited, cut or forged between the run that wrote it and the one
that reads it, so nothing in it is taken on trust: a result is an object with a
family's fields only (its headline required), each a number that is not a
boolean -- or, for the per-order fields, a list of such numbers -- or null for a
statistic not reported; it then passes the same ``validate`` as a result fresh
from an implementation (no NaN, no infinity, no recall of 1.3).  An outcome is a
known status, an error text, and a result exactly when the status is ``ok``.
Anything else is a ``RowError`` saying what, which each reader turns into its
own one-line error (or, for the journal, into a line it ignores).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import attrs

from metricdiff.errors import RowError
from metricdiff.profiles.metrics import Result
from metricdiff.scoring.jobs import OK, STATUSES, CaseResult
from metricdiff.scoring.validate import FIELD_KINDS, validate, within
from metricdiff.statistics import RESOLUTION, BleuResult, RougeResult

#: Each family's fields, as ``to_json`` writes them: the headline first, and
#: whether the field is a list (one value per n-gram order).
FIELDS: dict[str, dict[str, bool]] = {
    "bleu": {"score": False, "precisions": True, "bp": False, "sys_len": False,
             "ref_len": False, "counts": True, "totals": True},
    "rouge": {"fmeasure": False, "recall": False, "precision": False, "matches": False,
              "hyp_total": False, "ref_total": False},
}

#: A row as one line of JSON, as ``json.dumps(row, ensure_ascii=False)`` writes
#: it, with one encoder for every row: ``dumps`` builds an encoder per call for
#: its keywords, a quarter of the time of the main job's 750,000 rows of
#: journal.jsonl and results.jsonl.
encode_row = json.JSONEncoder(ensure_ascii=False).encode


def result_from_row(data: object, family: str) -> Result:
    """The ``BleuResult`` or ``RougeResult`` whose ``to_json`` (or, in a lock, its
    reported fields) ``data`` is; RowError unless every field is as above and the
    result validates.  A field left out counts as not reported.  (Rows come by
    the million from a large audit: a well-formed one is checked in one pass of
    type and range tests, ``validate``'s own; the messages are made only for the
    others.)"""
    fields = FIELDS[family]
    resolution = 0.0
    if type(data) is dict and RESOLUTION in data:  # a printed headline's (``cmd:``)
        data = dict(data)
        resolution = data.pop(RESOLUTION)
        if not (type(resolution) in _NUMBERS and 0 < resolution < math.inf):
            raise RowError(f"{RESOLUTION} must be a positive number, not {resolution!r}",
                           RESOLUTION)
    if not (type(data) is dict and data.keys() <= fields.keys()
            and data.get(next(iter(fields))) is not None):
        _explain_malformed(data, family)
    assert isinstance(data, dict)
    fine = all(_fine(value, fields[name], FIELD_KINDS[family][name])
               for name, value in data.items())
    if not fine:
        _explain_malformed(data, family)  # a shape it says, or a value out of range:
    values = data if len(data) == len(fields) else {**dict.fromkeys(fields), **data}
    result: Result = (BleuResult.from_json(values) if family == "bleu"
                      else RougeResult.from_json(values))
    if not fine:  # ... which validate says, in its words
        problem = validate(result) or "a value out of its range"
        raise RowError(problem, next((name for name in fields if name in problem), None))
    return attrs.evolve(result, resolution=float(resolution)) if resolution else result


_NUMBERS = (int, float)


def _fine(value: Any, listed: bool, kind: str) -> bool:
    """A number that is not a bool (exactly an int or a float, as JSON and TOML
    give them) and that ``kind`` allows (``validate.within``), a list of them for
    a per-order field, or None (not reported)."""
    if value is None:
        return True
    if listed:
        return type(value) is list and all(
            type(item) in _NUMBERS and within(item, kind) for item in value)
    return type(value) in _NUMBERS and within(value, kind)


def _explain_malformed(data: object, family: str) -> None:
    """Raise the RowError that says what is wrong with ``data``'s shape, if
    anything is."""
    if not isinstance(data, Mapping):
        raise RowError(f"a result must be an object of fields, not {_kind(data)}")
    fields = FIELDS[family]
    unknown = [str(key) for key in data if key not in fields]
    if unknown:
        raise RowError(f"unknown field {unknown[0]!r} in a {family} result (its fields: "
                       f"{', '.join(fields)})", unknown[0])
    for name, listed in fields.items():
        value = data.get(name)
        if value is not None:
            _check_value(name, value, listed)
    headline = next(iter(fields))
    if data.get(headline) is None:
        raise RowError(f"no {headline} in the result", headline)
    if type(data) is not dict:
        raise RowError("a result must be a plain object of fields")


def _check_value(name: str, value: Any, listed: bool) -> None:
    if listed:
        if not isinstance(value, list):
            raise RowError(f"{name} must be a list of numbers, not {_kind(value)}", name)
        for index, item in enumerate(value):
            if not _is_number(item):
                raise RowError(f"{name}[{index}] must be a number, not {_kind(item)}", name)
    elif not _is_number(value):
        raise RowError(f"{name} must be a number, not {_kind(value)}", name)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def outcome_from_row(row: Mapping[str, Any], family: str) -> CaseResult:
    """A case's outcome from a row's ``status``, ``error`` and ``result``;
    RowError unless the status is known, the error a string, and the result
    present (and valid) exactly when the status is ``ok``."""
    status, error, raw = row.get("status"), row.get("error"), row.get("result")
    if status not in STATUSES:
        raise RowError(f"status {status!r} is not one of {', '.join(STATUSES)}")
    if not isinstance(error, str):
        raise RowError(f"error must be a string, not {_kind(error)}")
    if (status == OK) != (raw is not None):
        raise RowError("an ok outcome has a result, and only an ok outcome has one")
    return CaseResult(status, None if raw is None else result_from_row(raw, family), error)


def _kind(value: object) -> str:
    """What a decoded value is, in JSON's words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, Mapping) else type(value).__name__


__all__ = ["FIELDS", "RowError", "outcome_from_row", "result_from_row"]

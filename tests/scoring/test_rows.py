"""``scoring.rows``: the one check of every row metricdiff reads back (a journal
line, a results.jsonl row, a lock's result, a cache of outputs): issue 27, items
2 and 11.  The rows are made by hand: a BLEU result of 4 orders, a ROUGE one."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from metricdiff.errors import RowError
from metricdiff.scoring.rows import encode_row, outcome_from_row, result_from_row

BLEU: dict[str, Any] = {"score": 27.3, "precisions": [60.0, 40.0, 20.0, 10.0], "bp": 1.0,
                        "sys_len": 24, "ref_len": 22, "counts": [12, 8, 4, 2],
                        "totals": [20, 19, 18, 17]}
ROUGE: dict[str, Any] = {"fmeasure": 0.5, "recall": 0.5, "precision": 0.5, "matches": 3,
                         "hyp_total": 6, "ref_total": 6}


def test_a_row_as_metricdiff_writes_it_reads_back() -> None:
    assert result_from_row(BLEU, "bleu").to_json() == BLEU
    assert result_from_row(ROUGE, "rouge").to_json() == ROUGE
    # A lock leaves out what was not reported: it reads back as not reported.
    partial = result_from_row({"score": 12.5}, "bleu")
    assert partial.score == 12.5 and "bp" in partial.unknown


@pytest.mark.parametrize(("family", "row", "says"), [
    ("bleu", {**BLEU, "score": math.inf}, "score is inf"),
    ("bleu", {**BLEU, "score": math.nan}, "score is NaN"),
    ("bleu", {**BLEU, "precisions": [math.inf, 1.0]}, "precisions[0] is inf"),
    ("bleu", {**BLEU, "score": "27.3"}, "score must be a number, not a string"),
    ("bleu", {**BLEU, "sys_len": True}, "sys_len must be a number, not a boolean"),
    ("bleu", {**BLEU, "counts": 12}, "counts must be a list of numbers, not a number"),
    ("bleu", {**BLEU, "counts": [[1]]}, "counts[0] must be a number, not a list"),
    ("bleu", {**BLEU, "bp": -0.5}, "bp -0.5 is negative"),
    ("bleu", {**BLEU, "tiny": 1.0}, "unknown field 'tiny' in a bleu result"),
    ("bleu", {"bp": 1.0}, "no score in the result"),
    ("bleu", [27.3], "a result must be an object of fields, not a list"),
    ("rouge", {**ROUGE, "recall": 1.3}, "recall 1.3 outside [0, 1]"),
])
def test_a_row_that_is_not_a_result_is_refused_saying_why(
    family: str, row: Any, says: str
) -> None:
    with pytest.raises(RowError) as refused:
        result_from_row(row, family)
    assert says in str(refused.value), refused.value


@pytest.mark.parametrize(("row", "says"), [
    ({"status": "fine", "error": "", "result": BLEU}, "status 'fine' is not one of"),
    ({"status": "ok", "error": 3, "result": BLEU}, "error must be a string, not a number"),
    ({"status": "ok", "error": "", "result": None}, "an ok outcome has a result"),
    ({"status": "crash", "error": "x", "result": BLEU}, "an ok outcome has a result"),
])
def test_an_outcome_is_a_status_an_error_and_a_result_only_when_ok(
    row: dict[str, Any], says: str
) -> None:
    with pytest.raises(RowError) as refused:
        outcome_from_row(row, "bleu")
    assert says in str(refused.value), refused.value
    crash = outcome_from_row({"status": "crash", "error": "ValueError: x", "result": None},
                             "bleu")
    assert (crash.status, crash.error, crash.result) == ("crash", "ValueError: x", None)


def test_a_row_is_encoded_as_json_dumps_encodes_it() -> None:
    """``encode_row`` is ``json.dumps(row, ensure_ascii=False)`` with one encoder
    for every row (the stdlib's output is the reference): non-ASCII text kept,
    the default separators, floats as ``repr``."""
    row = {"metric": "rouge-1", "impl": "reference-as-rouge-score", "case": "Привет, 世界",
           "status": "ok", "result": {"fmeasure": 1 / 3, "matches": 3.0, "none": None}}
    assert encode_row(row) == json.dumps(row, ensure_ascii=False)
    assert "Привет, 世界" in encode_row(row)

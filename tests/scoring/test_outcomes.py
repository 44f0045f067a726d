"""``scoring.outcomes.Outcomes``: a job's outcomes stored as arrays of numbers
give back exactly what was stored (ints stay ints, floats the same floats), and
what cannot be packed is kept as it is."""

from __future__ import annotations

import json
import math

import pytest

from metricdiff.scoring.jobs import CRASH, OK, CaseResult, Raised
from metricdiff.scoring.outcomes import Outcomes, headlines
from metricdiff.statistics import MISSING, BleuResult, RougeResult


def _bleu(score: float, sys_len: int = 9) -> CaseResult:
    # Hand-made statistics of one 9-token segment against an 11-token reference:
    # ints where BLEU counts (lengths, matches, totals), floats where it divides;
    # ref_len an int here (sacrebleu) and a float elsewhere (the reference's mean).
    return CaseResult(OK, BleuResult(score, (77.77777777777777, 50.0, 28.571428571428573,
                                             16.666666666666668), 0.8007374029168081,
                                      sys_len, 11, (7, 4, 2, 1), (9, 8, 7, 6)))


def _line(outcome: CaseResult) -> str:
    """What results.jsonl writes of an outcome."""
    result = None if outcome.result is None else outcome.result.to_json()
    return json.dumps({"status": outcome.status, "error": outcome.error, "result": result})


def _types(result: object) -> list[str]:
    assert result is not None
    return [type(v).__name__ if not isinstance(v, list) else str([type(x).__name__ for x in v])
            for v in result.to_json().values()]  # type: ignore[attr-defined]


def test_packed_results_come_back_equal_with_their_types() -> None:
    stored = [
        _bleu(41.11336169005196),
        _bleu(-0.0, sys_len=0),  # a negative zero stays one
        CaseResult(OK, BleuResult(12.5, (50.0, 25.0), 1.0, 4, 3.5, (2, 1), (4.0, 3))),
        _bleu(2.0**60),  # a float too large for an exact int is still a float
    ]
    outcomes = Outcomes(len(stored))
    for index, outcome in enumerate(stored):
        outcomes.set(index, outcome)
    assert outcomes.complete()
    for index, outcome in enumerate(stored):
        back = outcomes[index]
        assert back == outcome
        assert _line(back) == _line(outcome)
        assert _types(back.result) == _types(outcome.result)
    assert math.copysign(1.0, outcomes[1].result.headline) == -1.0  # type: ignore[union-attr]


def test_rouge_ints_and_floats() -> None:
    # matches 3 of 4 hypothesis and 5 reference unigrams: R 3/5, P 3/4, F 2PR/(P+R).
    exact = RougeResult(0.6, 0.75, 2 * 0.6 * 0.75 / 1.35, 3, 4, 5)
    averaged = RougeResult(0.5, 0.5, 0.5, 1.5, 3.0, 3.0)  # a multi-reference mean
    outcomes = Outcomes(2)
    outcomes.set(1, CaseResult(OK, averaged))
    assert outcomes.get(0) is None and not outcomes.complete()
    outcomes.set(0, CaseResult(OK, exact))
    assert list(outcomes) == [CaseResult(OK, exact), CaseResult(OK, averaged)]
    assert [_line(o) for o in outcomes] == [_line(CaseResult(OK, exact)),
                                            _line(CaseResult(OK, averaged))]
    assert headlines(outcomes) == [exact.fmeasure, 0.5]


def test_what_cannot_be_packed_is_kept_as_it_is() -> None:
    unreported = CaseResult(OK, BleuResult(30.0, (), MISSING, 5, 6, (), (),
                                           unknown=frozenset({"precisions", "bp", "counts",
                                                              "totals"})))
    huge = CaseResult(OK, BleuResult(1.0, (1.0,), 1.0, 2**60, 2**60, (1,), (1,)))
    other_shape = CaseResult(OK, RougeResult(0.1, 0.2, 0.3, 1, 2, 3))  # BLEU fixed the shape
    crash = CaseResult(CRASH, None, "ValueError: bad input", Raised("ValueError", "bad input"))
    stored = [_bleu(10.0), unreported, huge, other_shape, crash,
              CaseResult(CRASH, None, "ValueError: bad input", Raised("ValueError", "bad input"))]
    outcomes = Outcomes(len(stored))
    for index, outcome in enumerate(stored):
        outcomes.set(index, outcome)
    assert outcomes[1] is unreported  # kept whole: its MISSING stays the one NaN object
    assert outcomes[2] is huge and outcomes[3] is other_shape
    assert outcomes[4] is crash and outcomes[5] is crash  # equal failures kept once
    assert [_line(o) for o in outcomes] == [_line(o) for o in stored]
    assert headlines(outcomes) == [10.0, 30.0, 1.0, 0.3, None, None]
    with pytest.raises(LookupError):
        Outcomes(1)[0]

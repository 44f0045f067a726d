"""``reports.model.Runs``: the runs read back from results.jsonl, held per
implementation in case order, give back what a plain dict of them would."""

from __future__ import annotations

import json

from metricdiff.reports.model import Run, Runs
from metricdiff.statistics import MISSING, BleuResult, RougeResult


def test_runs_give_back_what_a_dict_would() -> None:
    # BLEU 0-100 is the headline; ROUGE's is F (here 2 * 0.5 * 0.25 / 0.75 = 1/3).
    given = {
        ("a", "c1"): Run("ok", "", BleuResult(41.5, (50.0,), 1.0, 2, 2, (1,), (2,))),
        ("a", "c2"): Run("ok", "", 0),  # an int headline stays an int
        ("a", "c3"): Run("crash", "ValueError: no", None),
        ("b", "c1"): Run("ok", "", RougeResult(0.5, 0.25, 1 / 3, 1, 4, 2)),
        ("b", "c2"): Run("ok", "", BleuResult(MISSING, (), MISSING, 1, 1, (), (),
                                              unknown=frozenset({"score"}))),  # no headline
        ("b", "c9"): Run("crash", "ValueError: no", None),  # a case audit.json does not list
    }
    runs = Runs(["c1", "c2", "c3"])
    for (impl, case), run in given.items():
        runs.add(impl, case, run)
    assert dict(runs) == given
    assert len(runs) == len(given)
    assert runs["a", "c1"].headline == 41.5 and runs["b", "c1"].headline == 1 / 3
    assert json.dumps(runs["a", "c2"].headline) == "0"
    assert runs["b", "c2"].headline is None and runs["b", "c2"].status == "ok"
    assert runs.get(("b", "c3")) is None and ("b", "c3") not in runs
    assert runs["a", "c3"] is runs["b", "c9"] or runs["a", "c3"] == runs["b", "c9"]

"""ROUGE-1.5.5.pl run once for several metrics (``rouge155/shared.py``).

The oracle is the script run for each metric alone, as the adapter ran it
before runs were shared: each metric scored with the memo of shared runs
emptied first.  Every number of every metric shared must be the same, on real
German, French, Spanish and Russian translations (bytes outside ASCII, which
empty some references, included), with several sentences and references, an
empty reference (which kills ROUGE-W's run) and under the options every metric
of a run shares (``-m``, ``-s``, ``-f B``, ``-p``).  Skipped, with the reason,
when the script cannot run here.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import translation_pairs
from metricdiff.impls.peers.rouge155 import Rouge155Adapter, run, shared
from metricdiff.impls.peers.rouge155.failures import CaseFailure

UNAVAILABLE = Rouge155Adapter().unavailable_reason()
pytestmark = pytest.mark.skipif(
    UNAVAILABLE is not None, reason=f"ROUGE-1.5.5.pl cannot run here: {UNAVAILABLE}"
)

METRICS = ("rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-lsum", "rouge-w", "rouge-s",
           "rouge-su")


def corpus() -> tuple[list[str], list[list[str | None]]]:
    """Real translation pairs, every third one with two sentences and a second
    reference, an empty reference and a reference of punctuation only."""
    hyps, refs = translation_pairs(step=6)
    for i in range(0, len(hyps) - 1, 3):
        hyps[i] = hyps[i] + "\n" + hyps[i + 1]
        refs[i] = [refs[i][0], refs[i + 1][0]]
    hyps += ["the cat sat on the mat", "the cat sat", "a dog"]
    refs += [["", "the mat the cat sat on"], ["..."], ["a dog barks\nthe end"]]
    return hyps, refs


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    shared.forget()
    yield
    shared.forget()


def _scores(options: dict[str, str], alone: bool) -> dict[str, list[Any]]:
    hyps, refs = corpus()
    adapter = Rouge155Adapter()
    found = {}
    for metric in METRICS:
        if alone:
            shared.forget()  # as before: a run for this metric only
        config = adapter.options(metric, options)
        found[metric] = [
            o.index if isinstance(o, CaseFailure) else o
            for o in adapter.score_segments(metric, hyps, refs, config)
        ]
    return found


@pytest.mark.parametrize("options", [
    {},
    {"stemmer": "porter-rouge155-wordnet", "stopwords": "smart"},
    {"multi_ref": "best-recall", "f_measure": "beta=2", "skip": "4", "weight": "1.5"},
])
def test_shared_runs_give_the_numbers_of_separate_runs(options: dict[str, str]) -> None:
    separate = _scores(options, alone=True)
    together = _scores(options, alone=False)
    for metric in METRICS:
        assert together[metric] == separate[metric], metric
    # the empty reference is ROUGE-W's failure only, and a score of the others
    assert isinstance(separate["rouge-w"][-3], int)
    assert separate["rouge-1"][-3].recall == 1.0


def test_the_script_runs_once_for_the_metrics_after_the_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hyps, refs = translation_pairs(step=6)
    hyps, refs = hyps[:40], [[r for r in seg if r and r.isascii()] or ["x"] for seg in refs[:40]]
    runs: list[list[str]] = []
    real = subprocess.Popen

    def counted(argv: list[str], *args: Any, **kwargs: Any) -> Any:
        runs.append(argv)
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(run.subprocess, "Popen", counted)
    adapter = Rouge155Adapter()
    for metric in METRICS:
        adapter.score_segments(metric, hyps, refs, adapter.options(metric, {}))
    # rouge-1 alone, then one run of every method for the rest (rouge-3 asks
    # for a higher order: one more); rouge-l's texts are single lines, the same
    # files as the others'.
    flags = [" ".join(argv[2:]) for argv in runs]
    assert len(runs) == 3, flags
    assert "-U" in runs[1] and "-w" in runs[1] and "-x" not in runs[1]

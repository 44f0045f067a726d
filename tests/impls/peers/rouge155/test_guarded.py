"""ROUGE-W's suspect segments (models the script would read as empty) run in one
guarded Perl process (``guard.pl``), with the outcome each would have alone.

The oracle is ROUGE-1.5.5.pl run directly, one fresh ``perl`` per segment, on
a ``-z SPL`` list written here: its exit status and message where it dies, the
R, P, F it prints (``-t 0``) and the model/peer/hit counts (``-t 2``) where it
lives.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
from test_rouge155_adapter import adapter, needs_perl, script_data, script_path

from metricdiff.impls.peers import rouge155
from metricdiff.impls.peers.rouge155 import CaseFailure, Rouge155Adapter, guarded
from metricdiff.statistics import RougeResult

__all__ = ["adapter", "script_data"]  # fixtures, used by name

_EVAL = re.compile(r"^X ROUGE-W-1\.2 Eval 1\.X R:(\S+) P:(\S+) F:(\S+)$", re.MULTILINE)

# Sentences on lines.  Dies: a model without tokens, alone or beside a model
# with tokens (wlcs divides by each model's length, l. 2454).  Lives: the rest.
HYPS = ["x y", "a b c", "the cat\nsat down", "cat the", "Red, green!", "b a"]
REFS: list[list[str | None]] = [
    ["..."],
    ["a b c"],
    ["The cat sat\non the mat"],
    ["cat the", "-- !"],
    ["green red", "RED"],
    ["a b", "b"],
]


def script_outcome(tmp: Path, data: Path, hyp: str, refs: Sequence[str]) -> RougeResult | str:
    """One segment through a fresh ``perl ROUGE-1.5.5.pl``: its scores, or the
    failure message of a run that dies."""
    (tmp / "p").write_text(hyp + "\n")
    for j, ref in enumerate(refs):
        (tmp / f"m{j}").write_text(ref + "\n")
    (tmp / "list").write_text("p " + " ".join(f"m{j}" for j in range(len(refs))) + "\n")
    printed = []
    for run in (["-t", "2"], ["-t", "0", "-r", "2"]):
        done = subprocess.run(
            ["perl", str(script_path()), "-e", str(data), "-d", "-w", "1.2", "-x", *run,
             "-z", "SPL", "list"],
            cwd=tmp, capture_output=True, text=True, check=False,
        )
        if done.returncode != 0:
            return f"ROUGE-1.5.5.pl exited with status {done.returncode}: {done.stderr.strip()}"
        [line] = _EVAL.findall(done.stdout)
        printed.append(tuple(map(float, line)))
    (model_total, peer_total, hits), (recall, precision, fmeasure) = printed
    return RougeResult(recall, precision, fmeasure, hits, peer_total, model_total)


def adapter_outcome(outcome: RougeResult | CaseFailure) -> RougeResult | str:
    return outcome.message if isinstance(outcome, CaseFailure) else outcome


@needs_perl
@pytest.mark.parametrize("all_suspect", [False, True])
def test_guarded_segments_get_what_the_script_gives_each_alone(
    adapter: Rouge155Adapter,
    script_data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    all_suspect: bool,
) -> None:
    if all_suspect:  # every segment guarded, the living ones too
        monkeypatch.setattr(rouge155.crash, "wlcs_would_die", lambda *args: True)
    outcomes = adapter.score_segments("rouge-w", HYPS, REFS, adapter.options("rouge-w"))
    expected = []
    for i, (hyp, refs) in enumerate(zip(HYPS, REFS, strict=True)):
        (tmp_path / str(i)).mkdir()
        expected.append(script_outcome(tmp_path / str(i), script_data, hyp, refs))
    assert [adapter_outcome(o) for o in outcomes] == expected
    # The oracle saw both kinds: two deaths by division by zero, four scores.
    deaths = [e for e in expected if isinstance(e, str)]
    assert len(deaths) == 2 and all("Illegal division by zero" in e for e in deaths)


@needs_perl
def test_suspects_cost_one_perl_process(
    adapter: Rouge155Adapter, monkeypatch: pytest.MonkeyPatch
) -> None:
    hyps, refs = ["x y", "a", "b c", "d"], [["..."], ["-"], ["!", "b"], [""]]
    options = adapter.options("rouge-w")
    adapter.prepared("rouge-w", options)  # data directory built before counting
    started: list[Sequence[str]] = []

    class Counted(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, args: Sequence[str], *rest: object, **keywords: object) -> None:
            started.append(args)
            super().__init__(args, *rest, **keywords)  # type: ignore[arg-type]

    monkeypatch.setattr(subprocess, "Popen", Counted)
    outcomes = adapter.score_segments("rouge-w", hyps, refs, options)
    assert all(isinstance(o, CaseFailure) for o in outcomes)
    assert len(started) == 1 and str(guarded.DRIVER) in started[0]


@needs_perl
def test_a_failing_driver_leaves_the_suspects_to_one_process_each(
    adapter: Rouge155Adapter, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = adapter.options("rouge-w")
    fast = adapter.score_segments("rouge-w", HYPS[:4], REFS[:4], options)
    monkeypatch.setattr(guarded, "DRIVER", Path("no-such-driver.pl"))
    slow = adapter.score_segments("rouge-w", HYPS[:4], REFS[:4], options)
    assert slow == fast
    assert isinstance(fast[0], CaseFailure) and isinstance(fast[1], RougeResult)

"""A metric explained in a forked process while the next one is scored
(``scoring/background.py``, ``auditing/run.py``): the same answers as one metric at a
time, whatever the child does."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import ClassVar

import pytest

import metricdiff.auditing.run
from helpers import corpus_files, interrupted_at, run
from metricdiff.profiles.bleu import BleuOptions
from metricdiff.scoring.background import CAN_FORK, Background
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import Job

pytestmark = pytest.mark.skipif(not CAN_FORK, reason="no os.fork on this platform")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_work_runs_in_a_child_and_its_answer_comes_back() -> None:
    here = os.getpid()
    background = Background(lambda: (os.getpid(), "answer"), fork=True)
    pid, answer = background.result()
    assert pid != here and answer == "answer"


def test_without_fork_the_work_runs_here_when_asked() -> None:
    background = Background(os.getpid, fork=False)
    assert background.done()
    assert background.result() == os.getpid()


def test_an_answer_larger_than_a_pipe_holds_comes_back_whole() -> None:
    # 8 MB: a pipe holds 64 KB, so the child blocks until the parent reads.
    answer = bytes(range(256)) * (1 << 15)
    background = Background(lambda: answer, fork=True)
    deadline = time.monotonic() + 60
    while not background.done() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert background.done()
    assert background.result() == answer


def test_a_child_that_dies_leaves_the_work_to_this_process() -> None:
    here = os.getpid()

    def work() -> int:
        if os.getpid() != here:
            os._exit(3)  # as a segfault or a kill would end it: no answer
        return 42

    assert Background(work, fork=True).result() == 42


def test_an_error_in_the_child_is_raised_here_as_without_a_child() -> None:
    def work() -> None:
        raise ValueError("bad input on line 3")

    background = Background(work, fork=True)
    with pytest.raises(ValueError, match="bad input on line 3"):
        background.result()


def test_cancel_stops_the_child() -> None:
    background = Background(lambda: time.sleep(60), fork=True)
    pid = background._pid
    assert pid is not None and _alive(pid)
    background.cancel()
    assert not _alive(pid)
    background.cancel()  # twice is harmless


def test_a_child_starts_workers_of_its_own() -> None:
    """The parent's kept workers (and forkserver) are the parent's: a child that
    scores through worker processes starts its own, and both get the same results."""
    job = Job("reference", "bleu", BleuOptions(), [(("the cat sat",), (("the cat sat",),))])
    here = run_jobs([job], workers=2, timeout=60)  # keeps its workers for later calls
    there = Background(lambda: run_jobs([job], workers=2, timeout=60), fork=True).result()
    assert there == here
    assert run_jobs([job], workers=2, timeout=60) == here  # the parent's still serve


@pytest.fixture
def corpus(tmp_path: Path) -> list[str]:
    return corpus_files(tmp_path, "The cat sat on the mat.\nIt rained all day, and we stayed "
                        "in.\nDie Katze saß auf der Matte.\n", "The cat was on the mat.\nIt "
                        "rained the whole day; we stayed inside.\nDie Katze sitzt auf der Matte.\n")


class _Recorded(Background[object]):
    """A Background that notes whether it forked."""

    record: ClassVar[list[bool]] = []

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.record.append(self._pid is not None)


def test_an_audit_with_two_workers_finds_what_one_at_a_time_finds(
    tmp_path: Path, corpus: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(metricdiff.auditing.run, "Background", _Recorded)
    _Recorded.record.clear()
    argv = ["audit", "--metric", "bleu", "--metric", "rouge-1", "--metric", "rouge-l",
            "--impl", "reference", "--impl", "rouge-score", "--impl", "sacrebleu", *corpus]
    status, alone, _ = run(capsys, *argv, "--jobs", "1", "--out", tmp_path / "one")
    assert status == 0
    assert _Recorded.record == [False] * 3
    status, together, _ = run(capsys, *argv, "--jobs", "2", "--out", tmp_path / "two")
    assert status == 0
    assert _Recorded.record == [False] * 3 + [True] * 3  # each metric explained in a child
    assert together.replace(str(tmp_path / "two"), str(tmp_path / "one")) == alone
    for name in ("findings.json", "results.jsonl", "compare.json", "report.md"):
        assert (tmp_path / "two" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()


def test_ctrl_c_while_the_next_metric_is_scored_finishes_the_one_before(
    tmp_path: Path, corpus: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As one metric at a time: bleu is printed and written, then exit 130."""
    monkeypatch.setattr(metricdiff.auditing.run, "Background", _Recorded)
    monkeypatch.setattr(metricdiff.auditing.run, "score_metric",
                        interrupted_at("rouge-1", metricdiff.auditing.run.score_metric))
    _Recorded.record.clear()
    out = tmp_path / "out"
    status, text, err = run(capsys, "audit", "--metric", "bleu", "--metric", "rouge-1",
                            "--impl", "reference", *corpus, "--jobs", "2", "--out", out)
    assert _Recorded.record == [True]
    assert status == 130 and "Traceback" not in err
    assert text.startswith("== bleu: reference\n") and "== rouge-1" not in text
    assert "interrupted: finishing the metrics scored so far" in err
    assert err.splitlines()[-1].startswith(
        f"metricdiff: interrupted; the reports of bleu are in {out}")


def test_a_second_ctrl_c_stops_every_child(
    tmp_path: Path, corpus: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C while rouge-1 is finished here and rouge-l explained in a child:
    the child is stopped at once, not waited for.  (rouge-1's child waits until
    rouge-l's has started: a metric explained is finished before the next is
    scored.)"""
    started: list[int] = []
    real_background = metricdiff.auditing.run.Background
    real_explain = metricdiff.auditing.run.explain_metric
    real_finish = metricdiff.auditing.run.finish_metric
    third = tmp_path / "rouge-l's child started"

    def recorded(*args: object, **kwargs: object) -> Background[object]:
        background = real_background(*args, **kwargs)  # type: ignore[arg-type]
        started.append(background._pid or 0)
        if len(started) == 3:
            third.touch()
        return background

    def slow(scored: metricdiff.auditing.run.Scored, *args: object) -> object:
        if scored.metric == "rouge-l":
            time.sleep(60)
        if scored.metric == "rouge-1":
            deadline = time.monotonic() + 25
            while not third.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
        return real_explain(scored, *args)  # type: ignore[arg-type]

    def interrupted(scored: metricdiff.auditing.run.Scored, *args: object) -> object:
        if scored.metric == "rouge-1":
            raise KeyboardInterrupt
        return real_finish(scored, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(metricdiff.auditing.run, "Background", recorded)
    monkeypatch.setattr(metricdiff.auditing.run, "explain_metric", slow)
    monkeypatch.setattr(metricdiff.auditing.run, "finish_metric", interrupted)
    began = time.monotonic()
    status, _, err = run(capsys, "audit", "--metric", "bleu", "--metric", "rouge-1",
                         "--metric", "rouge-l", "--impl", "reference", *corpus,
                         "--jobs", "2", "--out", tmp_path / "out")
    assert status == 130 and "Traceback" not in err
    assert time.monotonic() - began < 30  # did not wait for the child's minute
    assert len(started) == 3 and all(started)
    assert not any(_alive(pid) for pid in started)


# ---------------------------------------------------------------- issue 28 item 7


def test_a_child_s_steps_are_counted_where_the_parent_reads_them() -> None:
    from metricdiff.scoring.background import Steps

    steps = Steps(5)

    def work() -> int:
        for _ in range(3):
            steps.step()
        return os.getpid()

    background = Background(work, fork=True)
    assert background.forked
    assert background.result() != os.getpid() and steps.done == 3


def test_the_progress_line_follows_a_metric_explained_in_a_child(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 28 item 7: with two workers each metric is explained in a forked
    child while the next is scored; once every metric is scored the parent waits
    for them, and its progress line shows each one's steps (2 per participant)
    as the child counts them, rather than going quiet.  Each step is slowed
    down here so that the parent surely waits."""
    real = metricdiff.auditing.run.explain_metric

    def slow(scored, progress, asked, stream, step):  # type: ignore[no-untyped-def]
        def slow_step() -> None:
            time.sleep(0.4)
            step()
        return real(scored, progress, asked, stream, slow_step)

    monkeypatch.setattr(metricdiff.auditing.run, "explain_metric", slow)
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat on the mat\nit is raining\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\nit rains\n", encoding="utf-8")
    status, _, err = run(capsys, "audit", "--hyp", hyp, "--ref", ref, "--metric", "bleu",
                         "--metric", "rouge-1", "--impl", "reference",
                         "--impl", "reference[tokenize=13a]", "--jobs", "2", "--progress",
                         "--no-minimise")
    assert status == 0, err
    lines = err.splitlines()
    # BLEU: two participants, 4 steps; ROUGE adds the stemmed run of the
    # reference under tokenize=13a: 3 participants, 6 steps
    assert any(line.startswith("audit: explaining bleu ") and "/4 steps" in line
               for line in lines), err
    assert any("explaining rouge-1 6/6 steps" in line for line in lines), err


def test_the_progress_line_shows_a_metric_explained_here(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """With one worker the metric is explained in this process: its steps are on
    the progress line however small the corpus (they were only for more than
    20,000 cases)."""
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat on the mat\nit is raining\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\nit rains\n", encoding="utf-8")
    status, _, err = run(capsys, "audit", "--hyp", hyp, "--ref", ref, "--metric", "bleu",
                         "--impl", "reference", "--impl", "reference[tokenize=13a]",
                         "--jobs", "1", "--progress", "--no-minimise")
    assert status == 0, err
    lines = err.splitlines()
    assert "bleu: explaining 0/4 steps" in lines and "bleu: explaining 4/4 steps" in lines, err


def test_the_next_metric_is_scored_while_two_workers_explain_two_before_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 26 (the main job's idle workers): with two workers, the third
    metric's scoring does not wait for the first two metrics' explaining to end.
    With one explaining child per worker it waited, and the workers sat idle
    (7 s of the main job).  Each explaining child here marks its end with a file
    after 3 s, and the scoring of each metric notes which marks it found when it
    began: the third finds none."""
    real_explain = metricdiff.auditing.run.explain_metric
    real_score = metricdiff.auditing.run.score_metric
    seen: dict[str, list[str]] = {}

    def slow(scored, progress, asked, stream, step):  # type: ignore[no-untyped-def]
        explained = real_explain(scored, progress, asked, stream, step)
        time.sleep(3.0)
        (tmp_path / f"explained-{scored.metric}").touch()
        return explained

    def noted(metric, cases, config, chosen):  # type: ignore[no-untyped-def]
        seen[metric] = sorted(p.name for p in tmp_path.glob("explained-*"))
        return real_score(metric, cases, config, chosen)

    monkeypatch.setattr(metricdiff.auditing.run, "explain_metric", slow)
    monkeypatch.setattr(metricdiff.auditing.run, "score_metric", noted)
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat on the mat\nit is raining\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\nit rains\n", encoding="utf-8")
    status, _, err = run(capsys, "audit", "--hyp", hyp, "--ref", ref, "--metric", "bleu",
                         "--metric", "rouge-1", "--metric", "rouge-2", "--impl", "reference",
                         "--impl", "reference[tokenize=13a]", "--jobs", "2", "--no-minimise",
                         "--no-progress")
    assert status == 0, err
    assert seen == {"bleu": [], "rouge-1": [], "rouge-2": []}


def test_a_metric_explained_is_finished_before_the_next_is_scored(
    tmp_path: Path, corpus: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: each metric's shrinking and writing waited until every metric
    was scored, then ran one after another with one core busy (27 s of the
    last 50 of the main job).  A metric whose child has explained it is now
    finished before the next metric is scored."""
    events: list[str] = []
    real_score = metricdiff.auditing.run.score_metric
    real_finish = metricdiff.auditing.run.finish_metric

    def score(metric: str, *args: object) -> object:
        events.append(f"score {metric}")
        scored = real_score(metric, *args)  # type: ignore[arg-type]
        if metric == "rouge-1":
            time.sleep(3)  # bleu's child has long explained it by now
        return scored

    def finish(scored: metricdiff.auditing.run.Scored, *args: object) -> object:
        events.append(f"finish {scored.metric}")
        return real_finish(scored, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(metricdiff.auditing.run, "score_metric", score)
    monkeypatch.setattr(metricdiff.auditing.run, "finish_metric", finish)
    status, _, _ = run(capsys, "audit", "--metric", "bleu", "--metric", "rouge-1",
                       "--metric", "rouge-l", "--impl", "reference", *corpus,
                       "--jobs", "2", "--out", tmp_path / "out")
    assert status == 0
    assert events.index("finish bleu") < events.index("score rouge-l")

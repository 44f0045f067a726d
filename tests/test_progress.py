"""``progress.py``: the progress line's phases, counts and time left, on a clock
set by the test (every expected number is worked out by hand below)."""

from __future__ import annotations

import io

import pytest

import metricdiff.progress as progress
from metricdiff.progress import Progress, duration


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    made = Clock()
    monkeypatch.setattr(progress.time, "monotonic", made)
    return made


@pytest.mark.parametrize(("seconds", "text"), [
    (0.4, "0 s"), (12.4, "12 s"), (59.6, "1 min 00 s"), (185, "3 min 05 s"),
    (3720, "1 h 02 min"),
])
def test_duration(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_the_time_left_is_that_of_the_slower_phase(clock: Clock) -> None:
    line = Progress("compare", io.StringIO(), interval=0.0)
    line.start("scoring", 10, unit="implementation")
    line.start("attributing", 4, unit="gap")
    # no step yet: no estimate
    assert line.text(clock.now) == "compare: scoring 0/10 implementations · attributing 0/4 gaps"
    clock.now += 20
    line.advance("scoring", 2)  # 2 in 20 s: 8 more take 80 s
    line.advance("attributing", 3)  # 3 in 20 s: 1 more takes 6.7 s
    assert line.text(clock.now) == (
        "compare: scoring 2/10 implementations · attributing 3/4 gaps · about 1 min 20 s left")
    line.advance("attributing")
    line.stop("attributing")
    assert line.text(clock.now) == "compare: scoring 2/10 implementations · about 1 min 20 s left"


def test_work_done_by_an_earlier_run_is_not_timed(clock: Clock) -> None:
    line = Progress("bleu", io.StringIO(), interval=0.0)
    line.start("scoring", 100, done=60, unit="run")  # 60 from a journal
    clock.now += 10
    line.advance("scoring", 10)  # 10 in 10 s: the 30 left take 30 s
    assert line.text(clock.now) == "bleu: scoring 70/100 runs · about 30 s left"


def test_off_a_terminal_a_line_each_time_and_the_last_one_ended(clock: Clock) -> None:
    stream = io.StringIO()
    line = Progress("x", stream, interval=1.0)  # off a terminal: every 8 s
    line.start("scoring", 3, unit="case")
    clock.now += 1
    line.advance("scoring")  # too soon for another line
    clock.now += 9
    line.advance("scoring")  # 2 in 10 s: the last takes 5 s
    line.finish()
    assert stream.getvalue().splitlines() == [
        "x: scoring 0/3 cases", "x: scoring 2/3 cases · about 5 s left",
        "x: scoring 2/3 cases · about 5 s left"]

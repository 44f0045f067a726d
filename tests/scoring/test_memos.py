"""Large memos are emptied (``memos.trim_memos``): by a worker process now and
then, and by the audit's own process after each metric.  Bounded
``lru_cache``s past ``LARGE_MEMO`` entries, and only those, and what they held
leaves the process."""

from __future__ import annotations

import functools
import gc
from pathlib import Path

import pytest

from metricdiff.scoring.memos import _MEMO_TYPE, LARGE_MEMO, trim_memos
from metricdiff.scoring.worker import _resident_bytes


def test_large_bounded_memos_are_emptied_and_the_others_kept() -> None:
    large = functools.lru_cache(maxsize=1 << 16)(str.upper)
    small = functools.lru_cache(maxsize=1 << 16)(str.lower)
    unbounded = functools.cache(str.title)
    for number in range(LARGE_MEMO + 1):
        large(f"text {number}")
        unbounded(f"text {number}")
    small("one text")
    trim_memos()
    assert large.cache_info().currsize == 0
    assert small.cache_info().currsize == 1
    assert unbounded.cache_info().currsize == LARGE_MEMO + 1
    assert large("text 1") == "TEXT 1"  # still the same function


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="no /proc: memory not measured")
def test_emptied_memos_give_their_memory_back() -> None:
    # ~4,000 entries of 1,000 fresh ints (a list of 8 KB plus 28 bytes an int):
    # about 140 MB by that count, which must leave the process again.
    held = functools.lru_cache(maxsize=1 << 16)(lambda start: list(range(start, start + 1000)))
    before = _resident_bytes()
    for start in range(4000):
        held(10**6 + start * 1000)
    filled = _resident_bytes()
    trim_memos()
    emptied = _resident_bytes()
    assert filled - before > 100 * 2**20
    assert emptied - before < (filled - before) / 10


def test_an_audit_empties_its_own_large_memos_after_each_metric(tmp_path: Path) -> None:
    """The audit's own process (the reference scored and explained in it) keeps
    no memo past ``LARGE_MEMO`` entries once a metric is done: 1,500 distinct
    pairs fill the reference's per-text memos beyond that while it runs."""
    from metricdiff.cli import main

    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("".join(f"the cat number {n} sat on the mat\n" for n in range(1500)))
    ref.write_text("".join(f"a cat numbered {n} is on the mat\n" for n in range(1500)))
    status = main(["audit", "--hyp", str(hyp), "--ref", str(ref), "--impl", "reference",
                   "--metric", "bleu", "--no-minimise", "--jobs", "1",
                   "--out", str(tmp_path / "out")])
    assert status == 0
    sizes = [memo.cache_info().currsize for memo in gc.get_objects()
             if type(memo) is _MEMO_TYPE and memo.cache_parameters()["maxsize"] is not None]
    assert sizes and max(sizes) <= LARGE_MEMO

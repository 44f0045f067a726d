"""A worker process empties its large memos now and then (``worker.trim_memos``):
bounded ``lru_cache``s past ``LARGE_MEMO`` entries, and only those."""

from __future__ import annotations

import functools

from metricdiff.scoring.worker import LARGE_MEMO, trim_memos


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

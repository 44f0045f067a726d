"""Emptying the memos that scoring a large corpus fills."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc

#: A memo with more entries than this is large.
LARGE_MEMO = 1024
_MEMO_TYPE = type(functools.lru_cache(maxsize=1)(len))


def trim_memos() -> None:
    """Empty every bounded ``functools.lru_cache`` holding more than
    ``LARGE_MEMO`` entries: the reference's per-text memos and the peers' own
    (sacrebleu memoises 65,536 lines per tokenizer), each bounded at 2**16-2**17
    texts, several hundred MB in all once an audit of a large corpus has filled
    them.  A worker scores each case once per job, and a job's cases come in
    order, so a memo as large as the corpus is what it would take to hit across
    jobs; emptying it loses a few hits on a small corpus, and nothing else (each
    memoises a pure function).  Small and unbounded caches (a loaded resource, a
    tokenizer object) are left alone."""
    for memo in gc.get_objects():
        if type(memo) is _MEMO_TYPE:
            bounded = memo.cache_parameters()["maxsize"] is not None
            if bounded and memo.cache_info().currsize > LARGE_MEMO:
                memo.cache_clear()
    _return_freed_memory()


def _return_freed_memory() -> None:
    """Hand what the emptied memos freed back to the system (glibc keeps freed
    heap for the process otherwise, and it would still count as the worker's)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)

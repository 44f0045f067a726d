"""Emptying the memos that scoring a large corpus fills: in the worker
processes now and then, and in the audit's own process after each metric."""

from __future__ import annotations

import ctypes
import functools
import gc

#: A memo with more entries than this is large.
LARGE_MEMO = 1024
_MEMO_TYPE = type(functools.lru_cache(maxsize=1)(len))


def trim_memos() -> None:
    """Empty every bounded ``functools.lru_cache`` holding more than
    ``LARGE_MEMO`` entries: the reference's per-text memos (tokens, per-segment
    counts, explained scores) and the peers' own (sacrebleu memoises 65,536 lines
    per tokenizer), each bounded at 2**16-2**17 texts, several hundred MB in all
    once an audit of a large corpus has filled them.  A worker scores each case
    once per job, and a job's cases come in order, so a memo as large as the
    corpus is what it would take to hit across jobs; the next metric of an audit
    asks for other keys.  Emptying one loses a few hits on a small corpus, and
    nothing else (each memoises a pure function).  Found by type, so that a new
    memo cannot be forgotten; small and unbounded caches (a loaded resource, a
    tokenizer object) are left alone."""
    for memo in gc.get_objects():
        if type(memo) is _MEMO_TYPE:
            bounded = memo.cache_parameters()["maxsize"] is not None
            if bounded and memo.cache_info().currsize > LARGE_MEMO:
                memo.cache_clear()
    libc = _libc()
    if libc is not None:
        # glibc keeps freed heap for the process otherwise, where it would
        # still count as the process's memory.
        libc.malloc_trim(0)


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library that can hand freed heap back to the system (glibc's
    ``malloc_trim``), or None on systems without it."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim  # noqa: B018 -- looked up once: musl and macOS have none
    except (OSError, AttributeError):
        return None
    return libc

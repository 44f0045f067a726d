"""Writing an output file so that it is never half written.

Every file metricdiff writes for a user to read later (an audit's ``findings.json``,
``results.jsonl``, ``audit.json`` and reports, ``check.md``, a score lock...) goes
through here: the bytes go into a new file in the same folder, reach the disk,
and only then take the file's name (``os.replace``, atomic on POSIX and Windows).
A write cut short, by Ctrl-C, a full disk or a crash, leaves the previous
complete file, or none, and no temporary file.

The append-only ``journal.jsonl`` of ``audit --out`` is the exception: it is
written as the audit goes, and its reader tolerates a cut last line.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_stream(path: Path) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become ``path`` when the ``with`` block ends
    normally; if it raises (even ``KeyboardInterrupt``), ``path`` is untouched.

    The new file gets the mode a plain write would give: that of the file it
    replaces, else 0o666 less the umask.  A symlink is replaced at its target, as
    a plain write would update it."""
    target = path.resolve() if path.is_symlink() else path
    temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    descriptor = os.open(temp, flags, 0o666)  # the kernel applies the umask
    try:
        with os.fdopen(descriptor, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())  # on disk before it takes the file's name
        if target.exists():
            os.chmod(temp, stat.S_IMODE(target.stat().st_mode))
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` through ``atomic_stream``."""
    with atomic_stream(path) as stream:
        stream.write(data.encode("utf-8") if isinstance(data, str) else data)


__all__ = ["atomic_stream", "write_atomic"]

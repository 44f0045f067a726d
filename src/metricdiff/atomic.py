"""Writing an output file so that it is never half written, and never written
over anything but a file.

Every file metricdiff writes for a user to read later (an audit's ``findings.json``,
``results.jsonl``, ``audit.json`` and reports, ``check.md``, ``compare.json``, a
score lock...) goes through here: the bytes go into a new file in the same
folder, reach the disk, and only then take the file's name (``os.replace``,
atomic on POSIX and Windows).  A write cut short, by Ctrl-C, SIGTERM, a full disk
or a crash, leaves the previous complete file, or none, and no temporary file.
Files that belong together (an audit's three data files) are written as a group
(``write_group``): all of them reach the disk before any takes its name.

The target must be a regular file or not exist (``check_target``): renaming over
a FIFO, a device or a folder would replace it (as root, ``--out /dev/null``
replaced the device), and opening one to write would block or write nowhere.
A symlink is written at its target, as a plain write would update it, under
the same rule.

An output folder is taken for one run at a time (``folder_lock``): a second
command writing into it is refused, instead of the two interleaving.

The append-only ``journal.jsonl`` of ``audit --out`` is the exception: it is
written as the audit goes, and its reader tolerates a cut last line.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import stat
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

from metricdiff.errors import OutputError


def check_target(path: Path) -> Path:
    """Where writing ``path`` puts the bytes: ``path``, or the file a symlink
    names; OutputError (one line naming ``path``) if that exists and is not a
    regular file."""
    target = path.resolve() if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    except (OSError, ValueError) as error:
        why = "the path holds a NUL byte" if isinstance(error, ValueError) else (
            error.strerror or str(error))
        raise OutputError(f"{path}:0: cannot write there: {why}") from None
    if not stat.S_ISREG(mode):
        what = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a FIFO or a device)"
        raise OutputError(f"{path}:0: cannot write there: it is {what}; metricdiff writes "
                          "only files, and replaces nothing else")
    return target


@contextlib.contextmanager
def atomic_stream(path: Path) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become ``path`` when the ``with`` block ends
    normally; if it raises (even ``KeyboardInterrupt``), ``path`` is untouched.

    The new file gets the mode a plain write would give: that of the file it
    replaces, else 0o666 less the umask.  A symlink is replaced at its target, as
    a plain write would update it.  OutputError if the target is not a regular
    file (``check_target``)."""
    with _temporary(path) as (stream, commit):
        yield stream
        stream.flush()
        os.fsync(stream.fileno())  # on disk before it takes the file's name
        stream.close()
        commit()


@contextlib.contextmanager
def _temporary(path: Path) -> Iterator[tuple[BinaryIO, Callable[[], None]]]:
    """A new temporary file beside ``path``'s target, and the call that gives it
    the target's name; removed if the block raises or never commits."""
    target = check_target(path)
    temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    descriptor = os.open(temp, flags, 0o666)  # the kernel applies the umask
    committed = False

    def commit() -> None:
        nonlocal committed
        check_target(path)  # it may have become a FIFO since
        if target.exists():
            os.chmod(temp, stat.S_IMODE(target.stat().st_mode))
        os.replace(temp, target)
        committed = True

    try:
        with os.fdopen(descriptor, "wb") as stream:
            yield stream, commit
    finally:
        if not committed:
            temp.unlink(missing_ok=True)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` through ``atomic_stream``."""
    with atomic_stream(path) as stream:
        stream.write(_encoded(data))


def write_group(files: Mapping[Path, str | bytes]) -> None:
    """Write every file of ``files`` atomically and together (``atomic_group``)."""
    with atomic_group() as open_new:
        for path, data in files.items():
            open_new(path).write(_encoded(data))


@contextlib.contextmanager
def atomic_group() -> Iterator[Callable[[Path], BinaryIO]]:
    """Files written atomically and together: ``open_new(path)`` gives a binary
    stream for ``path`` (written as it goes, so a long file need not be held in
    memory); when the block ends normally every file reaches the disk, and only
    then do they take their names, one after the other with Ctrl-C and SIGTERM
    held back.  An interruption, a full disk or an error leaves all the
    previous files, or (once the names are being taken) all the new ones, and
    no temporary file."""
    with contextlib.ExitStack() as stack:
        opened: list[tuple[BinaryIO, Callable[[], None]]] = []

        def open_new(path: Path) -> BinaryIO:
            stream, commit = stack.enter_context(_temporary(path))
            opened.append((stream, commit))
            return stream

        yield open_new
        for stream, _commit in opened:
            stream.flush()
            os.fsync(stream.fileno())
            stream.close()
        with signals_held():
            for _stream, commit in opened:
                commit()


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back for the block (in the main thread, where a
    platform has ``pthread_sigmask``), then delivered."""
    held = {signal.SIGINT, signal.SIGTERM}
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = mask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


def _encoded(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


@contextlib.contextmanager
def folder_lock(folder: Path, option: str = "--out") -> Iterator[None]:
    """``folder`` taken for this run: OutputError if another metricdiff process
    holds it (two audits into one ``--out`` would overwrite each other's results
    and tear the journal's lines).  The lock is the operating system's
    (``flock`` on the folder itself), so it goes with the process, however it
    ends, and leaves no file behind.  Where ``flock`` is missing (Windows), no
    lock is taken."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError as error:
        raise OutputError(f"{option} {folder}: cannot open the folder "
                          f"({error.strerror or error})") from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise OutputError(
                f"{option} {folder}: another metricdiff command is writing into this "
                "folder; wait for it to finish, or give another folder") from None
        yield
    finally:
        os.close(descriptor)  # releases the lock


__all__ = ["atomic_group", "atomic_stream", "check_target", "folder_lock", "signals_held",
           "write_atomic", "write_group"]

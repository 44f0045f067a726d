"""What ``verify`` may run and read.  A lock is data, perhaps from someone else
(a pull request, a download): it decides neither which code runs nor which files
are read.

* Built-in implementations run; a ``python:``/``cmd:`` one the lock names runs
  only when ``verify`` names it too (``--impl``) or trusts the lock's code
  (``--trust-lock``).
* An input inside the lock's folder is read; one outside it (``snapshot``
  records those as absolute paths, and ``../`` climbs out) only with
  ``--allow-outside``.
* Only regular files are read, and only up to MAX_INPUT_BYTES, checked before
  reading: ``/dev/zero`` or a FIFO named as an input is refused, not read."""

from __future__ import annotations

import stat
from collections.abc import Iterable
from pathlib import Path

import attrs

from metricdiff.errors import ConventionError, InputError, LockError
from metricdiff.impls.settings import parse_spec
from metricdiff.impls.user.spec import is_user_spec
from metricdiff.input_files import read_file

#: The largest input file verify reads: far above any test set (WMT's largest
#: are a few MB), far below what would exhaust memory.
MAX_INPUT_BYTES = 256 * 2**20


@attrs.frozen
class Trust:
    """What the person running ``verify`` allows beyond the safe default."""

    #: Run every ``python:``/``cmd:`` implementation the lock names.
    lock_code: bool = False
    #: Read inputs outside the lock's folder.
    outside: bool = False
    #: Implementations named on verify's own command line.
    named: frozenset[str] = frozenset()


#: The default: built-in implementations only, inputs inside the lock's folder.
SAFE = Trust()


def _line_of(lock: Path, needle: str) -> int:
    """The first line of the lock holding ``needle`` (0 if none does)."""
    lines = read_file(lock, LockError, "lock").splitlines()
    return next((n for n, line in enumerate(lines, 1) if needle in line), 0)


def _resolved(name: str) -> str:
    """``name`` as the registry will resolve it (``impls.settings.parse_spec``:
    spaces around it dropped, settings aside): what decides whether it is code."""
    try:
        return parse_spec(name).text
    except ConventionError:  # it will not resolve; judge it by its words alone
        return name.strip()


def runs_code(name: str) -> bool:
    """Whether the implementation ``name`` names, resolved, is a ``python:`` or
    ``cmd:`` one: code of the lock's own (`` cmd:...`` with a space first too)."""
    return is_user_spec(_resolved(name))


def check_implementations(names: Iterable[str], trust: Trust, lock: Path) -> None:
    """Raise LockError for the first code of the lock's own that may not run: each
    name checked as the registry will resolve it, never as written."""
    named = {_resolved(given) for given in trust.named}
    for name in names:
        if runs_code(name) and not trust.lock_code and _resolved(name) not in named:
            raise LockError(
                f"{lock}:{_line_of(lock, name)}: the lock names {name!r}, code that verify "
                f"runs only when told: add --impl {name!r} if you wrote it, or --trust-lock "
                "to run every implementation the lock names")


def readable_input(recorded: str, lock: Path, trust: Trust) -> Path:
    """The input ``recorded`` (as the lock writes it) as a path verify may read;
    LockError or InputError, naming the file, if it may not."""
    if "\0" in recorded:
        raise LockError(f"{lock}:{_line_of(lock, 'path')}: input path {recorded!r} holds a "
                        "NUL byte: no file has such a name")
    path = lock.parent / recorded
    folder = lock.parent.resolve()
    if not path.resolve().is_relative_to(folder) and not trust.outside:
        raise LockError(
            f"{lock}:{_line_of(lock, recorded)}: input {recorded} is outside the lock's "
            f"folder {folder}; verify reads it only with --allow-outside")
    try:
        info = path.stat()
    except OSError as error:
        raise InputError(f"{path}:0: cannot read: {error.strerror or error}") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}:0: not a regular file; a lock's inputs are files "
                         "(write the lock again with `metricdiff snapshot` on files)")
    if info.st_size > MAX_INPUT_BYTES:
        raise InputError(f"{path}:0: {info.st_size} bytes is more than verify reads "
                         f"({MAX_INPUT_BYTES} bytes); split the input into smaller files")
    return path


__all__ = ["MAX_INPUT_BYTES", "SAFE", "Trust", "check_implementations", "readable_input",
           "runs_code"]

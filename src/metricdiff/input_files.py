"""Reading every input file within bounds: the one reader of lines (a corpus, a
JSONL file, an audit folder's rows, a journal) and of whole files (a lock, a
fixture, an audit folder's JSON), and the one parser of JSON and TOML texts.

What no input may do, whoever wrote it (``limits.py`` has the numbers,
docs/inputs.md what each refusal says):

* a line longer than ``limits.max_line_bytes()`` (``/dev/zero`` has no line
  break at all): refused once that many bytes are read, so memory stays within
  a small multiple of the limit;
* a carriage return that does not end a ``\\r\\n`` (old Mac line endings, or a
  stray one): refused, since Python's universal newlines would split the line
  there and sacrebleu's reader would not, and a silent choice between them
  changes the segments;
* a file read whole that is not a regular file (a FIFO, a device, a folder;
  a symlink is followed to what it names) or is larger than
  ``limits.MAX_FILE_BYTES``: refused before it is read;
* JSON or TOML nested deeper than ``limits.MAX_NESTING``, or a number no Python
  number holds: refused, where the parser would raise RecursionError or
  ValueError;
* JSON Lines a user wrote with a key twice in one object: refused, where JSON
  parsers silently keep the last.

A UTF-8 byte order mark that starts a file read whole is dropped (``lines``
leaves it to its caller, which says so).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from metricdiff import limits
from metricdiff.errors import InputError, Unreadable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

#: What a TOML text with bad syntax raises (``load_toml``).
TOMLDecodeError = tomllib.TOMLDecodeError
#: The name of standard input as an input file.
STDIN = "-"
#: U+FEFF in UTF-8: the byte order mark some editors (Windows Notepad) put
#: first in a file.
BYTE_ORDER_MARK = b"\xef\xbb\xbf"
_CR = b"\r"
_CR_BYTE, _LF = ord("\r"), ord("\n")
#: Lines from this many bytes on are given as views (``lines``).
_VIEW_FROM = 2**16

#: How a refusal is raised: the exception class of the caller's kind of file
#: (InputError, LockError, FixtureError), given the whole message.
Refusal = Callable[[str], Exception]


# --------------------------------------------------------------- lines


def lines(name: str, refuse: Refusal = InputError, *, start: int = 0,
          stop: int | None = None, first: int = 1
          ) -> Iterator[tuple[int, bytes | memoryview]]:
    """The lines of ``name`` (``-`` is standard input), numbered from 1, each
    without its ``\\n`` or ``\\r\\n`` (a long one a view of the bytes read),
    read one at a time: a refusal (``name:line: ...``) at a line longer than
    ``limits.max_line_bytes()`` or holding a carriage return of its own, and at
    a file that cannot be read.

    ``start`` and ``stop``: the lines from that byte offset of a file (the start
    of a line) up to the line that starts at or after ``stop``, numbered from
    ``first``: a part of a large file read by a process of its own."""
    limit = limits.max_line_bytes()
    with _opened(name, refuse) as stream:
        readline, number, position = stream.readline, first - 1, start
        if start:
            stream.seek(start)
        while stop is None or position < stop:
            try:
                raw = readline(limit + 2)
            except OSError as error:
                raise refuse(f"{name}:{number + 1}: cannot read: "
                             f"{error.strerror or error}") from None
            if not raw:
                return
            number += 1
            position += len(raw)
            end = len(raw)
            if raw[-1] == _LF:
                end -= 2 if end > 1 and raw[-2] == _CR_BYTE else 1
            elif end == limit + 2:  # no line break within the limit
                end = limit + 1
            if end > limit:
                raise refuse(f"{name}:{number}: a line longer than {limit} bytes (the limit; "
                             "--max-line-bytes N raises it); is this a text file?")
            stray = raw.find(_CR, 0, end)
            if stray >= 0:
                raise refuse(
                    f"{name}:{number}: a carriage return (\\r) at column {stray + 1} "
                    "that ends no \\r\\n; lines end in \\n or \\r\\n (for old Mac line "
                    "endings convert the file: tr '\\r' '\\n')")
            # A long line as a view of the bytes read (no copy of a megabyte), a
            # short one as bytes (a view costs more than the copy it saves).
            yield number, raw[:end] if end < _VIEW_FROM else memoryview(raw)[:end]


@contextlib.contextmanager
def _opened(name: str, refuse: Refusal) -> Iterator[BinaryIO]:
    if name == STDIN:
        stdin = sys.stdin
        if stdin is None or getattr(stdin, "closed", False):
            raise refuse(f"{STDIN}:0: standard input is closed; give a file instead")
        yield stdin.buffer
        return
    try:
        stream = open(name, "rb")  # noqa: SIM115
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the name
        raise refuse(f"{name}:0: cannot read: {_reason(error)}") from None
    with stream:
        yield stream


# --------------------------------------------------------------- whole files


def read_file(path: Path, refuse: Refusal = InputError, what: str = "file") -> str:
    """The text of ``path``, a regular file (or a symlink to one) of at most
    ``limits.MAX_FILE_BYTES``, UTF-8, without a byte order mark; a refusal naming
    ``path`` otherwise.  Nothing is read before the checks: a FIFO neither blocks
    nor is emptied, and ``/dev/zero`` is not read at all."""
    data = read_bytes(path, refuse, what)
    try:
        return data.removeprefix(BYTE_ORDER_MARK).decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise refuse(f"{path}:{line}: not UTF-8 (byte {data[error.start]:#04x})") from None


def read_bytes(path: Path, refuse: Refusal = InputError, what: str = "file") -> bytes:
    """The bytes of ``path``, checked as ``read_file`` checks it."""
    with open_regular(path, refuse, what) as (stream, size):
        limit = limits.MAX_FILE_BYTES
        if size > limit:
            raise refuse(f"{path}:0: {size} bytes is more than metricdiff reads of a {what} "
                         f"({limit} bytes)")
        try:
            data = stream.read(limit + 1)
        except OSError as error:
            raise refuse(f"{path}:0: cannot read: {_reason(error)}") from None
        if len(data) > limit:  # it grew while being read
            raise refuse(f"{path}:0: more than {limit} bytes")
        return data


@contextlib.contextmanager
def open_regular(path: Path, refuse: Refusal = InputError, what: str = "file"
                 ) -> Iterator[tuple[BinaryIO, int]]:
    """``path`` open for reading, and its size, if it is a regular file (a
    symlink is followed); a refusal naming it otherwise.  Opened without
    blocking, so that a FIFO is refused rather than waited on."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except (OSError, ValueError) as error:
        raise refuse(f"{path}:0: cannot read the {what}: {_reason(error)}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise refuse(f"{path}:0: not a regular file ({_kind(info.st_mode)}); a {what} "
                         "is read from a file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
        stream = os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise
    with stream:
        yield stream, info.st_size


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"


def _reason(error: BaseException) -> str:
    if isinstance(error, ValueError):
        return "the path holds a NUL byte"
    assert isinstance(error, OSError)
    return error.strerror or str(error)


# --------------------------------------------------------------- texts

_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate (U+D800 to U+DFFF) in ``text``, or
    None.  JSON's ``\\ud800`` escape makes one: it is no character, no UTF-8
    encodes it, and a text holding one can be neither written to a file nor
    handed to a program."""
    found = _SURROGATE.search(text)
    return None if found is None else found.start()


# --------------------------------------------------------------- JSON and TOML


def load_json(text: str, *, unique_keys: bool = False) -> Any:
    """``text`` parsed as JSON; ``json.JSONDecodeError`` for bad syntax (its
    callers word it), ``Unreadable`` for a value nested deeper than
    ``limits.MAX_NESTING``, a number too long for Python, or (``unique_keys``) an
    object with a key twice."""
    hook = _unique_keys if unique_keys else None
    try:
        value = json.loads(text, object_pairs_hook=hook)
    except RecursionError:
        raise Unreadable(_too_deep()) from None
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # an integer of more than 4300 digits, a key twice
        raise Unreadable(str(error) if isinstance(error, Unreadable) else _TOO_LONG) from None
    if text.count("[") + text.count("{") > limits.MAX_NESTING:
        check_nesting(value)
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    record = dict(pairs)
    if len(record) != len(pairs):
        keys = [key for key, _ in pairs]
        twice = next(key for index, key in enumerate(keys) if key in keys[:index])
        raise Unreadable(f"key {twice!r} appears twice in one object (JSON parsers keep "
                         "only the last); give each key once")
    return record


def load_toml(text: str) -> dict[str, Any]:
    """``text`` parsed as TOML; ``tomllib.TOMLDecodeError`` for bad syntax,
    ``Unreadable`` for a value nested deeper than ``limits.MAX_NESTING`` or a
    number too long for Python."""
    try:
        document: dict[str, Any] = tomllib.loads(text)
    except RecursionError:
        raise Unreadable(_too_deep()) from None
    except TOMLDecodeError:
        raise
    except ValueError:  # an integer of more than 4300 digits
        raise Unreadable(_TOO_LONG) from None
    check_nesting(document)
    return document


def check_nesting(value: Any) -> None:
    """``Unreadable`` if ``value`` (parsed JSON or TOML) nests deeper than
    ``limits.MAX_NESTING``; walked without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limits.MAX_NESTING:
            raise Unreadable(_too_deep())
        stack.extend((child, depth + 1) for child in children)


_TOO_LONG = "a number with more digits than Python reads (4300)"


def _too_deep() -> str:
    return f"values nested more than {limits.MAX_NESTING} levels deep (the limit)"


__all__ = [
    "BYTE_ORDER_MARK",
    "STDIN",
    "TOMLDecodeError",
    "Unreadable",
    "check_nesting",
    "lines",
    "load_json",
    "load_toml",
    "lone_surrogate",
    "open_regular",
    "read_bytes",
    "read_file",
]

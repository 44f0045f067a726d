"""What every command shares: the one-line error types, ``-o`` parsing, adapter
lookup, the output folder, and counting words (``plural``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from metricdiff.cases.files import InputError
from metricdiff.cases.fixtures import FixtureError, check_fixture_folder
from metricdiff.implementations import AnyAdapter, UnsupportedOption, get_adapter
from metricdiff.profiles import ConventionError
from metricdiff.reports.wording import plural
from metricdiff.scoring import DEFAULT_TIMEOUT

EXIT_USAGE = 2
EXIT_IMPLEMENTATION_FAILED = 1
#: What a shell reports for a process ended by SIGINT (128 + 2), kept for Ctrl-C.
EXIT_INTERRUPTED = 130

#: ``add_subparsers()``'s return value; argparse does not export its type.
Commands = Any


class ImplementationFailed(RuntimeError):
    """The implementation itself raised; a finding about it, reported in one line."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> Any:
        self.exit(EXIT_USAGE, f"metricdiff: error: {message}\n")


def parse_overrides(pairs: Sequence[str]) -> dict[str, str]:
    """``-o axis=value`` options as a mapping."""
    overrides = {}
    for pair in pairs:
        axis, sep, value = pair.partition("=")
        if not sep:
            raise ConventionError(f"-o {pair!r}: expected AXIS=VALUE")
        overrides[axis.strip()] = value
    return overrides


def available_adapter(name: str, metric: str) -> AnyAdapter:
    """The adapter ``name`` for ``metric``, or a one-line error saying why it cannot run."""
    adapter = get_adapter(name, metric)
    adapter.ensure_available()
    return adapter


def computes(name: str, metric: str) -> bool:
    """Whether implementation ``name`` (a known one: see ``families_of``) computes
    ``metric``, installed or not."""
    try:
        return metric in get_adapter(name, metric).metrics
    except UnsupportedOption:  # not even the metric's family
        return False


def output_folder(path: str, option: str = "--out") -> Path:
    """The folder ``path``, created if needed and checked to be writable, or a
    one-line error naming it.  Commands call it before they score anything, so
    that a mistyped ``--out`` costs nothing rather than a whole audit's work."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        # mkdir's message names the whole path; say which part is in the way.
        blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()),
                       None)
        why = f"{blocker} is a file" if blocker is not None else error.strerror or str(error)
        raise InputError(f"{option} {path}: cannot create the folder ({why})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{option} {path}: cannot write into the folder (permission denied)")
    return folder


#: Where ``--fixtures`` points when it is not given (``audit``, ``check``).
DEFAULT_FIXTURES = "fixtures"


def fixtures_folder(given: str | None) -> Path:
    """The ``--fixtures`` folder, checked to hold fixture files (FixtureError, one
    line naming it, if not).  The default is relative to the current directory,
    which is what goes wrong outside the repository: the error says so."""
    root = Path(given or DEFAULT_FIXTURES)
    try:
        check_fixture_folder(root)
    except FixtureError as error:
        if given is not None:
            raise
        raise FixtureError(
            f"{error} (the default --fixtures, relative to the current directory: run "
            "from the repository root or give --fixtures DIR)"
        ) from None
    return root


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def add_timeout(parser: argparse.ArgumentParser) -> None:
    """``--timeout``: how long an implementation may take on one batch of cases
    before its worker process is stopped (scoring.DEFAULT_TIMEOUT by default)."""
    parser.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help="seconds an implementation may take on one batch of cases "
                        f"before it is stopped and its cases count as a timeout (default: "
                        f"{DEFAULT_TIMEOUT:g})")


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


__all__ = [
    "DEFAULT_FIXTURES",
    "EXIT_IMPLEMENTATION_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "Commands",
    "ImplementationFailed",
    "Parser",
    "add_timeout",
    "available_adapter",
    "computes",
    "fixtures_folder",
    "isatty",
    "output_folder",
    "parse_overrides",
    "plural",
]

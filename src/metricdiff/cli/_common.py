"""What every command shares: the one-line error types, ``-o`` parsing, adapter lookup."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from metricdiff.adapters import AnyAdapter, get_adapter
from metricdiff.conventions import ConventionError

EXIT_USAGE = 2
EXIT_IMPLEMENTATION_FAILED = 1

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


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False

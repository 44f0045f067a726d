"""The ``metricdiff`` command line.

Each command is one module of this package with a ``register(commands)`` function
that adds its sub-parser; they are found by listing the package, so a new command
is a new module and nothing else changes.

No metricdiff error shows a traceback: every one derives from
``errors.MetricdiffError`` and prints one line ``metricdiff: error: ...`` naming
the file and line where there is one.  The exit status says whose fault it is: 1
when an implementation failed (``errors.ImplementationError``), 2 for everything
else metricdiff refuses (bad input, a missing package, an unknown axis value).
Neither does an interrupt (Ctrl-C): one line ``metricdiff: interrupted``, plus
whatever the command's ``interrupt_hint(args)`` adds (how to resume), and exit
status 130.

Library code never prints: what it notices and goes on with is a
``errors.MetricdiffWarning``, which the command line prints as one line
``metricdiff: warning: ...`` on stderr, each time it is given.  Other warnings
(a peer's own ``DeprecationWarning``, say) keep Python's default handling.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import warnings
from collections.abc import Sequence
from typing import Protocol, TextIO

from metricdiff._version import __version__
from metricdiff.cli._common import (
    EXIT_IMPLEMENTATION_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Parser,
)
from metricdiff.errors import ImplementationError, MetricdiffError, MetricdiffWarning

#: Commands listed first in ``--help``, in this order; any others follow by name.
FIRST = ("score", "impls", "audit", "check")


class _ShowWarning(Protocol):
    """``warnings.showwarning``'s signature."""

    def __call__(self, message: Warning | str, category: type[Warning], filename: str,
                 lineno: int, file: TextIO | None = None, line: str | None = None) -> None: ...


def _command_modules() -> list[str]:
    names = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    return sorted(names, key=lambda n: (FIRST.index(n) if n in FIRST else len(FIRST), n))


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line; given ``argv`` that names a command first, only
    that command's module is imported (start-up time: the other commands import
    the audit, reports, locks), and the parser has that command alone."""
    parser = Parser(
        prog="metricdiff",
        description="Find, explain and document the differences between BLEU and ROUGE "
        "implementations.",
    )
    parser.add_argument("--version", action="version", version=f"metricdiff {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    names = _command_modules()
    if argv and argv[0] in names:
        names = [argv[0]]
    for name in names:
        importlib.import_module(f"{__name__}.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    with warnings.catch_warnings():  # restores the caller's filters and display
        warnings.simplefilter("always", MetricdiffWarning)
        warnings.showwarning = _shown(warnings.showwarning)
        return _main(argv)


def _shown(default: _ShowWarning) -> _ShowWarning:
    """``warnings.showwarning`` for the command line: a ``MetricdiffWarning`` as one
    line ``metricdiff: warning: ...`` on stderr, any other warning as ``default``
    shows it."""

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        if issubclass(category, MetricdiffWarning):
            print(f"metricdiff: warning: {message}", file=sys.stderr)
        else:
            default(message, category, filename, lineno, file, line)

    return show


def _main(argv: Sequence[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    try:
        status: int = args.run(args)
    except MetricdiffError as error:
        print(f"metricdiff: error: {error}", file=sys.stderr)
        failed = isinstance(error, ImplementationError)
        return EXIT_IMPLEMENTATION_FAILED if failed else EXIT_USAGE
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        # The commands close what they opened in ``finally`` blocks (the audit's
        # journal, its worker processes) on the way here; what was done is kept.
        hint = getattr(args, "interrupt_hint", None)
        print(f"metricdiff: interrupted{hint(args) if hint else ''}", file=sys.stderr)
        return EXIT_INTERRUPTED
    return status


__all__ = ["EXIT_IMPLEMENTATION_FAILED", "EXIT_INTERRUPTED", "EXIT_USAGE", "build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())

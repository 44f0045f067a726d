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
status 130; SIGTERM is handled the same way (``metricdiff: terminated``, exit
status 143).  Standard output that cannot be written (closed, a full disk) is one
line and exit status 2, too.

Library code never prints: what it notices and goes on with is a
``errors.MetricdiffWarning``, which the command line prints as one line
``metricdiff: warning: ...`` on stderr, each time it is given.  Other warnings
(a peer's own ``DeprecationWarning``, say) keep Python's default handling.
Whatever is printed from outside (an error naming a lock's text, a warning
quoting a file) has its control characters shown, not sent
(``wording.printable``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TextIO, TypeVar

from metricdiff import limits
from metricdiff._version import __version__
from metricdiff.cli._common import (
    EXIT_IMPLEMENTATION_FAILED,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    EXIT_USAGE,
    Parser,
)
from metricdiff.errors import ImplementationError, MetricdiffError, MetricdiffWarning, OutputError
from metricdiff.impls.user.python import load_timeout
from metricdiff.wording import printable

T = TypeVar("T")

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
            print(f"metricdiff: warning: {printable(str(message))}", file=sys.stderr)
        else:
            default(message, category, filename, lineno, file, line)

    return show


def _main(argv: Sequence[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if sys.stdout is None or getattr(sys.stdout, "closed", False):  # `metricdiff ... >&-`
        if sys.stderr is not None:
            print("metricdiff: error: standard output is closed; metricdiff writes its "
                  "results there (redirect it to a file instead)", file=sys.stderr)
        return EXIT_USAGE
    args = build_parser(argv).parse_args(argv)
    output = _Output(sys.stdout)
    try:
        sys.stdout = output
        with _terminated_as_interrupted(), limits.line_limit(
                getattr(args, "max_line_bytes", None)), load_timeout(
                getattr(args, "timeout", None)):
            status: int = args.run(args)
            output.flush()
    except MetricdiffError as error:
        output.discard_if_broken()
        print(f"metricdiff: error: {printable(str(error))}", file=sys.stderr)
        failed = isinstance(error, ImplementationError)
        return EXIT_IMPLEMENTATION_FAILED if failed else EXIT_USAGE
    except BrokenPipeError:  # `metricdiff ... | head`: what was read is all that is wanted
        output.discard()
        return 0
    except KeyboardInterrupt:
        # The commands close what they opened in ``finally`` blocks (the audit's
        # journal, its worker processes) on the way here; what was done is kept.
        output.discard_if_broken()
        hint = getattr(args, "interrupt_hint", None)
        terminated = _TERMINATED.is_set()
        print(f"metricdiff: {'terminated' if terminated else 'interrupted'}"
              f"{hint(args) if hint else ''}", file=sys.stderr)
        return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
    finally:
        sys.stdout = output.stream
    return status


#: Set when SIGTERM arrived: the KeyboardInterrupt it raised was no Ctrl-C.
_TERMINATED = threading.Event()


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    """SIGTERM (a ``kill``, a CI job's cancel, a container stopped) handled as
    Ctrl-C is for the block (in the main thread, where a handler can be set):
    a KeyboardInterrupt, so that the ``finally`` blocks run, what was done is
    kept and no temporary file is left, then exit status 143; instead of the
    process ending where it stands."""
    _TERMINATED.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(_signal: int, _frame: object) -> None:
        _TERMINATED.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Output:
    """Standard output, whose write errors (a full disk, ``> /dev/full``, a file
    size limit) are one-line errors (``OutputError``) rather than tracebacks.
    Everything else is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.broken = False

    def write(self, text: str) -> int:
        return self._guarded(lambda: self.stream.write(text))

    def flush(self) -> None:
        self._guarded(self.stream.flush)

    def _guarded(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except BrokenPipeError:
            self.broken = True
            raise
        except OSError as error:
            self.broken = True
            raise OutputError(f"cannot write to standard output: "
                              f"{error.strerror or error}") from None

    def discard_if_broken(self) -> None:
        if self.broken:
            self.discard()

    def discard(self) -> None:
        """Send what is still buffered, and any later write, nowhere: Python's own
        flush at exit would otherwise fail again, with a traceback of its own."""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


__all__ = ["EXIT_IMPLEMENTATION_FAILED", "EXIT_INTERRUPTED", "EXIT_TERMINATED", "EXIT_USAGE",
           "build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())

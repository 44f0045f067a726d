"""Every exception metricdiff raises, under one root: ``MetricdiffError``; and the
one warning it gives, ``MetricdiffWarning``.

Catching ``MetricdiffError`` catches all of them, and only them.  Below the root
the classes say whose fault it is, which is what the command line's exit status
says (``cli/__init__.py``):

- an implementation failed or refused while scoring (``ImplementationError`` and
  its subclasses): exit status 1, since that is a finding about it;
- everything else is metricdiff refusing what it was given or what this machine
  lacks (a file, a fixture, a lock, an axis value, a missing package): exit
  status 2.

An exception only one peer raises is defined with that peer, under these
classes (``impls/peers/rouge155/``'s ``Rouge155Error``, an ``ImplementationError``),
so that this module, which every step imports, imports nothing of metricdiff.

Every message is one line that names the file and line where there is one, and
says how to fix it.

What metricdiff notices but goes on with (a byte order mark dropped from an
input file, a broken adapter entry point left out, a peer that printed while it
was imported) is a ``MetricdiffWarning``, given through ``warnings.warn``: library
code never prints.  The command line shows each as one line on stderr,
``metricdiff: warning: …``; a program using the Python API filters or records
them as it does any warning.  A class that used to derive from a built-in exception
(``ValueError``, ``RuntimeError``) still does, so an ``except ValueError`` written
against it keeps working.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class MetricdiffError(Exception):
    """The root of every exception metricdiff raises."""


# --- what metricdiff was given -----------------------------------------------


class InputError(MetricdiffError, ValueError):
    """Input that metricdiff refuses (``--hyp``/``--ref`` files, an audit folder
    read back); the message names the file and line."""


class OutputError(MetricdiffError, ValueError):
    """A place metricdiff cannot write to (``--out``, a lock file, a report); the
    message names it and why.  (A ValueError, as the InputError it used to be.)"""


class FixtureError(MetricdiffError, ValueError):
    """A fixture that does not follow the format; the message names file and line."""


class LockError(MetricdiffError, ValueError):
    """A lock file that does not follow the format; the message names file and line."""


class Unreadable(MetricdiffError, ValueError):
    """A JSON or TOML text that parses to nothing metricdiff can hold (nested too
    deep, a number too long, a key twice); the message says why, and its reader
    adds the file and line (``input_files``)."""


class RowError(MetricdiffError, ValueError):
    """A row read back (a journal line, a results.jsonl row, a lock's result) that
    is not what metricdiff writes; ``field`` names the result field at fault, if
    one is, and the reader adds the file and line (``scoring.rows``)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class ConventionError(MetricdiffError, ValueError):
    """An axis or value that metricdiff does not know, or that does not parse."""


class UnsupportedOption(ConventionError):
    """An axis value the chosen implementation cannot honour."""


class BadSpec(ConventionError):
    """A ``python:`` or ``cmd:`` spec that cannot be read: a one-line usage error."""


# --- what this machine lacks --------------------------------------------------


class AdapterUnavailable(MetricdiffError, RuntimeError):
    """The peer library is not installed; the message says how to install it."""


class PeerNotInstalled(MetricdiffError, RuntimeError):
    """An isolated peer whose directory holds no usable package."""


class TokenizerUnavailable(MetricdiffError, RuntimeError):
    """A tokenizer whose optional package is not installed."""


class TextResourceUnavailable(TokenizerUnavailable):
    """A stemmer or stopword list whose package or data file is missing.

    A subclass of TokenizerUnavailable, so code that already reports missing
    optional tokenizer packages reports these the same way.
    """


class Exiting(MetricdiffError, RuntimeError):
    """A worker process asked for while metricdiff exits: the pool that asks
    (in a background thread, after a Ctrl-C in the main one) ends."""


# --- what an implementation did -------------------------------------------------


class ImplementationError(MetricdiffError):
    """An implementation failed, or refused its input, while scoring."""


class ImplementationFailed(ImplementationError, RuntimeError):
    """The implementation itself raised; a finding about it, reported in one line."""


class EmptyInputError(ImplementationError, ValueError):
    """``empty_policy=error`` met an empty hypothesis scored against empty references."""

    def __init__(self, message: str, *, segments: int | None = None) -> None:
        super().__init__(message)
        #: How many of the corpus's segments are empty, where the whole corpus was
        #: read to count them (None: it stopped at the first).
        self.segments = segments


class InvalidOutput(ImplementationError, ValueError):
    """The implementation answered, but not with a score (a user's program whose
    output has no number in it): an ``invalid-output`` outcome, not a crash."""


class CommandFailed(ImplementationError, RuntimeError):
    """The program exited with a status other than 0, or did not finish in time."""


class CommandTimedOut(CommandFailed):
    """The program did not finish in time (its whole process group was killed): a
    ``timeout`` outcome, not a crash."""


class MissingReferenceError(ImplementationError, ValueError):
    """An implementation refuses a segment that has no reference at all (pycocoevalcap,
    fast-bleu)."""


# --- what metricdiff notices and goes on with -------------------------------------


class MetricdiffWarning(UserWarning):
    """Something metricdiff noticed and went on with; the message is one line that
    names the file and line where there is one."""


# --- what a check found -----------------------------------------------------------


class LockDrift(MetricdiffError):
    """Raised by the pytest plugin's verify item; its message is the report."""


class NonConformance(MetricdiffError, AssertionError):
    """An adapter that does not do what it declares (``metricdiff.testing.
    check_adapter``): every problem, one a line; ``undeclared`` holds each
    departure found that no ``Deviation`` declares, as a ``Deviation`` whose reason
    says what happened (to be replaced by the why)."""

    def __init__(self, adapter: str, problems: Sequence[str],
                 undeclared: Sequence[Any] = ()) -> None:
        self.problems = tuple(problems)
        self.undeclared = tuple(undeclared)
        super().__init__(f"{adapter} does not conform:\n" + "\n".join(
            f"- {problem}" for problem in problems))


__all__ = [
    "AdapterUnavailable",
    "BadSpec",
    "CommandFailed",
    "CommandTimedOut",
    "ConventionError",
    "EmptyInputError",
    "Exiting",
    "FixtureError",
    "ImplementationError",
    "ImplementationFailed",
    "InputError",
    "InvalidOutput",
    "LockDrift",
    "LockError",
    "MetricdiffError",
    "MetricdiffWarning",
    "MissingReferenceError",
    "NonConformance",
    "OutputError",
    "PeerNotInstalled",
    "RowError",
    "TextResourceUnavailable",
    "TokenizerUnavailable",
    "Unreadable",
    "UnsupportedOption",
]


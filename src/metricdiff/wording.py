"""Small helpers for the words metricdiff prints, so that every command and report
counts things the same way ("1 case", "2 cases")."""

from __future__ import annotations

import re
import signal
from collections.abc import Sequence


def from_cache(hits: int, asked: int, folder: str) -> str:
    """What every output says of ``--cache``: ``1,234 of 5,678 peer scores came
    from the cache in DIR``."""
    return (f"{hits:,} of {asked:,} peer score{'' if asked == 1 else 's'} came from the "
            f"cache in {folder}")


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` followed by ``noun``, in the plural unless ``count`` is 1:
    ``plural(1, "case")`` is ``1 case``, ``plural(3, "case")`` ``3 cases``.
    ``many`` is the plural form when adding an ``s`` is wrong."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {many if many is not None else noun + 's'}"


def could_not_score(names: Sequence[str]) -> str:
    """The clause an audit's summary ends with when an implementation gave no
    result on any case: without it, "0 findings" would read as agreement.  Each
    name once, however many metrics it failed on."""
    if not names:
        return ""
    return f"; could not score {', '.join(dict.fromkeys(names))} (no result on any case)"


def not_applicable(names: Sequence[str]) -> str:
    """The clause an audit's summary ends with when an implementation refused
    every case by a documented inability (``UnsupportedOption``: it takes one
    reference, say): not a failure, and no agreement either.  Each name once."""
    if not names:
        return ""
    return (f"; not applicable to this input: {', '.join(dict.fromkeys(names))} "
            "(refused every case as it documents)")


def refusal(impl: str, message: str) -> str:
    """What an implementation cannot take, from the message of its refusal
    (``UnsupportedOption``), without its own name in front: ``takes one
    reference per segment; segment 1 has 2``."""
    return message.removeprefix(f"{impl} ") or message


def process_end(code: int) -> str:
    """How a process that gave no answer ended, from its exit status (negative: the
    signal that killed it): ``process died with exit code 3``, ``process killed
    by signal SIGSEGV``."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return f"process killed by signal {name}"
    return f"process died with exit code {code}"


#: What a terminal would act on rather than show: control characters (ESC starts
#: the sequences that move the cursor, recolour or retitle the terminal, or
#: write to the clipboard), and the invisible marks that reorder the text shown.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                          "\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` from outside (an implementation's message, a lock's names and
    values) safe to print on a terminal, on one line: each control character or
    direction mark shown as its code point, ``⟨U+001B⟩``, as the reports show
    invisible characters."""
    return _UNPRINTABLE.sub(lambda found: f"⟨U+{ord(found.group()):04X}⟩", text)


__all__ = ["could_not_score", "not_applicable", "plural", "printable", "process_end", "refusal"]

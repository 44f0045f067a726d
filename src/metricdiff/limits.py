"""Every bound on what metricdiff accepts, in one place, and the one validator of
option values (seconds, counts, numeric settings) that the command line, the
pytest plugin, the Python API and a ``cmd:`` spec's ``#options`` share.

The bounds are generous: each allows any real use many times over, and stops
only what would hang metricdiff, exhaust the machine's memory or overflow a
float (docs/inputs.md states them).  A validator raises ``ValueError`` with the
words that follow the option's name (``must be a number of seconds ...``); each
caller puts them into its own one-line error (argparse's, pytest's, BadSpec,
InputError).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Iterator

#: The longest line metricdiff reads from an input file (a hypothesis or
#: reference file, a JSONL record, a row of an audit folder): 1 MiB, about 150,000
#: words, far above any segment a metric is given.  ``--max-line-bytes`` raises it.
MAX_LINE_BYTES = 2**20
#: The largest file read whole (a lock, a fixture, an audit folder's JSON):
#: 256 MiB, also what ``verify`` reads of an input a lock names.
MAX_FILE_BYTES = 256 * 2**20
#: How deeply JSON and TOML values may nest: what metricdiff writes nests 5 deep.
MAX_NESTING = 64

#: Seconds an implementation may be given at most (``--timeout``, ``#timeout``):
#: about 11 days; ``inf`` says "no limit" where a command allows it.
MAX_SECONDS = 1e6
#: Worker processes at most (``--jobs``).
MAX_JOBS = 256
#: Generated cases per metric at most (``audit --generate``): 1,000,000 take
#: about a minute to make, and far longer to score.
MAX_GENERATED = 1_000_000
#: Approximate randomization trials at most (``rank --trials``): 100 times
#: sacrebleu's default of 10,000.
MAX_TRIALS = 1_000_000

_LINE_LIMIT: contextvars.ContextVar[int] = contextvars.ContextVar(
    "metricdiff_max_line_bytes", default=MAX_LINE_BYTES)


def max_line_bytes() -> int:
    """The longest line input files may have now (``MAX_LINE_BYTES``, or what
    ``line_limit`` set)."""
    return _LINE_LIMIT.get()


@contextlib.contextmanager
def line_limit(limit: int | None) -> Iterator[None]:
    """Within the block, lines of input files may be ``limit`` bytes long
    (None: the default); ``--max-line-bytes`` sets it for a command."""
    if limit is None:
        yield
        return
    token = _LINE_LIMIT.set(limit)
    try:
        yield
    finally:
        _LINE_LIMIT.reset(token)


def seconds(value: object, *, no_limit: bool = True) -> float:
    """``value`` (a number or its text) as a number of seconds above 0 and at
    most ``MAX_SECONDS``; ``inf`` is no limit, where ``no_limit`` allows it.
    ValueError otherwise (``0``, ``-1``, ``nan``, ``1e300``, ``soon``)."""
    most = f"at most {MAX_SECONDS:,.0f}" + ("; inf: no limit" if no_limit else "")
    number = _as_float(value)
    if number == math.inf and no_limit:
        return number
    if not 0 < number <= MAX_SECONDS:  # also false for nan
        raise ValueError(f"must be a number of seconds greater than 0 ({most}), "
                         f"not {_shown(value)}")
    return number


def whole_number(value: object, least: int, most: int | None = None) -> int:
    """``value`` (an int or its text, not a bool or a float) as a whole number from
    ``least`` to ``most``; ValueError otherwise."""
    bound = f"at least {least:,}" if most is None else f"from {least:,} to {most:,}"
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str):
        with contextlib.suppress(ValueError):  # also a number of more than 4300 digits
            number = int(value.strip())
    if number is None or number < least or (most is not None and number > most):
        raise ValueError(f"must be a whole number, {bound}, not {_shown(value)}")
    return number


def number_within(value: object, least: float, most: float, *,
                  above_least: bool = False) -> float:
    """``value`` (a number or its text) as a finite number from ``least``
    (excluded with ``above_least``) to ``most``; ValueError otherwise."""
    number = _as_float(value)
    low_ok = number > least if above_least else number >= least
    if not (low_ok and number <= most):  # also false for nan
        low = f"above {least:g}" if above_least else f"from {least:g}"
        raise ValueError(f"must be a number {low} to {most:g}, not {_shown(value)}")
    return number


def _as_float(value: object) -> float:
    if isinstance(value, bool):
        return math.nan
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:  # an int no float holds
            return math.inf
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return math.nan
    return math.nan


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


__all__ = [
    "MAX_FILE_BYTES",
    "MAX_GENERATED",
    "MAX_JOBS",
    "MAX_LINE_BYTES",
    "MAX_NESTING",
    "MAX_SECONDS",
    "line_limit",
    "max_line_bytes",
    "number_within",
    "seconds",
    "whole_number",
]

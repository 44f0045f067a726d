"""Reading a user's spec string: ``python:MODULE:FUNCTION`` and
``cmd:COMMAND {hyp} {refs} [#option=value ...]`` (the grammar is in the package
docstring).  Everything here is checked before anything runs: BadSpec is a
one-line usage error."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

import attrs

from metricdiff import limits
from metricdiff.errors import BadSpec

PYTHON = "python:"
COMMAND = "cmd:"


def is_user_spec(name: str) -> bool:
    """Whether ``name`` is a ``python:`` or ``cmd:`` spec rather than a registered name."""
    return name.startswith((PYTHON, COMMAND))


def split_python(spec: str) -> tuple[str, str]:
    module, sep, function = spec.rpartition(":")
    if not sep or not module or not function:
        raise BadSpec(
            f"{PYTHON}{spec}: expected {PYTHON}MODULE:FUNCTION (a module name or a "
            ".py file, then the function)"
        )
    if not all(part.isidentifier() for part in function.split(".")):
        raise BadSpec(f"{PYTHON}{spec}: {function!r} is not a function name")
    return module, function


PLACEHOLDERS = ("hyp", "ref", "refs")
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")

DEFAULT_TIMEOUT = 300.0
OPTIONS = ("score", "scale", "digits", "timeout")
#: Decimals a float carries, at most: more say nothing.
MAX_DIGITS = 17
#: The largest ``#scale``: a program's number times 1000 is past any scale already.
MAX_SCALE = 1000.0


@attrs.frozen
class CommandLine:
    """A parsed ``cmd:`` spec."""

    argv: tuple[str, ...]
    stdin: str | None  # the placeholder whose file goes to standard input
    pattern: re.Pattern[str] | None
    scale: float
    digits: int | None
    timeout: float


def _option(spec: str, word: str) -> tuple[str, str]:
    key, sep, value = word[1:].partition("=")
    if not sep or key not in OPTIONS:
        raise BadSpec(
            f"{COMMAND}{spec}: unknown option {word!r} (options: "
            f"{', '.join(f'#{o}=' for o in OPTIONS)})"
        )
    return key, value


def _options(spec: str, words: Sequence[str]) -> dict[str, Any]:
    """``#key=value`` words as typed values."""
    typed: dict[str, Any] = {}
    for word in words:
        key, value = _option(spec, word)
        try:
            if key == "score":
                pattern = re.compile(value)
                if pattern.groups < 1:
                    raise ValueError("it needs a group ( ) around the number")
                typed[key] = pattern
            elif key == "digits":
                typed[key] = int(value)
                if not 0 <= typed[key] <= MAX_DIGITS:
                    # -3 would be a tolerance of 500 BLEU points, -400 an overflow.
                    raise ValueError(f"it must be a whole number from 0 to {MAX_DIGITS}")
            elif key == "timeout":  # inf or 1e300 would overflow the wait for the program
                typed[key] = limits.seconds(value, no_limit=False)
            else:
                typed[key] = limits.number_within(value, 0, MAX_SCALE, above_least=True)
        except (ValueError, re.error) as error:
            raise BadSpec(f"{COMMAND}{spec}: #{key}={value}: {error}") from None
    return typed


def _check_placeholders(spec: str, argv: Sequence[str], stdin: str | None) -> None:
    used = {stdin} if stdin else set()
    for word in argv:
        for name in PLACEHOLDER.findall(word):
            if name not in PLACEHOLDERS:
                raise BadSpec(
                    f"{COMMAND}{spec}: unknown placeholder {{{name}}} (known: "
                    f"{', '.join(f'{{{p}}}' for p in PLACEHOLDERS)})"
                )
            if name == "refs" and word != "{refs}":
                raise BadSpec(f"{COMMAND}{spec}: {{refs}} must be a word of its own")
            used.add(name)
    if "hyp" not in used:
        raise BadSpec(f"{COMMAND}{spec}: the command needs {{hyp}} (or < {{hyp}})")
    if not used & {"ref", "refs"}:
        raise BadSpec(f"{COMMAND}{spec}: the command needs {{ref}} or {{refs}}")


def parse_command(spec: str) -> CommandLine:
    """A ``cmd:`` spec (without its prefix), checked; BadSpec says what is wrong."""
    try:
        words = shlex.split(spec)
    except ValueError as error:
        raise BadSpec(f"{COMMAND}{spec}: {error}") from None
    first_option = next((i for i, w in enumerate(words) if w.startswith("#")), len(words))
    argv, options = words[:first_option], _options(spec, words[first_option:])
    stdin = None
    if "<" in argv:
        at = argv.index("<")
        if at + 1 >= len(argv) or argv[at + 1] not in ("{hyp}", "{ref}"):
            raise BadSpec(f"{COMMAND}{spec}: '<' must be followed by {{hyp}} or {{ref}}")
        stdin = argv[at + 1][1:-1]
        argv = argv[:at] + argv[at + 2:]
    if not argv:
        raise BadSpec(f"{COMMAND}{spec}: no program to run")
    _check_placeholders(spec, argv, stdin)
    return CommandLine(
        tuple(argv), stdin, options.get("score"), options.get("scale", 1.0),
        options.get("digits"), options.get("timeout", DEFAULT_TIMEOUT),
    )

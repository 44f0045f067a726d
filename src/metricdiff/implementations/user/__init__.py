"""A user's own BLEU or ROUGE, driven from a spec string instead of an adapter class
(``--impl python:...`` or ``--impl cmd:...``; see docs/own-implementation.md).

``python:MODULE:FUNCTION``
    MODULE is a dotted module name (importable from ``sys.path`` or the current
    directory) or the path of a ``.py`` file; FUNCTION a function in it (a dotted
    path reaches an attribute: ``Scorer.bleu``).  It is called as::

        FUNCTION(hypotheses: list[str], references: list[list[str]], metric: str) -> dict

    ``hypotheses`` has one segment per item, ``references[i]`` the references of
    segment i (a missing reference is left out), ``metric`` is ``bleu``,
    ``rouge-1`` .. ``rouge-9``, ``rouge-l``, ``rouge-lsum``, ``rouge-w``,
    ``rouge-s`` or ``rouge-su`` (a ROUGE segment may hold several sentences, one
    per line).  It returns the corpus score of all segments together, as a dict
    with the keys of ``metricdiff score --format json``'s ``corpus``:

    * BLEU: ``score`` (0-100, required), ``precisions`` (per order, 0-100),
      ``bp``, ``sys_len``, ``ref_len``, ``counts`` (clipped matches per order,
      before smoothing), ``totals`` (hypothesis n-grams per order);
    * ROUGE: ``fmeasure`` (0-1, required), ``recall``, ``precision``, ``matches``,
      ``hyp_total``, ``ref_total``.

    A key left out is a statistic not reported: never compared, never taken to be
    0.  A key of neither list is refused (a typo would otherwise go unnoticed).
    A sentence score is a call with one segment; the audit calls it once per case.
    An attribute ``metrics`` on the function (a tuple of metric names) says which
    metrics it implements; without one it is offered for every metric.

``cmd:COMMAND [#option=value ...]``
    COMMAND is split into words as a shell would (``shlex``) and run without a
    shell.  Placeholders: ``{hyp}`` is a file of the hypotheses, ``{ref}`` a file
    of the references (one per segment), ``{refs}`` (a word of its own) one file
    per reference, each its own argument; ``< {hyp}`` (or ``< {ref}``) sends that
    file to the program's standard input instead.  The files hold one segment per
    line, a line break inside a segment written as a literal ``\\n`` and a
    backslash followed by n as ``\\\\n`` (as metricdiff reads ROUGE files).
    Every segment must have the same number of references.
    The score is the first group of a regular expression searched in standard
    output (default: the number after ``BLEU =``, ``BLEU:`` or ``BLEU score =``;
    for ROUGE after ``F:``, ``F1 =``, ``F-measure:``, ``fmeasure =`` or
    ``Average_F:``), or the whole output if it is one number.  Words from the
    first one that starts with ``#`` are options:

    * ``#score=REGEX``: the pattern (quote it: ``#score='BLEU = ([0-9.]+)'``);
    * ``#scale=X``: multiply the number read by X (mteval prints BLEU on 0-1:
      ``#scale=100``);
    * ``#digits=N``: the program prints N decimals, so numbers within half a unit
      of the last one are equal (default: 2 for BLEU on 0-100, 4 for ROUGE on 0-1);
    * ``#timeout=S``: seconds the program may take (default 300).

    An exit status other than 0 is a crash; output without a score is invalid
    output.

A user's implementation has no profile of its own: ``-o axis=value`` declares it,
and without one it is unknown (the paper's stands in, and ``metricdiff audit``
infers the real one: ``metricdiff.findings.infer``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import attrs

from metricdiff.cases.files import escape_sentence_breaks
from metricdiff.implementations.base import (
    ANY,
    Adapter,
    InvalidOutput,
    References,
    Tolerance,
    UnsupportedOption,
)
from metricdiff.profiles import AXES, ConventionError
from metricdiff.profiles.metrics import METRICS, Options, Result, family, paper_options
from metricdiff.profiles.profile import unknown_signature
from metricdiff.statistics import BleuResult, RougeResult

PYTHON = "python:"
COMMAND = "cmd:"
#: The version of a user's implementation that states none (a ``python:`` module
#: without ``__version__``, every ``cmd:``): a placeholder, not a version to show.
LOCAL_VERSION = "local"

#: The keys a result may have, per family: ``to_json``'s; the first is required.
FIELDS: dict[str, tuple[str, ...]] = {
    "bleu": ("score", "precisions", "bp", "sys_len", "ref_len", "counts", "totals"),
    "rouge": ("fmeasure", "recall", "precision", "matches", "hyp_total", "ref_total"),
}
_FROM_JSON: dict[str, Callable[[dict[str, Any]], Result]] = {
    "bleu": BleuResult.from_json,
    "rouge": RougeResult.from_json,
}


class BadSpec(ConventionError):
    """A ``python:`` or ``cmd:`` spec that cannot be read: a one-line usage error."""


class CommandFailed(RuntimeError):
    """The program exited with a status other than 0, or did not finish in time."""


def is_user_spec(name: str) -> bool:
    """Whether ``name`` is a ``python:`` or ``cmd:`` spec rather than a registered name."""
    return name.startswith((PYTHON, COMMAND))


# ------------------------------------------------------------------ results


def _number(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise InvalidOutput(f"{value!r} is not a number") from None
    return value


def result_from_fields(family_name: str, fields: object) -> Result:
    """The result a user's function or program reported, the statistics it left
    out marked unknown (``Result.unknown``)."""
    if not isinstance(fields, Mapping):
        raise InvalidOutput(f"returned {type(fields).__name__}, not a dict of fields")
    allowed = FIELDS[family_name]
    extra = sorted(str(key) for key in fields if key not in allowed)
    if extra:
        raise InvalidOutput(
            f"unknown field {', '.join(extra)} (a {family_name} result has: "
            f"{', '.join(allowed)})"
        )
    if fields.get(allowed[0]) is None:
        raise InvalidOutput(f"no {allowed[0]!r} in the result")
    data: dict[str, Any] = {}
    for key in allowed:
        value = fields.get(key)
        if value is not None and not isinstance(value, (str, bytes)) and hasattr(
            value, "__iter__"
        ):
            data[key] = [_number(item) for item in value]
        else:
            data[key] = None if value is None else _number(value)
    return _FROM_JSON[family_name](data)


# -------------------------------------------------------------- the adapters


class UserAdapter(Adapter[Any, Any]):
    """What ``python:`` and ``cmd:`` adapters share: the spec is the name, the
    profile is declared with ``-o`` (every axis may be declared) or unknown.

    ``get_adapter`` makes one subclass per spec and family (``user_adapter``), so
    that ``type(adapter)()`` -- how worker processes rebuild an adapter from its
    name -- gives the same adapter again."""

    user_profile = True
    settable = dict.fromkeys(AXES, ANY)
    #: The spec after its prefix.
    spec: ClassVar[str] = ""

    def __init__(self) -> None:
        #: The axes ``options`` was last given: none means the profile is unknown.
        self.declared: frozenset[str] = frozenset()

    def version(self) -> str:
        return LOCAL_VERSION

    def default_options(self, metric: str) -> Options:
        """Unknown: the paper's profile stands in (and ``-o`` declares departures)."""
        self.check_metric(metric)
        return paper_options(metric)

    def options(self, metric: str, overrides: Mapping[str, str] | None = None) -> Options:
        options: Options = super().options(metric, overrides)
        self.declared = frozenset(overrides or {})
        return options

    def signature(self, metric: str, options: Options) -> str:
        if not self.declared:
            return unknown_signature(metric, f"{self.name}-{self.version()}")
        return super().signature(metric, options)


# ---------------------------------------------------------------- python:


_FILE_MODULES: dict[Path, ModuleType] = {}


def _split_python(spec: str) -> tuple[str, str]:
    module, sep, function = spec.rpartition(":")
    if not sep or not module or not function:
        raise BadSpec(
            f"{PYTHON}{spec}: expected {PYTHON}MODULE:FUNCTION (a module name or a "
            ".py file, then the function)"
        )
    if not all(part.isidentifier() for part in function.split(".")):
        raise BadSpec(f"{PYTHON}{spec}: {function!r} is not a function name")
    return module, function


def _import(module: str) -> ModuleType:
    """The module named ``module``, or loaded from the ``.py`` file it names."""
    if module.endswith(".py"):
        path = Path(module).resolve()
        if path not in _FILE_MODULES:
            if not path.is_file():
                raise ImportError(f"no such file: {module}")
            digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
            name = f"metricdiff_user_{path.stem}_{digest}"
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            loaded = importlib.util.module_from_spec(spec)
            sys.modules[name] = loaded  # before running it, as import would
            spec.loader.exec_module(loaded)
            _FILE_MODULES[path] = loaded
        return _FILE_MODULES[path]
    # The current directory counts, as with ``python -m``; last, so that it never
    # hides an installed package.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    return importlib.import_module(module)


def load_function(spec: str) -> Callable[..., Any]:
    """The function a ``python:`` spec (without its prefix) names."""
    module_name, path = _split_python(spec)
    target: Any = _import(module_name)
    for part in path.split("."):
        if not hasattr(target, part):
            raise ImportError(f"{module_name} has no attribute {path!r}")
        target = getattr(target, part)
    if not callable(target):
        raise ImportError(f"{module_name}:{path} is not callable")
    return target  # type: ignore[no-any-return]


class PythonFunctionAdapter(UserAdapter):
    """A Python function, called with the hypotheses, references and metric."""

    def unavailable_reason(self) -> str | None:
        try:
            load_function(self.spec)
        except Exception as error:  # any import failure makes it unusable
            return f"{self.name}: cannot load it ({type(error).__name__}: {error})"
        return None

    def version(self) -> str:
        try:
            module = _import(_split_python(self.spec)[0])
        except Exception:  # unavailable_reason says why
            return LOCAL_VERSION
        return str(getattr(module, "__version__", LOCAL_VERSION))

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: Options
    ) -> Result:
        self.check_metric(metric)
        segments = [[ref for ref in seg if ref is not None] for seg in refs]
        fields = load_function(self.spec)(list(hyps), segments, metric)
        return result_from_fields(self.family, fields)


def _declared_metrics(spec: str, family_name: str) -> tuple[str, ...]:
    """The metrics of ``family_name`` the function says it implements (all of
    them if it says nothing, or cannot be loaded: then it is unavailable)."""
    offered = tuple(m for m in METRICS if family(m) == family_name)
    try:
        declared = getattr(load_function(spec), "metrics", None)
    except Exception:  # unavailable_reason reports it
        return offered
    if declared is None:
        return offered
    return tuple(m for m in offered if m in tuple(declared))


# ------------------------------------------------------------------- cmd:


PLACEHOLDERS = ("hyp", "ref", "refs")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
DEFAULT_PATTERNS = {
    "bleu": re.compile(rf"\bBLEU(?:\s+score)?\s*[=:]\s*({_NUMBER})"),
    "rouge": re.compile(
        rf"(?:\bF(?:1|-?measure|-?score)?|\bfmeasure|Average_F)\s*[=:]\s*({_NUMBER})",
        re.IGNORECASE,
    ),
}
_BARE_NUMBER = re.compile(rf"\s*({_NUMBER})\s*")
#: Decimals printed when ``#digits`` does not say: sacrebleu and multi-bleu.perl
#: print BLEU with 2 (on 0-100), and 4 on ROUGE's 0-1 is as many significant ones.
DEFAULT_DIGITS = {"bleu": 2, "rouge": 4}
DEFAULT_TIMEOUT = 300.0
OPTIONS = ("score", "scale", "digits", "timeout")


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
            else:
                typed[key] = float(value)
                if not typed[key] > 0:
                    raise ValueError("it must be positive")
        except (ValueError, re.error) as error:
            raise BadSpec(f"{COMMAND}{spec}: #{key}={value}: {error}") from None
    return typed


def _check_placeholders(spec: str, argv: Sequence[str], stdin: str | None) -> None:
    used = {stdin} if stdin else set()
    for word in argv:
        for name in _PLACEHOLDER.findall(word):
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


def _tolerance(command: CommandLine, family_name: str) -> Tolerance:
    digits = command.digits
    if digits is None:  # the default is on metricdiff's scale, whatever #scale says
        digits, scale = DEFAULT_DIGITS[family_name], 1.0
    else:
        scale = command.scale
    return Tolerance(
        absolute=0.5 * 10.0**-digits * scale,
        reason=f"the score is read as the program prints it, to {digits} decimals",
    )


def _line(text: str) -> str:
    """One segment as one line of a file metricdiff would read back."""
    return escape_sentence_breaks(text)


def _reference_streams(refs: References, single: bool) -> list[list[str]]:
    """One list of lines per reference file; refuse what files cannot hold."""
    widths = {len(seg) for seg in refs}
    if len(widths) != 1 or any(ref is None for seg in refs for ref in seg):
        raise UnsupportedOption("cmd: every segment needs the same number of references")
    (width,) = widths
    if width == 0 or (single and width > 1):
        what = "no reference" if width == 0 else f"{width} references"
        raise UnsupportedOption(f"cmd: the command takes one reference file; the case has {what}")
    return [[_line(str(seg[i])) for seg in refs] for i in range(width)]


def _write(path: Path, lines: Sequence[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def read_score(output: str, pattern: re.Pattern[str] | None, family_name: str) -> float:
    """The score in a program's standard output."""
    found = (pattern or DEFAULT_PATTERNS[family_name]).search(output)
    if found is None and pattern is None:
        found = _BARE_NUMBER.fullmatch(output)
    if found is None:
        shown = " ".join(output.split())[:80] or "(nothing)"
        raise InvalidOutput(f"no score in the output: {shown}")
    try:
        return float(found.group(1))
    except (TypeError, ValueError):
        raise InvalidOutput(f"not a number: {found.group(1)!r}") from None


class CommandAdapter(UserAdapter):
    """An external program, given files, its score read from standard output."""

    command: ClassVar[CommandLine]

    def unavailable_reason(self) -> str | None:
        program = self.command.argv[0]
        if shutil.which(program) is None:
            return f"{self.name}: program {program!r} not found"
        return None

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: Options
    ) -> Result:
        self.check_metric(metric)
        output = self._run(hyps, refs)
        score = read_score(output, self.command.pattern, self.family) * self.command.scale
        return result_from_fields(self.family, {FIELDS[self.family][0]: score})

    def score_cases(
        self, metric: str, cases: Sequence[tuple[Sequence[str], References]], options: Options
    ) -> list[Any]:
        """Each case is one run of the program, which mostly waits on its process:
        several run at once (one per CPU), each case still with its own outcome."""

        def outcome(case: tuple[Sequence[str], References]) -> Result | BaseException:
            try:
                return self.corpus_score(metric, case[0], case[1], options)
            except Exception as error:  # recorded as this case's outcome
                return error

        with ThreadPoolExecutor(max_workers=max(1, min(len(cases), os.cpu_count() or 1))) as pool:
            return list(pool.map(outcome, cases))

    def _run(self, hyps: Sequence[str], refs: References) -> str:
        command = self.command
        single = "refs" not in command.argv and command.stdin != "refs"
        streams = _reference_streams(refs, single)
        with tempfile.TemporaryDirectory(prefix="metricdiff-cmd-") as tmp:
            files = {"hyp": _write(Path(tmp, "hyp.txt"), [_line(h) for h in hyps])}
            paths = [_write(Path(tmp, f"ref{i}.txt"), s) for i, s in enumerate(streams)]
            files["ref"] = paths[0]
            argv: list[str] = []
            for word in command.argv:
                if word == "{refs}":
                    argv += paths
                else:
                    argv.append(_PLACEHOLDER.sub(lambda m: files[m.group(1)], word))
            stdin = files[command.stdin] if command.stdin else os.devnull
            with open(stdin, "rb") as source:
                try:
                    done = subprocess.run(
                        argv, stdin=source, capture_output=True, timeout=command.timeout,
                        check=False,
                    )
                except subprocess.TimeoutExpired:
                    raise CommandFailed(f"no answer within {command.timeout:g} s") from None
        out = done.stdout.decode("utf-8", "replace")
        if done.returncode != 0:
            errors = done.stderr.decode("utf-8", "replace").strip().splitlines()
            last = errors[-1] if errors else "(no message)"
            raise CommandFailed(f"exit status {done.returncode}: {last}")
        return out


# ------------------------------------------------------------------ factory


_CLASSES: dict[tuple[str, str], type[UserAdapter]] = {}


def _make_class(name: str, family_name: str) -> type[UserAdapter]:
    attributes: dict[str, Any] = {"name": name, "family": family_name}
    if name.startswith(PYTHON):
        spec = name.removeprefix(PYTHON)
        _split_python(spec)
        attributes |= {"spec": spec, "metrics": _declared_metrics(spec, family_name)}
        base: type[UserAdapter] = PythonFunctionAdapter
    else:
        spec = name.removeprefix(COMMAND)
        command = parse_command(spec)
        attributes |= {
            "spec": spec,
            "command": command,
            "metrics": tuple(m for m in METRICS if family(m) == family_name),
            "tolerance": _tolerance(command, family_name),
        }
        base = CommandAdapter
    return type(f"{base.__name__}_{family_name}", (base,), attributes)


def user_adapter(name: str, family_name: str) -> UserAdapter:
    """The adapter of the spec ``name`` for the family ``bleu`` or ``rouge``."""
    key = (name, family_name)
    if key not in _CLASSES:
        _CLASSES[key] = _make_class(name, family_name)
    return _CLASSES[key]()


def declared_metrics(name: str) -> tuple[str, ...] | None:
    """The metrics the spec ``name`` says it implements, or None when it says
    nothing: a ``cmd:`` program never does, a ``python:`` function does with its
    ``metrics`` attribute.  (The adapters' ``metrics`` cannot tell: a spec that
    says nothing is offered every metric of its families.)"""
    if not name.startswith(PYTHON):
        return None
    try:
        declared = getattr(load_function(name.removeprefix(PYTHON)), "metrics", None)
    except Exception:  # whatever its import raises: unavailable_reason says it
        return None
    if declared is None:
        return None
    return tuple(m for m in METRICS if m in tuple(declared))


def user_families(name: str) -> list[str]:
    """The families the spec ``name`` implements (raises BadSpec if unreadable)."""
    return [f for f in ("bleu", "rouge") if user_adapter(name, f).metrics]


__all__ = [
    "COMMAND",
    "LOCAL_VERSION",
    "PYTHON",
    "BadSpec",
    "CommandAdapter",
    "CommandFailed",
    "PythonFunctionAdapter",
    "UserAdapter",
    "declared_metrics",
    "is_user_spec",
    "load_function",
    "parse_command",
    "read_score",
    "result_from_fields",
    "user_adapter",
    "user_families",
]

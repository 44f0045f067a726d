"""What every command shares: the exit statuses, the one-line usage errors, ``-o``
parsing, an ``--impl`` that must run, the input options (``--hyp``/``--ref`` or
``--jsonl``), the output folder, and counting words (``plural``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from metricdiff import limits
from metricdiff.cases import bundled
from metricdiff.cases.case import Case
from metricdiff.cases.files import CorpusStream, stream_corpus
from metricdiff.cases.fixtures import check_fixture_folder
from metricdiff.errors import (
    ConventionError,
    FixtureError,
    InputError,
    OutputError,
)
from metricdiff.impls import AnyAdapter, computes, resolve
from metricdiff.scoring import DEFAULT_TIMEOUT
from metricdiff.wording import plural

if TYPE_CHECKING:
    from metricdiff.scoring.cache import ScoreCache

EXIT_USAGE = 2
EXIT_IMPLEMENTATION_FAILED = 1
#: What a shell reports for a process ended by SIGINT (128 + 2), kept for Ctrl-C.
EXIT_INTERRUPTED = 130
#: ... and by SIGTERM (128 + 15), kept when metricdiff handles it.
EXIT_TERMINATED = 143

#: ``add_subparsers()``'s return value; argparse does not export its type.
Commands = Any


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> Any:
        self.exit(EXIT_USAGE, f"metricdiff: error: {message}\n")


def seconds(text: str) -> float:
    """An option's value as a number of seconds greater than 0 and at most
    ``limits.MAX_SECONDS``; ``inf`` is no limit.  Anything else (``0``, ``-1``,
    ``nan``, ``1e300``, ``soon``) is a one-line usage error naming the option."""
    try:
        return limits.seconds(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` (to ``maximum``), else a
    one-line usage error naming the option."""

    def parse(text: str) -> int:
        try:
            return limits.whole_number(text, minimum, maximum)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def add_jobs(parser: argparse.ArgumentParser, default: int, help: str) -> None:
    """``--jobs N``: worker processes, 1 to ``limits.MAX_JOBS``."""
    parser.add_argument("--jobs", type=whole_number(1, limits.MAX_JOBS), default=default,
                        metavar="N", help=help)


def implementation_pair(text: str) -> tuple[str, str]:
    """``--pair A,B``: two implementations, split at the one comma outside the
    brackets of their settings (``rouge-score[stemmer=porter-nltk],rouge155``);
    anything else is a one-line usage error naming the option."""
    depth, commas = 0, []
    for place, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            commas.append(place)
    if len(commas) == 1:
        a, b = text[:commas[0]].strip(), text[commas[0] + 1:].strip()
        if a and b and a != b:
            return a, b
    raise argparse.ArgumentTypeError(
        f"must be two different implementations joined by a comma (A,B), not {text!r}")


def add_pair_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--pair", action="append", default=[], type=implementation_pair,
                        metavar="A,B", help=f"split the gap between A and B too ({what}); "
                        "repeatable")


def add_progress_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help=f"a progress line on stderr while {what}: the phase, done / "
                        "total and the time left (default: when stderr is a terminal)")


def parse_overrides(pairs: Sequence[str]) -> dict[str, str]:
    """``-o axis=value`` options as a mapping."""
    overrides = {}
    for pair in pairs:
        axis, sep, value = pair.partition("=")
        if not sep:
            raise ConventionError(f"-o {pair!r}: expected AXIS=VALUE")
        overrides[axis.strip()] = value
    return overrides


def available_adapter(spec: str, metric: str) -> AnyAdapter:
    """The implementation ``--impl SPEC`` names, for ``metric`` (``resolve``), or a
    one-line error saying why it cannot run."""
    adapter = resolve(spec, metric)
    adapter.ensure_available()
    return adapter


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
        raise OutputError(f"{option} {path}: cannot create the folder ({why})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{option} {path}: cannot write into the folder (permission denied)")
    return folder


def add_fixtures_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--fixtures [DIR]``: DIR, or with no DIR the bundled cases (``""``), which
    is how to add them to a command's other inputs without naming where they are."""
    parser.add_argument("--fixtures", nargs="?", const="", metavar="DIR", help=help)


def add_input_options(parser: argparse.ArgumentParser, use: str = "") -> None:
    """The options that name a corpus: ``--hyp FILE --ref FILE...``, or ``--jsonl
    FILE`` with ``--hyp-field``/``--ref-field``.  ``use`` ends the group's
    description: what the command does with the corpus."""
    from metricdiff.cases.jsonl import DEFAULT_HYP_FIELD, DEFAULT_REF_FIELD

    group = parser.add_argument_group(
        "input", "your corpus: --hyp and --ref files, or one --jsonl file (docs/inputs.md)"
        + use,
    )
    group.add_argument("--hyp", metavar="FILE", help="hypotheses, one segment per line "
                       "('-' = stdin); for ROUGE a literal \\n separates a segment's "
                       "sentences and \\\\n is a backslash followed by n")
    group.add_argument("--ref", metavar="FILE", action="append", default=[],
                       help="references, one per line, aligned with --hyp; repeat for "
                       "several per segment")
    group.add_argument("--jsonl", metavar="FILE",
                       help="instead of --hyp/--ref: one JSON object per line, e.g. "
                       f'{{"{DEFAULT_HYP_FIELD}": "...", "{DEFAULT_REF_FIELD}": ["...", "..."]}}'
                       "; sentences separated by \\n inside the strings")
    group.add_argument("--hyp-field", metavar="KEY",
                       help=f"--jsonl's key of the hypothesis (default: {DEFAULT_HYP_FIELD})")
    group.add_argument("--ref-field", metavar="KEY",
                       help=f"--jsonl's key of the references, a string or a list of "
                       f"strings (default: {DEFAULT_REF_FIELD})")
    add_line_limit(group)


def add_line_limit(parser: Any) -> None:
    """``--max-line-bytes N``: the longest line an input file may have
    (``limits.MAX_LINE_BYTES`` by default; ``cli.main`` applies it)."""
    parser.add_argument("--max-line-bytes", type=whole_number(1), metavar="N",
                        help="the longest line an input file may have, in bytes (default: "
                        f"{limits.MAX_LINE_BYTES}, about 150,000 words; docs/inputs.md)")


def input_given(args: argparse.Namespace) -> bool:
    """Whether the options of ``add_input_options`` name a corpus (checked:
    ``--hyp`` with ``--jsonl``, ``--hyp`` without ``--ref`` and the like are
    one-line errors)."""
    if args.jsonl is not None and (args.hyp is not None or args.ref):
        raise InputError(f"{args.jsonl}:0: --jsonl replaces --hyp and --ref; give one or "
                         "the other")
    for option in ("hyp_field", "ref_field"):
        if getattr(args, option) is not None and args.jsonl is None:
            raise InputError(f"--{option.replace('_', '-')} names a key of --jsonl's "
                             "objects; give --jsonl FILE")
    if args.hyp is not None and not args.ref:
        raise InputError(f"{args.hyp}:0: --hyp needs at least one --ref")
    if args.ref and args.hyp is None:
        raise InputError(f"{args.ref[0]}:0: --ref needs --hyp (the hypotheses)")
    return args.jsonl is not None or args.hyp is not None


def read_input(args: argparse.Namespace) -> Case:
    """The corpus the input options name, read and checked; a one-line error
    naming the file and line if it cannot be, or if none is named."""
    return stream_input(args).case()


def stream_input(args: argparse.Namespace) -> CorpusStream:
    """The corpus the input options name, to be read one segment at a time
    (``CorpusStream``: files that do not line up are found at the end)."""
    if not input_given(args):
        raise InputError("no input: give --hyp FILE --ref FILE, or --jsonl FILE")
    if args.jsonl is not None:
        from metricdiff.cases.jsonl import DEFAULT_HYP_FIELD, DEFAULT_REF_FIELD, stream_jsonl

        return stream_jsonl(args.jsonl, args.hyp_field or DEFAULT_HYP_FIELD,
                            args.ref_field or DEFAULT_REF_FIELD)
    return stream_corpus(args.hyp, args.ref)


def input_name(args: argparse.Namespace) -> str:
    """The file a corpus's segments are named after (``hyp.txt:3``, ``data.jsonl:3``)."""
    return str(args.jsonl if args.jsonl is not None else args.hyp)


def fixtures_folder(given: str | None) -> Path:
    """The ``--fixtures`` folder, checked to hold fixture files (FixtureError, one
    line naming it, if not); by default (None, or ``--fixtures`` without DIR)
    the fixtures that ship with metricdiff."""
    if given:
        root = Path(given)
        check_fixture_folder(root)
        return root
    root = bundled.fixtures_folder()
    try:
        check_fixture_folder(root)
    except FixtureError as error:
        raise FixtureError(
            f"{error} (the bundled fixtures are missing from this installation of "
            "metricdiff: reinstall it, or give --fixtures DIR)"
        ) from None
    return root


def add_timeout(parser: argparse.ArgumentParser) -> None:
    """``--timeout``: how long an implementation may take on one batch of cases
    before its worker process is stopped (scoring.DEFAULT_TIMEOUT by default)."""
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help="seconds an implementation may take on one batch of cases "
                        f"before it is stopped and its cases count as a timeout (default: "
                        f"{DEFAULT_TIMEOUT:g}; inf: no limit)")


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """``--cache DIR``: keep the peers' answers in DIR and give them again
    (``scoring/cache.py``); off unless given."""
    parser.add_argument("--cache", metavar="DIR",
                        help="keep every peer's scores in DIR/scores.sqlite and reuse them "
                        "on the same text, implementation, version and profile, instead of "
                        "running the peer again (off by default; docs/cache.md)")


@contextlib.contextmanager
def score_cache(args: argparse.Namespace, what: str) -> Iterator[ScoreCache | None]:
    """The ``--cache`` of ``args`` active within the block (None without it);
    at its end a line on stderr says how many peer scores came from it."""
    from metricdiff.scoring.cache import ScoreCache, using

    if not getattr(args, "cache", None):
        yield None
        return
    cache = ScoreCache(Path(args.cache))
    with using(cache):
        yield cache
    print(f"{what}: {cache.counts.describe(cache.folder)}", file=sys.stderr)


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


__all__ = [
    "EXIT_IMPLEMENTATION_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "EXIT_USAGE",
    "Commands",
    "Parser",
    "add_cache_option",
    "add_fixtures_option",
    "add_input_options",
    "add_jobs",
    "add_line_limit",
    "add_pair_option",
    "add_progress_option",
    "add_timeout",
    "available_adapter",
    "computes",
    "fixtures_folder",
    "implementation_pair",
    "input_given",
    "input_name",
    "isatty",
    "output_folder",
    "parse_overrides",
    "plural",
    "read_input",
    "score_cache",
    "seconds",
    "stream_input",
    "whole_number",
]

"""``metricdiff snapshot``: record every score of some implementations in a lock file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from metricdiff.cases import bundled
from metricdiff.cli._common import (
    Commands,
    add_fixtures_option,
    add_input_options,
    add_timeout,
    input_given,
    plural,
)
from metricdiff.errors import ConventionError, ImplementationFailed, InputError, OutputError
from metricdiff.profiles.metrics import METRICS

if TYPE_CHECKING:
    from metricdiff.cases.case import Case
    from metricdiff.locks.snapshot import InputFile

#: Metrics scored on the user's files when none is named: BLEU and every ROUGE
#: variant, as ``metricdiff audit`` does (ROUGE-N with n = 1 and 2).
DEFAULT_CORPUS_METRICS = (
    "bleu", "rouge-1", "rouge-2", "rouge-l", "rouge-lsum", "rouge-w", "rouge-s", "rouge-su",
)


def _why_empty(
    wanted: Sequence[str] | None, metrics: Sequence[str], names: Sequence[str],
    usable: Collection[str], unavailable: Mapping[str, str],
) -> str:
    """Why there is nothing to score: no case (``wanted``: the --metric given),
    every implementation skipped, or none left that implements the cases' metrics."""
    if not metrics:
        kept = f"; --metric kept only {', '.join(wanted)}" if wanted else ""
        return f"no case to score (reject_ fixture cases are not locked{kept})"
    if unavailable and not usable:
        return f"every implementation was skipped ({', '.join(sorted(unavailable))})"
    offered = sorted(usable) if usable else names
    return f"none of {', '.join(offered)} implements {', '.join(metrics)}"


def _checked(specs: Sequence[str], metrics: Sequence[str]) -> list[str]:
    """The specs, each written canonically and once; a setting an implementation
    cannot honour on a metric it computes is a one-line error before anything is
    scored (an unknown name is skipped, with its reason, as ever)."""
    from metricdiff.impls import computes, resolve
    from metricdiff.impls.settings import parse_spec

    canonical = list(dict.fromkeys(parse_spec(spec).text for spec in specs))
    for spec in canonical:
        if not parse_spec(spec).settings:
            continue
        for metric in metrics:
            try:
                takes_part = computes(spec, metric)
            except ConventionError:  # an unknown name: skipped below
                break
            if takes_part:
                resolve(spec, metric)
    return canonical


def _user_cases(
    args: argparse.Namespace, lock_dir: Path
) -> tuple[list[Case], list[InputFile]]:
    """The cases of the user's --hyp/--ref or --jsonl files, and those files as
    the lock records them."""
    from metricdiff.cases.jsonl import DEFAULT_HYP_FIELD, DEFAULT_REF_FIELD
    from metricdiff.locks import snapshot

    # The cases first: they refuse standard input, which no digest can record.
    if args.jsonl is None:
        cases = snapshot.corpus_cases(args.hyp, args.ref)
        files = [snapshot.input_file("hyp", Path(args.hyp), lock_dir)]
        files += [snapshot.input_file("ref", Path(ref), lock_dir) for ref in args.ref]
        return cases, files
    fields = (args.hyp_field or DEFAULT_HYP_FIELD, args.ref_field or DEFAULT_REF_FIELD)
    cases = snapshot.jsonl_cases(args.jsonl, *fields)
    return cases, [snapshot.input_file("jsonl", Path(args.jsonl), lock_dir, fields)]


def run(args: argparse.Namespace) -> int:
    from metricdiff.impls import adapter_names
    from metricdiff.locks import snapshot

    out = Path(args.out)
    user_input = input_given(args)
    # Before anything else: a lock that cannot be written must not cost the scoring.
    snapshot.check_writable(out)
    use_fixtures = args.fixtures is not None or not user_input
    # Read every input before scoring anything: bad input stops the run at once.
    cases: list[tuple[Case, str]] = []
    inputs: list[snapshot.InputFile] = []
    if use_fixtures:
        given = Path(args.fixtures) if args.fixtures else bundled.fixtures_folder()
        files = snapshot.fixture_files(given)
        cases += [(case, metric) for case, metric in snapshot.fixture_cases(files)
                  if not args.metric or metric in args.metric]
        inputs += [snapshot.input_file("fixture", path, out.parent) for path in files]
    if user_input:
        corpus_metrics = args.metric or DEFAULT_CORPUS_METRICS
        found, user_files = _user_cases(args, out.parent)
        cases += [(case, metric) for case in found for metric in corpus_metrics]
        inputs += user_files
    metrics = sorted({metric for _, metric in cases}, key=METRICS.index)
    names = _checked(args.impl, metrics) if args.impl else adapter_names()
    impls, unavailable = snapshot.implementations(names, metrics, snapshot.default_lookup)
    for reason in unavailable.values():
        print(f"skipped {reason}", file=sys.stderr)
    jobs = snapshot.plan(cases, impls)
    if not jobs:
        # A lock without scores would verify as "all 0 scores reproduce".
        why = _why_empty(args.metric, metrics, names, impls, unavailable)
        raise InputError(f"{out}:0: no lock written: {why}")
    for item in inputs:
        if Path(item.path).is_absolute():  # see locks/trust.py
            print(f"metricdiff: warning: {item.path} is outside the lock's folder: the lock "
                  "records its absolute path, which `metricdiff verify` reads only with "
                  "--allow-outside; keep inputs next to the lock to avoid it",
                  file=sys.stderr)
    scores = snapshot.score(jobs, impls, timeout=args.timeout)
    for failure in scores.refused:
        print(failure.line("refused") + " (not written into the lock)", file=sys.stderr)
    entries = scores.entries
    if not entries:
        raise ImplementationFailed(f"{out}:0: no lock written: every score was refused "
                                   "(above); fix the implementation or leave it out (--impl)")
    try:
        snapshot.write(snapshot.make_lock(entries, impls, inputs), out)
    except OSError as error:  # checked writable above, but a disk can still fill up
        raise OutputError(f"{out}:0: cannot write the lock: {error.strerror or error}") from None
    errors = sum(entry.error is not None for entry in entries)
    refused = f", {len(scores.refused)} refused" if scores.refused else ""
    print(
        f"wrote {out}: {plural(len(entries), 'score')} ({errors} raised{refused}), "
        f"{plural(len({e.case for e in entries}), 'case')}, "
        f"implementations: {', '.join(sorted(impls))}"
    )
    return 0


def register(commands: Commands) -> None:
    snap = commands.add_parser(
        "snapshot", help="record every score in a lock file that `verify` can check later",
        description="Score the fixture cases or your files with every implementation and "
        "write the scores to a lock file. Every implementation but the reference runs in a "
        "worker process: a score whose process dies, hangs past --timeout or returns an "
        "invalid result (NaN, a ratio above 1) is refused, one line on stderr, and not "
        "written; an exception the implementation raises is recorded (verify checks that "
        "it still raises). Exit status 0 when the lock is written, 1 when every score was "
        "refused, 2 for bad input.",
    )
    snap.add_argument("--out", required=True, help="the lock file to write, e.g. scores.lock")
    add_fixtures_option(snap, "fixture folder: each case under its own metric and each "
                        "implementation's default profile (default, or without DIR: the "
                        "fixtures that ship with metricdiff; used unless --hyp or --jsonl "
                        "is given alone)")
    add_input_options(snap, ": each segment and the whole corpus are scored")
    snap.add_argument("--impl", action="append",
                      help="this implementation (repeatable; default: every available one), "
                      "with settings if any: 'rouge-score[stemmer=porter-nltk]'; the lock "
                      "records them and verify applies them again")
    snap.add_argument("--metric", action="append", choices=METRICS,
                      help="this metric (repeatable; fixtures: only cases of these metrics; "
                      "your files: default bleu and every ROUGE)")
    add_timeout(snap)
    snap.set_defaults(run=run)

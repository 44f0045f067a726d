"""``metricdiff check``: every implementation against the fixtures' expectations."""

from __future__ import annotations

import argparse
import sys

from metricdiff.cases.fixtures import bundled_cases, load_all
from metricdiff.cli._common import (
    Commands,
    add_fixtures_option,
    add_timeout,
    fixtures_folder,
    output_folder,
    plural,
)
from metricdiff.errors import OutputError
from metricdiff.impls import AnyAdapter, adapter_for_family, adapter_names, families_of


def run(args: argparse.Namespace) -> int:
    from metricdiff.comparison.expectations import run_cases
    from metricdiff.reports.check import departure_lines, problem_lines, write_reports

    names = args.impl or adapter_names()
    # Everything that can be wrong with the command line, before anything runs.
    for name in names:
        families_of(name)  # an unknown name
    folder = fixtures_folder(args.fixtures)  # a missing or empty folder is an error
    # By default the specs' worked examples are checked too: the papers' own numbers.
    cases = load_all(folder) if args.fixtures else bundled_cases()
    out = output_folder(args.out) if args.out else None
    adapters: list[AnyAdapter] = []
    for name in names:
        for adapter_family in families_of(name):
            adapter = adapter_for_family(name, adapter_family)
            reason = adapter.unavailable_reason()
            if reason is None:
                adapters.append(adapter)
            else:
                print(f"skipped {reason}", file=sys.stderr)
    outcomes = run_cases(cases, adapters, timeout=args.timeout)
    impls = list(dict.fromkeys(adapter.name for adapter in adapters))
    signatures = {
        f"{a.name} ({a.family})": a.signature(
            a.declared.metrics[0], a.default_options(a.declared.metrics[0])
        )
        for a in adapters
    }
    written = []
    if out is not None:
        try:
            written = write_reports(out, outcomes, impls, signatures)
        except OSError as error:  # a full disk: the previous check.md and check.json stay
            raise OutputError(f"--out {out}: cannot write check.md and check.json: "
                              f"{error.strerror or error}") from None
    found = problem_lines(outcomes)
    for line in found:
        print(line)
    departing = departure_lines(outcomes)
    if departing:
        print(f"not failures: {plural(len(departing), 'must_ case')} missed by a convention "
              "the implementation declares (the reference configured as it gives its result):")
        for line in departing:
            print(f"  {line}")
    print(
        f"{plural(len(cases), 'case')}, {plural(len(impls), 'implementation')}, "
        f"{plural(len(outcomes), 'outcome')}, {plural(len(found), 'problem')}, "
        f"{plural(len(departing), 'declared departure')}"
        + (f"; wrote {', '.join(str(p) for p in written)}" if written else "")
    )
    # A failure, an accepted reject_ case or a crash is a problem of an
    # implementation: status 1, as a test runner's.  ``make report`` goes on.
    return 1 if found else 0


def register(commands: Commands) -> None:
    check = commands.add_parser(
        "check", help="every implementation against the fixtures' expected values (exit "
        "status 1 on a problem)",
        description="Run every implementation on the fixture cases and compare each "
        "result with the case's expected values; with --out, write check.md and "
        "check.json. Every implementation but the reference runs in a worker process: "
        "one that raises, dies, hangs past --timeout or returns an invalid result (NaN, "
        "a ratio above 1) is a crash outcome of that case. A must_ case missed by a "
        "convention the implementation declares (sacrebleu's smoothing=exp on a case "
        "the paper scores 0) is 'departs', listed apart: no failure. "
        "The exit status is 1 when a FAIL, ACCEPTED or crash line is printed, 0 "
        "otherwise; 2 for bad input (an unknown implementation, a missing or malformed "
        "fixture folder, an --out folder that cannot be created).",
    )
    add_fixtures_option(check, "folder of fixture files (default, or without DIR: the cases "
                        "that ship with metricdiff: its fixture files and the specs' worked "
                        "examples)")
    check.add_argument("--impl", action="append", help="only these implementations")
    check.add_argument("--out", metavar="DIR", help="write check.md and check.json into DIR "
                       "(default: write nothing)")
    add_timeout(check)
    check.set_defaults(run=run)

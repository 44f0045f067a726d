"""``metricdiff check``: every implementation against the fixtures' expectations."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from metricdiff.adapters import AnyAdapter, adapter_for_family, adapter_names, families_of
from metricdiff.cli._common import Commands
from metricdiff.fixtures import load_all


def run(args: argparse.Namespace) -> int:
    from metricdiff.reports.check import problems, write_reports
    from metricdiff.runner import run_cases

    names = args.impl or adapter_names()
    adapters: list[AnyAdapter] = []
    for name in names:
        for adapter_family in families_of(name):
            adapter = adapter_for_family(name, adapter_family)
            reason = adapter.unavailable_reason()
            if reason is None:
                adapters.append(adapter)
            else:
                print(f"skipped {reason}", file=sys.stderr)
    cases = load_all(Path(args.fixtures))
    outcomes = run_cases(cases, adapters)
    impls = list(dict.fromkeys(adapter.name for adapter in adapters))
    signatures = {
        f"{a.name} ({a.family})": a.signature(
            a.metrics[0], a.default_options(a.metrics[0])
        )
        for a in adapters
    }
    written = write_reports(Path(args.out), outcomes, impls, signatures)
    found = problems(outcomes)
    for outcome in found:
        print(f"{outcome.status}: {outcome.impl} on {outcome.case_id}: {outcome.detail}")
    print(
        f"{len(cases)} cases, {len(impls)} implementations, {len(outcomes)} outcomes, "
        f"{len(found)} problems; wrote {', '.join(str(p) for p in written)}"
    )
    return 0



def register(commands: Commands) -> None:
    check = commands.add_parser("check", help="run every implementation on the fixtures")
    check.add_argument("--fixtures", default="fixtures", help="folder of fixture files")
    check.add_argument("--impl", action="append", help="only these implementations")
    check.add_argument("--out", default="reports", help="folder for check.md and check.json")
    check.set_defaults(run=run)

"""``metricdiff report``: Markdown, HTML and JSON reports from an audit's folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from metricdiff.cli._common import Commands


def run(args: argparse.Namespace) -> int:
    from datetime import datetime, timezone

    from metricdiff.reports.audit_reports import write_reports

    stamp = (datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
             if args.timestamp else None)
    written = write_reports(Path(args.source), Path(args.out) if args.out else None, stamp)
    print(f"wrote {', '.join(str(path) for path in written)}")
    return 0


def register(commands: Commands) -> None:
    report = commands.add_parser(
        "report", help="report.md, report.html and report.json from an audit's folder"
    )
    report.add_argument("--from", dest="source", required=True, metavar="DIR",
                        help="the folder `metricdiff audit --out` wrote (audit.json, "
                        "findings.json, results.jsonl); nothing is scored again")
    report.add_argument("--out", metavar="DIR", help="write the reports here (default: the "
                        "--from folder)")
    report.add_argument("--timestamp", action="store_true",
                        help="say when the reports were made (they then differ run to run)")
    report.set_defaults(run=run)

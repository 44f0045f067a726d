"""``metricdiff impls``: every implementation, whether it can run, its default profile."""

from __future__ import annotations

import argparse
import json
from typing import Any

from metricdiff.cli._common import Commands


def run(args: argparse.Namespace) -> int:
    from metricdiff.api import implementations

    rows: list[dict[str, Any]] = [found.to_dict() for found in implementations()]
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for row in rows:
        state = "available" if row["available"] else "unavailable"
        state += f": {row['reason']}" if row["reason"] else ""
        print(f"{row['name']} {row['version']} ({', '.join(row['metrics'])}): {state}")
        for metric, profile in row["profile"].items():
            axes = " ".join(f"{axis}={value}" for axis, value in profile.items())
            print(f"  {metric}: {axes}")
    return 0



def register(commands: Commands) -> None:
    impls = commands.add_parser("impls", help="list implementations and their profiles")
    impls.add_argument("--format", choices=("text", "json"), default="text")
    impls.set_defaults(run=run)

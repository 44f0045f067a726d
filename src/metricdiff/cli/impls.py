"""``metricdiff impls``: every implementation, whether it can run, its default profile."""

from __future__ import annotations

import argparse
import json
from typing import Any

from metricdiff.cli._common import Commands
from metricdiff.implementations import adapter_for_family, adapter_names, families_of
from metricdiff.profiles import profile_of


def run(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for name in adapter_names():
        adapters = [adapter_for_family(name, f) for f in families_of(name)]
        reasons = [a.unavailable_reason() for a in adapters]
        rows.append({
            "name": name,
            "version": adapters[0].version(),
            "available": all(reason is None for reason in reasons),
            "reason": "; ".join(reason for reason in reasons if reason),
            "metrics": [metric for a in adapters for metric in a.metrics],
            "profile": {
                a.family: profile_of(a.default_options(a.metrics[0]))
                for a in adapters
            },
        })
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for row in rows:
        state = "available" if row["available"] else f"unavailable: {row['reason']}"
        print(f"{row['name']} {row['version']} ({', '.join(row['metrics'])}): {state}")
        for metric, profile in row["profile"].items():
            axes = " ".join(f"{axis}={value}" for axis, value in profile.items())
            print(f"  {metric}: {axes}")
    return 0



def register(commands: Commands) -> None:
    impls = commands.add_parser("impls", help="list implementations and their profiles")
    impls.add_argument("--format", choices=("text", "json"), default="text")
    impls.set_defaults(run=run)

"""``metricdiff impls``: every implementation, its version, its metrics, and
whether it can run here (or why not); ``--profiles`` adds its default profile."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from typing import Any

from metricdiff.cli._common import Commands

#: Width of the "here" column (available, or why not); longer reasons wrap.
WHY_WIDTH = 40
_ROUGE = re.compile(r"rouge-(\w+)")


def metrics_text(metrics: Sequence[str]) -> str:
    """``bleu, rouge-{1…9,l,lsum}``: the metrics, each run of ROUGE-N shortened."""
    rouge = [found[1] for found in map(_ROUGE.fullmatch, metrics) if found]
    others = [metric for metric in metrics if not _ROUGE.fullmatch(metric)]
    parts: list[str] = []
    for part in rouge:
        if parts and part.isdigit() and re.fullmatch(r"\d+(…\d+)?", parts[-1]) and \
                int(parts[-1].split("…")[-1]) + 1 == int(part):
            parts[-1] = f"{parts[-1].split('…')[0]}…{part}"
        else:
            parts.append(part)
    parts = [",".join(part.split("…")) if re.fullmatch(r"(\d+)…(\d+)", part) and
             int(part.split("…")[1]) - int(part.split("…")[0]) == 1 else part for part in parts]
    if len(parts) == 1 and "…" not in parts[0]:
        others.append(f"rouge-{parts[0]}")
    elif parts:
        others.append("rouge-{" + ",".join(parts) + "}")
    return ", ".join(others)


def _here(row: dict[str, Any]) -> str:
    if not row["available"]:
        why = str(row["reason"]).removeprefix(f"{row['name']}: ")
        return f"no: {why}" if why else "no"
    return "yes (its own folder)" if "(isolated" in row["version"] else "yes"


def _version(version: str) -> str:
    """The version alone (where it is loaded from is the last column's to say)."""
    return "—" if version == "not-installed" else version.split(" (")[0]


def table(rows: Sequence[dict[str, Any]]) -> str:
    """One line per implementation: name, version, metrics, whether it runs here."""
    from tabulate import tabulate

    body = [[row["name"], _version(row["version"]), metrics_text(row["metrics"]), _here(row)]
            for row in rows]
    return str(tabulate(body, ["implementation", "version", "metrics", "runs here?"],
                        tablefmt="simple", maxcolwidths=[None, None, None, WHY_WIDTH]))


def profiles(rows: Sequence[dict[str, Any]]) -> str:
    """Each implementation's line, then its default profile per metric family."""
    lines = []
    for row in rows:
        state = "available" if row["available"] else "unavailable"
        state += f": {row['reason']}" if row["reason"] else ""
        lines.append(f"{row['name']} {row['version']} ({', '.join(row['metrics'])}): {state}")
        for metric, profile in row["profile"].items():
            axes = " ".join(f"{axis}={value}" for axis, value in profile.items())
            lines.append(f"  {metric}: {axes}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from metricdiff.api import implementations

    rows: list[dict[str, Any]] = [found.to_dict() for found in implementations()]
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    print(profiles(rows) if args.profiles else table(rows))
    return 0


def register(commands: Commands) -> None:
    impls = commands.add_parser(
        "impls", help="list implementations: version, metrics, whether each runs here")
    impls.add_argument("--profiles", action="store_true",
                       help="also print each implementation's default profile, axis by axis")
    impls.add_argument("--format", choices=("text", "json"), default="text",
                       help="json: every field, profiles included")
    impls.set_defaults(run=run)

"""``metricdiff verify``: recompute a lock's scores; exit 1 if any drifted."""

from __future__ import annotations

import argparse
from pathlib import Path

from metricdiff.cli._common import Commands

EXIT_DRIFT = 1


def run(args: argparse.Namespace) -> int:
    from metricdiff.locks import snapshot

    # A malformed lock is a LockError: one line and exit status 2 (cli.main).
    verification = snapshot.verify(Path(args.lock))
    print("\n".join(verification.lines()))
    return 0 if verification.ok else EXIT_DRIFT


def register(commands: Commands) -> None:
    verify = commands.add_parser(
        "verify", help="recompute the scores of a lock file; exit 1 on any drift"
    )
    verify.add_argument("lock", help="a lock file written by `metricdiff snapshot`")
    verify.set_defaults(run=run)

"""``metricdiff verify``: recompute a lock's scores; exit 1 if any drifted."""

from __future__ import annotations

import argparse
from pathlib import Path

from metricdiff.cli._common import Commands, add_line_limit, add_timeout

EXIT_DRIFT = 1


def run(args: argparse.Namespace) -> int:
    from metricdiff.locks import snapshot
    from metricdiff.locks.trust import Trust

    trust = Trust(args.trust_lock, args.allow_outside, frozenset(args.impl))
    # A malformed lock, or one asking for more than `trust` allows, is a LockError:
    # one line and exit status 2 (cli.main).
    verification = snapshot.verify(Path(args.lock), trust=trust, timeout=args.timeout)
    print("\n".join(verification.lines()))
    return 0 if verification.ok else EXIT_DRIFT


def register(commands: Commands) -> None:
    verify = commands.add_parser(
        "verify", help="recompute the scores of a lock file; exit 1 on any drift",
        description="Recompute every score a lock file records, with the implementations "
        "installed now, and compare. Every implementation but the reference runs in a "
        "worker process: a score whose process dies, hangs past --timeout or returns an "
        "invalid result (NaN, a ratio above 1) is a failure line naming the case and the "
        "implementation. Exit status 0 when every score reproduces, 1 on a drift, a "
        "failure or a missing implementation, 2 for a malformed lock or bad input.",
    )
    verify.add_argument("lock", help="a lock file written by `metricdiff snapshot`")
    verify.add_argument("--impl", action="append", default=[], metavar="SPEC",
                        help="a python:/cmd: implementation the lock names that may run "
                        "(repeatable); built-in ones always may")
    verify.add_argument("--trust-lock", action="store_true",
                        help="run every python:/cmd: implementation the lock names: only "
                        "for a lock whose code you trust")
    verify.add_argument("--allow-outside", action="store_true",
                        help="read inputs outside the lock's folder (absolute paths, ../)")
    add_timeout(verify)
    add_line_limit(verify)
    verify.set_defaults(run=run)

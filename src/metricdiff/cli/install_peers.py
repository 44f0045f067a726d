"""``metricdiff install-peers``: the peers that need a folder of their own, installed.

pltrdy's ``rouge`` and py-rouge both install a top-level package named ``rouge``,
so pip cannot put them into one environment; each goes into its own folder under
the peers directory, where ``impls/peers/_isolated.py`` loads it from
(``METRICDIFF_PEERS_DIR``, else ``<venv>/metricdiff-peers``, else the per-user
cache).  Each is pinned to the version metricdiff's adapter was written against.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

from metricdiff.cli._common import EXIT_IMPLEMENTATION_FAILED, Commands
from metricdiff.impls.peers import _isolated


def run(args: argparse.Namespace) -> int:
    unknown = [name for name in args.names if name not in _isolated.PEERS]
    if unknown:
        args.parser.error(f"unknown peer {', '.join(unknown)} "
                          f"(these need a folder of their own: {', '.join(_isolated.PEERS)})")
    names = list(dict.fromkeys(args.names)) or list(_isolated.PEERS)
    root = (Path(args.dir).expanduser() if args.dir else _isolated.peers_dir()).resolve()
    for name in names:
        peer = _isolated.PEERS[name]
        target = root / peer.name
        if not args.force and _isolated.installed_version(name, root) == peer.version:
            print(f"{name}: {peer.requirement} already in {target}")
            continue
        command = _isolated.pip_command(name, root)
        print(f"{name}: {'would install' if args.dry_run else 'installing'} "
              f"{peer.requirement} into {target}: {shlex.join(command)}", flush=True)
        if args.dry_run:
            continue
        try:
            _isolated.install(name, root, command)
        except (OSError, subprocess.CalledProcessError) as error:
            why = f"exit status {error.returncode}" if isinstance(
                error, subprocess.CalledProcessError) else str(error)
            print(f"metricdiff: error: {name}: pip could not install {peer.requirement} "
                  f"into {target} ({why}; pip's message is above); retry with --force",
                  file=sys.stderr)
            return EXIT_IMPLEMENTATION_FAILED
        print(f"{name}: {peer.requirement} installed")
    if root != _isolated.peers_dir().resolve():
        print(f"metricdiff looks in {_isolated.peers_dir()}: set "
              f"{_isolated.ENV_VAR}={root} for it to load these")
    elif not args.dry_run:
        _say_what_is_still_missing(names)
    return 0


def _say_what_is_still_missing(names: list[str]) -> None:
    """The peers' own dependencies (``six``, ``nltk``) come from the main
    environment: say so when one is missing there."""
    from metricdiff.impls import adapter_for_family, families_of

    for name in names:
        # A peer is ready when it runs for its first family (BLEU-only peers have no ROUGE).
        reason = adapter_for_family(name, families_of(name)[0]).unavailable_reason()
        print(f"{name}: ready" if reason is None else f"{name}: not usable yet: {reason}")


def register(commands: Commands) -> None:
    parser = commands.add_parser(
        "install-peers",
        help="install the peers that need a folder of their own (pltrdy rouge, "
        "py-rouge, sacrerouge, jury)",
        description="pip-install pltrdy's rouge and py-rouge, which both install a package "
        "named 'rouge', each into its own folder under the peers directory "
        f"(${_isolated.ENV_VAR}, else <venv>/metricdiff-peers, else "
        "~/.cache/metricdiff/peers), at the versions metricdiff's adapters pin. A peer "
        "already there at that version is left alone. Their dependencies (six, nltk) "
        "come from this environment: pip install 'metricdiff[rouge]'. sacrerouge and jury, whose "
        "pins clash with this environment, get the modules they import beside them.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"only these peers (default: {', '.join(_isolated.PEERS)})")
    parser.add_argument("--dir", help="install under this peers directory instead "
                        f"(metricdiff loads from it when ${_isolated.ENV_VAR} names it)")
    parser.add_argument("--force", action="store_true", help="reinstall what is there")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the pip commands, install nothing")
    parser.set_defaults(run=run, parser=parser)

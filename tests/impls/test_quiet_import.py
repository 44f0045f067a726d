"""A peer that prints while it is imported cannot reach standard output: what it
prints becomes one ``MetricdiffWarning`` (on the command line, a line on stderr),
so ``--format json`` stays JSON.

The printed line is the one jury's environment printed in the wild: a dependency's
lazy loader (huggingface_hub's ``__getattr__``) prints ``Error importing
huggingface_hub.hf_api: ...`` and raises.  The fake peers here print it
themselves; nothing else about them matters.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

import metricdiff.impls as adapters
from helpers import run
from metricdiff.errors import MetricdiffWarning
from metricdiff.impls.declarations import Isolated
from metricdiff.impls.peers import _isolated
from metricdiff.impls.quiet_import import MAX_SAID, import_quietly, output_captured

PRINTED = "Error importing huggingface_hub.hf_api: No module named 'requests'"

#: A third-party adapter (an entry point) whose library prints and then fails to
#: import, and one whose library prints and imports.
PLUGIN = '''
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter
from metricdiff.impls.declarations import Package


class ChattyBroken(ReferenceBleuAdapter):
    name = "md-chatty-broken"
    package = Package(modules=("md_chatty_broken_lib",))


class ChattyFine(ReferenceBleuAdapter):
    name = "md-chatty-fine"
    package = Package(modules=("md_chatty_fine_lib",))
'''


def install_chatty_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plugin module, its two libraries and a ``.dist-info`` with its entry
    points, on ``sys.path``."""
    (tmp_path / "md_chatty_plugin.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "md_chatty_broken_lib.py").write_text(
        f"print({PRINTED!r})\nimport md_no_such_module_at_all\n", encoding="utf-8")
    (tmp_path / "md_chatty_fine_lib.py").write_text(
        "print('loading the model...')\nprint('done')\n", encoding="utf-8")
    info = tmp_path / "md_chatty-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: md-chatty\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent("""
        [metricdiff.adapters]
        md-chatty-broken = md_chatty_plugin:ChattyBroken
        md-chatty-fine = md_chatty_plugin:ChattyFine
    """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("md_chatty_plugin", "md_chatty_broken_lib", "md_chatty_fine_lib"):
        monkeypatch.delitem(sys.modules, name, raising=False)  # imported afresh
    adapters._load_plugin.cache_clear()


def test_impls_json_stays_json_when_a_peer_prints_at_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_chatty_plugins(tmp_path, monkeypatch)
    status, out, err = run(capsys, "impls", "--format", "json")
    assert status == 0
    listed = {entry["name"]: entry for entry in json.loads(out)}  # stdout is JSON alone
    assert not listed["md-chatty-broken"]["available"]
    assert "cannot import md_chatty_broken_lib" in listed["md-chatty-broken"]["reason"]
    assert listed["md-chatty-fine"]["available"]
    # What each printed, once, on stderr, as the command line shows a warning.
    assert f"metricdiff: warning: importing md_chatty_broken_lib printed: {PRINTED}\n" in err
    assert ("metricdiff: warning: importing md_chatty_fine_lib printed: loading the model... "
            "done\n") in err
    assert PRINTED not in out


def test_the_library_warns_and_prints_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_chatty_plugins(tmp_path, monkeypatch)
    with pytest.warns(MetricdiffWarning, match="importing md_chatty_fine_lib printed: "
                                               r"loading the model\.\.\. done"):
        import_quietly("md_chatty_fine_lib")
    assert capsys.readouterr() == ("", "")


def test_what_the_import_raises_is_raised_after_the_warning(
    capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.warns(MetricdiffWarning, match="importing x printed: before"), \
            pytest.raises(ImportError, match="no such thing"), output_captured("x"):
        print("before")
        raise ImportError("no such thing")
    assert capsys.readouterr().out == ""


def test_a_quiet_import_warns_nothing_and_a_long_print_is_cut(
    capsys: pytest.CaptureFixture[str]
) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning would raise here
        import_quietly("json")
    with pytest.warns(MetricdiffWarning) as warned, output_captured("y"):
        print("z" * 1000)
    [message] = [str(w.message) for w in warned]
    assert message == "importing y printed: " + "z" * (MAX_SAID - 1) + "…"
    assert capsys.readouterr().out == ""


def test_an_isolated_peer_that_prints_at_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A peer installed in a folder of its own (as install-peers lays it out: the
    # package and its distribution's metadata) whose package prints when loaded.
    folder = tmp_path / "peers" / "md-chatty-isolated"
    (folder / "md_chatty_pkg").mkdir(parents=True)
    (folder / "md_chatty_pkg" / "__init__.py").write_text(f"print({PRINTED!r})\nVALUE = 1\n",
                                                          encoding="utf-8")
    info = folder / "md_chatty_pkg-2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: md-chatty-pkg\nVersion: 2.0\n",
                                   encoding="utf-8")
    monkeypatch.setenv(_isolated.ENV_VAR, str(tmp_path / "peers"))
    peer = Isolated("md-chatty-isolated", "md-chatty-pkg", "2.0", "md_chatty_pkg")
    monkeypatch.delitem(_isolated._LOADED, peer.name, raising=False)
    with pytest.warns(MetricdiffWarning, match=f"importing md_chatty_pkg printed: {PRINTED}"):
        loaded = _isolated.load(peer)
    monkeypatch.delitem(_isolated._LOADED, peer.name)
    assert loaded.module.VALUE == 1 and loaded.version == "2.0"
    assert capsys.readouterr().out == ""

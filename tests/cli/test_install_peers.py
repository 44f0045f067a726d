"""``metricdiff install-peers``: the pinned pip commands, a peer already there left
alone, an unknown name refused.  Nothing is installed (``--dry-run``, or a folder
that already holds the peer's metadata)."""

from __future__ import annotations

import re

import pytest

from helpers import ROOT
from metricdiff.cli import main
from metricdiff.impls import isolated_peers
from metricdiff.impls.peers import _isolated


def installed_here(root, folder, distribution, version):
    """A folder that looks, to importlib.metadata, like pip put ``distribution``
    there: its dist-info with the two fields a version lookup reads."""
    info = root / folder / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\n"
                                   f"Version: {version}\n", encoding="utf-8")


def test_install_peers_prints_pinned_pip_commands(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv(_isolated.ENV_VAR, str(tmp_path))
    status = main(["install-peers", "--dry-run"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    # The pins of pyproject's `rouge` comment and the PyPI names: rouge 1.0.1 is
    # pltrdy's, py-rouge 1.1 Antognini's; each into its own folder, no dependencies.
    assert out[0].startswith(f"rouge-pltrdy: would install rouge==1.0.1 into "
                             f"{tmp_path / 'rouge-pltrdy'}: ")
    assert out[0].endswith(f" -m pip install --quiet --no-deps --target "
                           f"{tmp_path / 'rouge-pltrdy'} rouge==1.0.1")
    assert out[1].startswith(f"py-rouge: would install py-rouge==1.1 into {tmp_path / 'py-rouge'}")
    assert f"--target {tmp_path / 'py-rouge'} py-rouge==1.1" in out[1]
    # sacrerouge 0.2.5 with what importing it needs (its METADATA pins overrides==3.1.0)
    assert (f"--target {tmp_path / 'sacrerouge'} sacrerouge==0.2.5 overrides==3.1.0 "
            "googledrivedownloader==0.4 jsons==1.6.3 typish==1.9.3") in "\n".join(out)
    assert f"--target {tmp_path / 'jury'} jury==2.3.1 evaluate==0.4.6" in "\n".join(out)
    # nmtpytorch 4.0.0 for the copy of multi-bleu.perl it ships (peers/multi_bleu.py).
    assert f"--target {tmp_path / 'multi-bleu'} nmtpytorch==4.0.0" in "\n".join(out)
    assert len(out) == len(isolated_peers()) and not any(tmp_path.iterdir())  # nothing installed


def test_install_peers_leaves_what_is_there_and_says_where_it_looks(
    capsys, monkeypatch, tmp_path
):
    looked_in = tmp_path / "default"
    monkeypatch.setenv(_isolated.ENV_VAR, str(looked_in))
    other = tmp_path / "other"
    installed_here(other, "py-rouge", "py-rouge", "1.1")
    status = main(["install-peers", "py-rouge", "--dir", str(other)])
    assert status == 0
    assert capsys.readouterr().out.splitlines() == [
        f"py-rouge: py-rouge==1.1 already in {other / 'py-rouge'}",
        f"metricdiff looks in {looked_in}: set {_isolated.ENV_VAR}={other} for it to "
        "load these",
    ]


def test_install_peers_refuses_an_unknown_peer(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["install-peers", "rouge-score"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown peer rouge-score" in err
    assert "rouge-pltrdy, py-rouge" in err


def test_help_and_docs_name_every_isolated_peer(capsys):
    # The names come from the adapters' Package.isolated alone: --help lists each,
    # and docs/commands/install-peers.md's NAME option names each, no more.
    names = list(isolated_peers())
    assert len(names) == 8
    with pytest.raises(SystemExit):
        main(["install-peers", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"(default: {', '.join(names)})" in shown
    page = (ROOT / "docs" / "commands" / "install-peers.md").read_text(encoding="utf-8")
    option = " ".join(page.split("- `NAME` — ", 1)[1].split("; default all")[0].split())
    assert re.findall(r"`([\w-]+)`", option) == names

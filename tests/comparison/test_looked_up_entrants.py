"""``compare`` of every available implementation looks each one up instead of
importing it in its own process (``Adapter.installed_reason``): its workers
import the peers anyway, and compare-mt's import alone (matplotlib) cost its
process half a second.  A peer that is installed but fails to import must
then sit out as one not installed does: absent from the output, never a row
of its own.

The broken peer is a third party's adapter (an entry point, as
``tests/impls/user/test_user_impls.py`` installs one): the reference under
another name, whose package needs a module that raises on import."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

import metricdiff.impls as adapters
from helpers import run
from metricdiff.impls.declarations import Package
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter

PLUGIN = '''
from metricdiff.impls.declarations import Package
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter


class BrokenBleu(ReferenceBleuAdapter):
    """The reference under another name, needing a module that cannot import."""

    name = "broken-bleu"
    package = Package(modules=("md_broken_dependency",), note="pip install nothing")
'''


def _install_broken_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "md_broken_plugin.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "md_broken_dependency.py").write_text(
        'raise ImportError("this dependency is broken on purpose")\n', encoding="utf-8")
    info = tmp_path / "md_broken_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: md-broken-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent("""
        [metricdiff.adapters]
        broken-bleu = md_broken_plugin:BrokenBleu
    """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))  # worker processes get it too
    adapters._load_plugin.cache_clear()


class _Needs(ReferenceBleuAdapter):
    name = "needs"


def test_a_module_that_is_not_there_is_found_missing_without_importing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "md_raises_on_import.py").write_text("raise ImportError('no')\n",
                                                     encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    missing, there = _Needs(), _Needs()
    missing.package = Package(modules=("md_not_installed_anywhere.sub",), note="pip install x")
    there.package = Package(modules=("md_raises_on_import",))
    assert missing.installed_reason() == (
        "needs: cannot import md_not_installed_anywhere.sub (No module named "
        "'md_not_installed_anywhere'); install: pip install x")
    # looked up, it is there; imported, it is not: the worker will say so
    assert there.installed_reason() is None
    assert there.unavailable_reason() == "needs: cannot import md_raises_on_import (no)"


def test_an_installed_peer_that_fails_to_import_sits_out_of_compare(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _install_broken_plugin(tmp_path, monkeypatch)
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\n", encoding="utf-8")
    ref.write_text("the cat sat on a mat\n", encoding="utf-8")
    status, out, err = run(capsys, "compare", "--metric", "bleu", "--hyp", hyp, "--ref", ref,
                           "--format", "json")
    assert status == 0, err
    (bleu,) = json.loads(out)
    assert "reference" in bleu["scores"] and "broken-bleu" not in bleu["scores"]
    # named, it takes part with its reason, as before: nothing named is dropped
    status, out, err = run(capsys, "compare", "--metric", "bleu", "--impl", "broken-bleu",
                           "--hyp", hyp, "--ref", ref, "--format", "json")
    assert status == 0, err
    (bleu,) = json.loads(out)
    assert bleu["scores"]["broken-bleu"]["score"] is None
    assert "cannot import md_broken_dependency" in bleu["scores"]["broken-bleu"]["error"]

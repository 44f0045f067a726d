"""``scripts/report_freshness.py``: stale exactly when what made the reports changed.

Each test builds a small project (source, fixtures, spec, reports) in a temporary
folder, writes its fingerprint, changes one thing, and reads the verdict.  The
versions the reports claim are chosen against the installed version, which is
read with ``importlib.metadata`` directly.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

import pytest

import metricdiff.impls as adapters
from metricdiff.impls.declarations import Package
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter
from report_freshness import FINGERPRINT_NAME, fingerprint, freshness


def project(root: Path, participants: dict[str, str]) -> Path:
    """A project whose reports were made by ``participants`` (name -> version)."""
    (root / "src" / "metricdiff").mkdir(parents=True)
    (root / "src" / "metricdiff" / "mod.py").write_text("X = 1\n", encoding="utf-8")
    (root / "fixtures").mkdir()
    (root / "fixtures" / "a.toml").write_text("format = 1\n", encoding="utf-8")
    (root / "spec").mkdir()
    reports = root / "reports"
    reports.mkdir()
    report = {"format": 2, "metrics": [{"metric": "bleu", "implementations": [
        {"impl": name, "version": version} for name, version in participants.items()]}]}
    (reports / "report.json").write_text(json.dumps(report), encoding="utf-8")
    lines = ["audit --generate 1", *fingerprint(root)]
    (reports / FINGERPRINT_NAME).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return reports


def test_unchanged_is_fresh(tmp_path: Path) -> None:
    from metricdiff import __version__

    reports = project(tmp_path, {"reference": __version__})
    assert freshness(tmp_path, reports).stale == []


def test_a_source_or_fixture_change_is_stale_and_named(tmp_path: Path) -> None:
    reports = project(tmp_path, {})
    (tmp_path / "src" / "metricdiff" / "mod.py").write_text("X = 2\n", encoding="utf-8")
    (tmp_path / "fixtures" / "a.toml").write_text("format = 1\n# more\n", encoding="utf-8")
    stale = freshness(tmp_path, reports).stale
    assert [line.split()[:2] for line in stale] == [
        ["was:", "source"], ["was:", "fixtures"], ["now:", "source"], ["now:", "fixtures"]]


def test_another_version_of_a_participant_is_stale(tmp_path: Path) -> None:
    pytest.importorskip("sacrebleu")
    installed = importlib.metadata.version("sacrebleu")
    reports = project(tmp_path, {"sacrebleu": "0.0.1"})
    assert freshness(tmp_path, reports).stale == [
        f"implementation sacrebleu: the reports were made with 0.0.1, {installed} is installed"]


class AbsentBleuAdapter(ReferenceBleuAdapter):
    """A peer whose distribution is not installed anywhere."""

    name = "absent"
    package = Package(distribution="no-such-distribution-metricdiff-test")

    def unavailable_reason(self) -> str | None:
        return "absent: cannot import absent (pip install absent)"


def test_a_participant_not_installed_here_is_unverifiable_not_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sys.modules[AbsentBleuAdapter.__module__]
    monkeypatch.setitem(sys.modules, "metricdiff.impls._test_absent", module)
    monkeypatch.setitem(adapters._REGISTRY, "absent", {"bleu": "_test_absent:AbsentBleuAdapter"})
    reports = project(tmp_path, {"absent": "1.0", "python:mine:bleu": "unknown"})
    found = freshness(tmp_path, reports)
    assert found.stale == []
    assert found.unverifiable[0] == (
        "absent 1.0 took part, and cannot be checked here: absent: cannot import absent "
        "(pip install absent)")
    assert found.unverifiable[1].startswith(
        "python:mine:bleu unknown took part, and cannot be checked here: a user's own")


def test_an_installed_implementation_that_did_not_take_part_changes_nothing(
    tmp_path: Path,
) -> None:
    # The reports name no participant; the reference (always installed) and every
    # available peer are there, and are no reason for staleness.
    reports = project(tmp_path, {})
    found = freshness(tmp_path, reports)
    assert found.stale == [] and found.unverifiable == []

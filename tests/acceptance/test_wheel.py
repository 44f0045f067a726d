"""The wheel stands on its own: it carries the bundled cases and no repository tooling,
and ``metricdiff check`` run from it, in an empty folder, finds the bundled cases.

The wheel is built with pip from the checkout (pip fetches hatchling for the build),
installed with ``--target`` into a temporary folder, and run by the interpreter of
these tests with that folder first on ``sys.path``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from helpers import ROOT
from metricdiff.cases.fixtures import load_all, load_spec_examples

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--wheel-dir", str(out), str(ROOT)], check=True)
    [built] = out.glob("metricdiff-*.whl")
    return built


def test_the_wheel_holds_the_bundled_cases_and_no_repository_tooling(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    fixtures = {f"metricdiff/fixtures/{path.relative_to(ROOT / 'fixtures').as_posix()}"
                for path in (ROOT / "fixtures").rglob("*.toml")}
    specs = {f"metricdiff/spec/{path.name}" for path in (ROOT / "spec").glob("*.md")}
    assert fixtures and fixtures <= names
    assert specs == {"metricdiff/spec/bleu.md", "metricdiff/spec/rouge.md"} and specs <= names
    tooling = ("tests/", "scripts/", "reports/", "benchmarks/", "docs/", "examples/", ".ci/")
    assert [name for name in names if name.startswith(tooling)] == []
    assert [name for name in names if "freshness" in name] == []
    assert {name.split("/")[0] for name in names} == {"metricdiff", wheel.name.split("-py3")[0]
                                                      + ".dist-info"}


def test_check_from_the_wheel_in_an_empty_folder_finds_the_bundled_cases(
    wheel: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(site), str(wheel)], check=True)
    empty = tmp_path / "empty"
    empty.mkdir()
    program = ("import sys, metricdiff; from metricdiff.cli import main; "
               "print(metricdiff.__file__); "
               "sys.exit(main(['check', '--impl', 'reference', '--out', 'out']))")
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, "-c", program], cwd=empty, env=env,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert Path(lines[0]).is_relative_to(site)  # the wheel's copy, not the checkout's
    # The bundled cases, read here from the checkout: the fixture files and the
    # specs' worked examples.
    cases = load_all(ROOT / "fixtures") + [
        case for spec in sorted((ROOT / "spec").glob("*.md")) for case in load_spec_examples(spec)
    ]
    assert lines[-1].startswith(f"{len(cases)} cases, 1 implementation, ")
    assert " 0 problems, 0 declared departures; wrote out/check.md, out/check.json" in lines[-1]

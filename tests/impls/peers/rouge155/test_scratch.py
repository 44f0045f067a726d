"""Where the Perl script's batch files are written (``run.scratch_folder``): a
memory file system when there is one with room, else the usual temporary
folder, and always where the user's ``TMPDIR`` says."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from metricdiff.impls.peers.rouge155 import run

CASES = [run.ScriptCase(0, ["the cat sat"], [["the cat sat on the mat"], ["a cat"]])]


@pytest.fixture
def no_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TMPDIR", "TEMP", "TMP"):
        monkeypatch.delenv(name, raising=False)


def parent_of(cases: list[run.ScriptCase]) -> Path:
    with run.scratch_folder(cases) as name:
        folder = Path(name)
        assert folder.is_dir() and folder.name.startswith("metricdiff-rouge155-")
    assert not folder.exists()  # removed after use
    return folder.parent


@pytest.mark.usefixtures("no_tmpdir")
def test_batch_files_go_to_a_memory_file_system_with_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder stands in for /dev/shm: what is checked is the choice.
    monkeypatch.setattr(run, "MEMORY_FOLDER", tmp_path)
    assert parent_of(CASES) == tmp_path


@pytest.mark.usefixtures("no_tmpdir")
def test_a_batch_too_large_or_no_memory_file_system_goes_to_the_usual_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    usual = Path(tempfile.gettempdir())
    monkeypatch.setattr(run, "MEMORY_FOLDER", tmp_path / "absent")
    assert parent_of(CASES) == usual
    monkeypatch.setattr(run, "MEMORY_FOLDER", tmp_path)
    # Three files (a page each at least) and the list: more than 4 pages.
    monkeypatch.setattr(run, "MEMORY_AT_MOST", 4 * 4096)
    assert parent_of(CASES) == usual


def test_tmpdir_is_where_the_user_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    monkeypatch.setattr(run, "MEMORY_FOLDER", tmp_path)
    monkeypatch.setenv("TMPDIR", str(chosen))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    assert parent_of(CASES) == chosen
    assert os.environ["TMPDIR"] == str(chosen)

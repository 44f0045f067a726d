"""``reports.reading``: a large ``results.jsonl`` is read in two halves at once,
the second by a forked process, and gives what reading it in one piece gives; a
malformed row is named by its line in the file, whichever half holds it.

The oracle is the bundled golden audit folder (``tests/golden/audit_small``) and
its reports (``tests/golden/report_small``), written by the audit and checked by
hand when they were made; the line numbers are counted in the file by the test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import TESTS, recorded_backgrounds
from metricdiff.errors import InputError
from metricdiff.reports import audit_reports, reading
from metricdiff.reports.reading import load_audit
from metricdiff.scoring.background import CAN_FORK, Background

GOLDEN = TESTS / "golden"
AUDIT = GOLDEN / "audit_small"
EXPECTED = GOLDEN / "report_small"

pytestmark = pytest.mark.skipif(not CAN_FORK, reason="no os.fork on this platform")


@pytest.fixture
def halved(monkeypatch: pytest.MonkeyPatch) -> list[Background[object]]:
    """Every results.jsonl counts as large: read in halves.  The forked readers
    made are listed."""
    monkeypatch.setattr(reading, "HALVES_FROM", 1)
    return recorded_backgrounds(monkeypatch, reading)


def test_a_file_read_in_halves_gives_the_reports_read_in_one_piece(
        tmp_path: Path, halved: list[Background[object]]) -> None:
    folder = tmp_path / "audit"
    shutil.copytree(AUDIT, folder)
    audit_reports.write_reports(folder)
    assert len(halved) == 1 and halved[0].forked  # the second half was read in a child
    for name in ("report.md", "report.html", "report.json", "packages.md"):
        assert (folder / name).read_bytes() == (EXPECTED / name).read_bytes(), name


def test_the_halves_split_at_a_line_and_keep_every_run(halved: list[Background[object]]
                                                         ) -> None:
    results = AUDIT / "results.jsonl"
    data = results.read_bytes()
    middle = reading._middle(results)
    assert middle is not None and 0 < middle < len(data)
    assert data[middle - 1:middle] == b"\n"  # the second half starts a line
    halves = load_audit(AUDIT)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reading, "HALVES_FROM", 1 << 60)
        whole = load_audit(AUDIT)
    for split, one in zip(halves.metrics, whole.metrics, strict=True):
        assert dict(split.runs.items()) == dict(one.runs.items())
        assert len(split.runs) > 0


@pytest.mark.parametrize("where", ["first", "second"])
def test_a_malformed_row_is_named_by_its_line_in_the_file(
        tmp_path: Path, halved: list[Background[object]], where: str) -> None:
    folder = tmp_path / "audit"
    shutil.copytree(AUDIT, folder)
    results = folder / "results.jsonl"
    lines = results.read_text(encoding="utf-8").splitlines()
    # Line 3 is in the first half; the second-to-last line in the second.
    number = 3 if where == "first" else len(lines) - 1
    lines[number - 1] = '{"metric": "bleu"}'
    results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    middle = reading._middle(results)
    assert middle is not None
    before = results.read_bytes()[:middle].count(b"\n")
    assert (number <= before) == (where == "first")
    with pytest.raises(InputError) as raised:
        load_audit(folder)
    assert str(raised.value) == (
        f"{results}:{number}: malformed result row: missing field 'impl'")
    assert [reader.pipe for reader in halved] == [None]  # no child left running


def test_a_small_file_is_read_in_one_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    size = (AUDIT / "results.jsonl").stat().st_size
    monkeypatch.setattr(reading, "HALVES_FROM", size + 1)
    assert reading._middle(AUDIT / "results.jsonl") is None


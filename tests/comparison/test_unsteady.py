"""An implementation whose score on the same input changes from run to run
(``Declared.reproducible = False``: jury's ROUGE, whose bootstrap differs from one
run to the next though seeded, docs/peers.md) is said to be so beside its
residual, in the table's notes and in a pair's sentence: its residual is no
fixed number, and a reader must not take a residual of 0.06 once and 0.12 the
next time for two findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import require_impl
from metricdiff.cli import main

UNSTEADY = "jury's own score differs from run to run on the same input"


def test_jury_s_rows_say_its_score_is_not_reproducible(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    require_impl("jury", "rouge-1")
    require_impl("rouge-score", "rouge-1")
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\nit is raining today\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\nit rains today\n", encoding="utf-8")
    status = main(["compare", "--metric", "rouge-1", "--impl", "jury", "--impl", "rouge-score",
                   "--hyp", str(hyp), "--ref", str(ref), "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0
    lines = out.splitlines()
    assert any(line.startswith(f"jury: {UNSTEADY}") for line in lines), out
    assert not any(line.startswith("rouge-score:") for line in lines), out
    pair = next(line for line in lines if line.strip().startswith("jury ") and " vs " in line)
    assert UNSTEADY in pair, out

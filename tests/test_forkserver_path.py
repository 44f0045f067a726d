"""``metricdiff.forkserver_path``: a file in the user's working folder named like
a module a peer imports is not imported in its place in the workers.

rouge-score imports absl, whose logging module imports the standard library's
``timeit``; a ``timeit.py`` in the folder metricdiff runs in used to be imported
there instead (Python 3.11's forkserver keeps ``''`` on ``sys.path``).  The
expected score is rouge-score's own, called here directly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import require_impl


def test_a_timeit_py_in_the_working_folder_is_not_imported_by_the_workers(
        tmp_path: Path) -> None:
    require_impl("rouge-score", "rouge-1")
    from rouge_score import rouge_scorer

    marker = tmp_path / "imported"
    (tmp_path / "timeit.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nraise ImportError('the user\\'s timeit.py')\n",
        encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat is on the mat\n", encoding="utf-8")
    done = subprocess.run(
        [str(Path(sys.executable).parent / "metricdiff"), "score", "--impl", "rouge-score",
         "--metric", "rouge-1", "--hyp", "hyp.txt", "--ref", "ref.txt", "--format", "json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert not marker.exists(), "the folder's timeit.py was imported"
    expected = rouge_scorer.RougeScorer(["rouge1"]).score(
        "the cat is on the mat", "the cat sat on the mat")["rouge1"].fmeasure
    assert json.loads(done.stdout)["corpus"]["fmeasure"] == expected

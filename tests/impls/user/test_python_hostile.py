"""A ``python:`` implementation, as a hostile or careless user writes one (issue
27): code that runs at import (item 7), a function that forks (item 19) or starts
a process (item 29), a ``metrics`` attribute that is no list of metrics (item
20), and results of the wrong type or outside their scale (items 22, 22b).

What runs at import is run through a real ``metricdiff`` process (``run_process``):
before, it ran in metricdiff's own process, where ``sys.exit`` ends it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers import no_sleep_left, run, run_process, sleeping

FUNCTION = "def f(hyps, refs, metric):\n    return {'score': 12.5}\n"


def project(tmp_path: Path, module: str) -> list[str]:
    """``user.py`` holding ``module``, and a one-line corpus: the score command's
    arguments, run in ``tmp_path``."""
    (tmp_path / "user.py").write_text(module, encoding="utf-8")
    (tmp_path / "h.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    return ["metricdiff", "score", "--metric", "bleu", "--impl", "python:user.py:f",
            "--hyp", "h.txt", "--ref", "h.txt"]


# -------------------------------------------------------- item 7: code at import


@pytest.mark.parametrize(("at_import", "says"), [
    ("import sys\nsys.exit(0)\n", "cannot load it (SystemExit: 0)"),
    ("class Mine(BaseException):\n    pass\nraise Mine('at import')\n",
     "cannot load it (Mine: at import)"),
    ("import os\nos._exit(3)\n", "(process died with exit code 3 while loading it)"),
])
def test_code_that_ends_the_import_is_one_line(
    tmp_path: Path, at_import: str, says: str
) -> None:
    # Before: exit status 0 and no output (sys.exit), a traceback (BaseException),
    # metricdiff itself gone with status 3 (os._exit).
    done = run_process(project(tmp_path, at_import + FUNCTION), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr


def test_a_print_at_import_stays_out_of_the_json(tmp_path: Path) -> None:
    argv = project(tmp_path, "print('hello from the import')\n" + FUNCTION)
    done = run_process([*argv, "--format", "json"], cwd=tmp_path)
    assert done.returncode == 0, done
    assert json.loads(done.stdout)["corpus"]["score"] == 12.5  # what f returns
    assert "hello from the import" in done.stderr


def test_a_hang_at_import_is_bounded_by_the_timeout(tmp_path: Path) -> None:
    argv = project(tmp_path, "import time\ntime.sleep(3600)\n" + FUNCTION)
    done = run_process([*argv, "--timeout", "2"], cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stdout) == (2, ""), done
    assert "its import did not finish within 2 s" in done.stderr, done.stderr


# ------------------------------------------------------------- item 19: a fork

FORKS = """
import os

def f(hyps, refs, metric):
    child = os.fork()
    if child == 0:
        return {"score": 99.0}  # the child returns too: its value is not the answer
    os.waitpid(child, 0)
    return {"score": 20.0}
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_function_that_forks_is_answered_by_the_parent(tmp_path: Path) -> None:
    done = run_process(project(tmp_path, FORKS), cwd=tmp_path, timeout=120)
    # The value the function's own process returns: 20 (before: the child's 99).
    assert done.returncode == 0 and done.stdout.startswith("BLEU = 20.00"), done


# ------------------------------------------- item 29: a process the function starts

STARTS = """
import subprocess

def f(hyps, refs, metric):
    subprocess.Popen(["sleep", "7782"])
    return {"score": 12.5}
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="lists processes through /proc")
def test_a_process_the_function_started_ends_with_metricdiff(tmp_path: Path) -> None:
    with no_sleep_left("7782"):
        done = run_process(project(tmp_path, STARTS), cwd=tmp_path)
        assert done.returncode == 0, done
        assert sleeping("7782") == [], "a process the function started outlived metricdiff"


# ------------------------------------------------------- item 20: f.metrics


@pytest.mark.parametrize(("declared", "says"), [
    ("5", "its metrics attribute must be a tuple of metric names, such as ('bleu',), not int"),
    ("'bleu'", "its metrics attribute is the string 'bleu'; give a tuple of metric names, "
     "such as ('bleu',)"),
    ("('bleu', 'blue')", "its metrics attribute names 'blue', which is no metric"),
])
def test_a_metrics_attribute_that_lists_no_metrics_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    declared: str, says: str,
) -> None:
    # Before: a TypeError traceback (5), "implements none of" (the letters of 'bleu').
    argv = project(tmp_path, FUNCTION + f"f.metrics = {declared}\n")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "audit", *argv[2:6], "--hyp", "h.txt", "--ref", "h.txt",
                           "--no-minimise")
    assert (status, out) == (2, "") and err.count("\n") == 1, (status, out, err)
    assert says in err, err


# ------------------------------------- items 22 and 22b: what the function returns


@pytest.mark.parametrize(("returned", "says"), [
    ("{'score': '42.5'}", "score is str '42.5', not a number"),
    ("{'score': b'42'}", "score is bytes b'42', not a number"),
    ("{'score': True}", "score is bool True, not a number"),
    ("{'score': ' 1e5 '}", "score is str ' 1e5 ', not a number"),
    ("{'score': 12.5, 'counts': [3.5, 2, 1, 0]}", "counts[0] = 3.5 is a count, and not a whole "
     "number"),
    ("{'score': 12.5, 'sys_len': 6.5}", "sys_len = 6.5 is a count, and not a whole number"),
    ("{'score': 12.5, 'bp': 7}", "bp = 7 is above 1"),
    ("{'score': 250.0}", "score = 250.0 is above 100"),
    ("{'score': 12.5, 'precisions': [101.0, 50.0, 25.0, 10.0]}",
     "precisions[0] = 101.0 is above 100"),
])
def test_a_result_of_the_wrong_type_or_scale_is_invalid_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    returned: str, says: str,
) -> None:
    # Before: coerced ("42.5" -> 42.5, True -> 1.0) or taken (250, bp 7), exit 0.
    argv = project(tmp_path, f"def f(hyps, refs, metric):\n    return {returned}\n")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv[1:])
    assert (status, out) == (1, "") and err.count("\n") == 1, (status, out, err)
    assert "returned an invalid result" in err and says in err, err


def test_a_rouge_result_above_one_is_invalid_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path, "def f(hyps, refs, metric):\n    return {'fmeasure': 45.3}\n")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "score", "--metric", "rouge-1", "--impl", "python:user.py:f",
                           "--hyp", "h.txt", "--ref", "h.txt")
    assert (status, out) == (1, "") and "fmeasure" in err, (status, out, err)


def test_numbers_of_numpy_and_whole_floats_are_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numpy")
    project(tmp_path, "import numpy\ndef f(hyps, refs, metric):\n"
            "    return {'score': numpy.float64(12.5), 'counts': [numpy.int64(6), 5.0, 4, 3],"
            " 'sys_len': 6.0}\n")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", "python:user.py:f",
                           "--hyp", "h.txt", "--ref", "h.txt")
    assert status == 0 and out.startswith("BLEU = 12.50 "), (out, err)

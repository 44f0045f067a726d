"""Where metricdiff writes (issue 27): only regular files, whole or not at all, one
run at a time per folder, and standard output that cannot take the results is one
line (items 3, 4, 10, 15, 28 and 29).

No test touches a device: a FIFO in ``tmp_path`` stands for one, and a file size
limit (``RLIMIT_FSIZE``, with SIGXFSZ ignored) for a full disk."""

from __future__ import annotations

import fcntl
import os
import resource
import signal
import stat
from pathlib import Path

import pytest

from helpers import corpus_files, file_size_limit, run, run_process

SENTENCE = "the cat sat on the mat"
PREVIOUS = "the previous, complete file\n"


def corpus(tmp_path: Path) -> list[str]:
    """Two segments, the first identical to its reference."""
    return corpus_files(tmp_path, f"{SENTENCE}\na dog ran\n", f"{SENTENCE}\nthe dog ran\n")


def is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


# --------------------------------------- item 3: nothing but a file is replaced


@pytest.mark.parametrize("linked", [False, True])
def test_snapshot_replaces_no_fifo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], linked: bool
) -> None:
    """``snapshot --out p.lock`` with p.lock a FIFO (or a symlink to one, as
    ``/dev/null`` stands for a device): refused before any scoring, the FIFO
    left as it is.  Before, the atomic rename put a regular file in its place."""
    fifo = tmp_path / ("fifo" if linked else "p.lock")
    os.mkfifo(fifo)
    out = tmp_path / "p.lock"
    if linked:
        out.symlink_to(fifo)
    status, stdout, err = run(capsys, "snapshot", "--metric", "bleu", "--impl", "reference",
                              *corpus(tmp_path), "--out", out)
    assert (status, stdout) == (2, "") and err.count("\n") == 1, (status, stdout, err)
    assert "cannot write there: it is not a regular file" in err, err
    assert is_fifo(fifo)


def test_report_replaces_no_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from helpers import TESTS

    out = tmp_path / "reports"
    out.mkdir()
    os.mkfifo(out / "report.md")
    status, stdout, err = run(capsys, "report", "--from", TESTS / "golden" / "audit_small",
                              "--out", out)
    assert (status, stdout) == (2, "") and "report.md:0: cannot write there" in err, err
    assert is_fifo(out / "report.md")
    assert sorted(p.name for p in out.iterdir()) == ["report.md"]  # no report written, no temp


def test_compare_onto_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    """Item 29: ``compare --out DIR`` with ``DIR/compare.json`` a FIFO hung, opening
    it to write; now the three files are refused together, the FIFO untouched."""
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "compare.json")
    done = run_process(["metricdiff", "compare", "--metric", "bleu", "--impl", "reference",
                        *corpus(tmp_path), "--out", out], timeout=60)
    assert done.returncode == 2 and "compare.json:0: cannot write there" in done.stderr, done
    assert is_fifo(out / "compare.json")
    assert sorted(p.name for p in out.iterdir()) == ["compare.json"]


# ------------------------------------------ item 4: compare --out, a full disk


def test_compare_on_a_full_disk_keeps_the_previous_files_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: a traceback, and a truncated compare.json beside the compare.md and
    # compare.txt of the previous run.
    out = tmp_path / "out"
    out.mkdir()
    for name in ("compare.json", "compare.md", "compare.txt"):
        (out / name).write_text(PREVIOUS, encoding="utf-8")
    with file_size_limit(200):  # smaller than compare.json, larger than PREVIOUS
        status, _stdout, err = run(capsys, "compare", "--metric", "bleu", "--impl", "reference",
                                   *corpus(tmp_path), "--out", out)
    assert status == 2 and err.count("\n") == 1, (status, err)
    assert "cannot write compare.json, compare.md, compare.txt: File too large" in err, err
    assert {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()} == dict.fromkeys(
        ["compare.json", "compare.md", "compare.txt"], PREVIOUS)


def test_check_on_a_full_disk_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 15: ``check --out`` on a full disk gave a traceback."""
    out = tmp_path / "out"
    with file_size_limit(200):
        status, _stdout, err = run(capsys, "check", "--impl", "reference", "--out", out)
    assert status == 2 and err.count("\n") == 1, (status, err)
    assert "cannot write check.md and check.json: File too large" in err, err
    assert list(out.iterdir()) == []


# --------------------------------------------- item 10: one run per folder


def test_an_audit_into_a_folder_another_run_writes_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lock is the one a running audit takes (``flock`` on the folder): held
    here, a second audit into the folder stops before scoring.  Before, both ran,
    one overwrote the other's results, and the journal got torn lines."""
    out = tmp_path / "out"
    out.mkdir()
    holder = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
        status, stdout, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                                  *corpus(tmp_path), "--no-minimise", "--out", out)
    finally:
        os.close(holder)
    assert (status, stdout) == (2, ""), (status, stdout, err)
    assert err.endswith(f"--out {out}: another metricdiff command is writing into this "
                        "folder; wait for it to finish, or give another folder\n"), err
    assert list(out.iterdir()) == []
    # Released, the folder takes the audit.
    status, _stdout, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                               *corpus(tmp_path), "--no-minimise", "--out", out)
    assert status == 0, err


# ------------------------------------- items 15 and 28: standard output itself


def test_results_to_a_full_stdout_are_one_line(tmp_path: Path) -> None:
    """Standard output a file that cannot grow (as ``/dev/full``): before, a
    traceback (or Python's own 'Exception ignored' at exit)."""
    target = tmp_path / "out.txt"

    def full_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (10, resource.RLIM_INFINITY))

    with target.open("w") as stdout:
        for command in (["score", "--metric", "bleu"],
                        ["audit", "--metric", "bleu", "--impl", "reference", "--no-minimise"]):
            done = run_process(["metricdiff", *command, *corpus(tmp_path)], timeout=120,
                               stdout_to=stdout, preexec_fn=full_disk)
            assert done.returncode == 2, done
            assert done.stderr.endswith("\nmetricdiff: error: cannot write to standard "
                                        "output: File too large\n") or done.stderr == (
                "metricdiff: error: cannot write to standard output: File too large\n"), \
                done.stderr
            assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


def test_a_closed_stdout_is_one_line(tmp_path: Path) -> None:
    """``metricdiff score ... >&-``: before, exit status 0 and nothing anywhere."""
    done = run_process(["metricdiff", "score", "--metric", "bleu", *corpus(tmp_path)],
                       preexec_fn=lambda: os.close(1))
    assert done.returncode == 2, done
    assert done.stderr == ("metricdiff: error: standard output is closed; metricdiff writes "
                           "its results there (redirect it to a file instead)\n")


def test_a_closed_stdin_is_one_line(tmp_path: Path) -> None:
    """``--hyp -`` with standard input closed (``<&-``): before, a traceback."""
    hyp = corpus(tmp_path)[1]
    done = run_process(["metricdiff", "score", "--metric", "bleu", "--hyp", "-", "--ref", hyp],
                       preexec_fn=lambda: os.close(0))
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr == ("metricdiff: error: -:0: standard input is closed; give a file "
                           "instead\n"), done.stderr

"""Reading a lock that someone else may have written (issue 27): every recorded
value is checked as a result metricdiff writes (an ``inf`` verified anything,
item 2), the file is read within bounds (a FIFO hung ``verify``, a symlink to a
device exhausted memory: item 16), deep nesting and huge numbers are one line
(item 13), and a byte order mark is no reason to refuse it (item 28)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from helpers import run, run_process

SENTENCE = "the cat sat on the mat"


def lock_of(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A lock of the reference's BLEU on a two-line corpus: 3 scores."""
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text(f"{SENTENCE}\na dog ran\n", encoding="utf-8")
    ref.write_text(f"{SENTENCE}\nthe dog ran\n", encoding="utf-8")
    lock = tmp_path / "scores.lock"
    status, _out, err = run(capsys, "snapshot", "--metric", "bleu", "--impl", "reference",
                            "--hyp", hyp, "--ref", ref, "--out", lock)
    assert status == 0, err
    return lock


def verify_refuses(capsys: pytest.CaptureFixture[str], lock: Path) -> str:
    """verify's one line and exit status 2."""
    status, out, err = run(capsys, "verify", lock)
    assert (status, out) == (2, ""), (status, out, err)
    assert err.count("\n") == 1 and err.startswith(f"metricdiff: error: {lock}:"), err
    return err


# ------------------------------------------------ item 2: inf verifies anything


@pytest.mark.parametrize(("pattern", "replacement", "says"), [
    (r"(?m)^score = \S+", "score = inf", "score is inf"),
    (r"(?m)^score = \S+", "score = nan", "score is NaN"),
    (r"(?m)^precisions = \[[^,\]]+", "precisions = [inf", "precisions[0] is inf"),
    (r"(?m)^bp = \S+", "bp = -inf", "bp is -inf"),
])
def test_a_recorded_value_that_is_not_finite_is_an_invalid_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pattern: str, replacement: str,
    says: str,
) -> None:
    # Before: "all 3 scores reproduce", as the tolerance rel_tol * |inf| is inf.
    lock = lock_of(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    edited = re.sub(pattern, replacement, text, count=1)
    assert edited != text
    lock.write_text(edited, encoding="utf-8")
    err = verify_refuses(capsys, lock)
    line = int(err.split(f"{lock}:")[1].split(":")[0])
    assert edited.splitlines()[line - 1].startswith(replacement.split(" ")[0]), err
    assert says in err, err


# ------------------------------------------------ item 16: what the lock file is


def test_a_lock_that_is_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    lock = tmp_path / "scores.lock"
    os.mkfifo(lock)
    done = run_process(["metricdiff", "verify", lock], timeout=30)
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr == (f"metricdiff: error: {lock}:0: not a regular file (a FIFO); a "
                           "lock is read from a file\n")


def test_a_lock_that_links_to_a_fifo_is_refused(tmp_path: Path) -> None:
    """Instead of a symlink to /dev/zero (no test touches a device): a symlink to
    a FIFO, which a reader following the link would wait on for ever."""
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    lock = tmp_path / "scores.lock"
    lock.symlink_to(fifo)
    done = run_process(["metricdiff", "verify", lock], timeout=30)
    assert done.returncode == 2 and "not a regular file (a FIFO)" in done.stderr, done


def test_a_lock_larger_than_the_limit_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = lock_of(tmp_path, capsys)
    size = lock.stat().st_size
    monkeypatch.setattr("metricdiff.limits.MAX_FILE_BYTES", size - 1)
    err = verify_refuses(capsys, lock)
    assert f"{lock}:0: {size} bytes is more than metricdiff reads of a lock ({size - 1} " \
           "bytes)" in err, err


# ------------------------------------- item 13: nesting, huge numbers, NUL bytes


@pytest.mark.parametrize(("added", "says"), [
    ("deep = " + "[" * 20_000 + "]" * 20_000 + "\n", "nested more than 64 levels deep"),
    ("deep = " + "[" * 100 + "]" * 100 + "\n", "nested more than 64 levels deep"),
    ("huge = " + "9" * 5000 + "\n", "a number with more digits than Python reads"),
])
def test_nesting_and_huge_numbers_in_an_ignored_key_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], added: str, says: str
) -> None:
    lock = lock_of(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    lock.write_text(text.replace("format = 1\n", "format = 1\n" + added, 1), encoding="utf-8")
    assert says in verify_refuses(capsys, lock)


def test_a_nul_byte_in_an_input_path_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = lock_of(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    lock.write_text(text.replace('path = "h.txt"', 'path = "h\\u0000.txt"', 1),
                    encoding="utf-8")
    assert "holds a NUL byte" in verify_refuses(capsys, lock)


# --------------------------------------------- item 28: a byte order mark


def test_a_lock_starting_with_a_byte_order_mark_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As a Windows editor saves it: U+FEFF first, which TOML parsers refuse.
    lock = lock_of(tmp_path, capsys)
    lock.write_bytes(b"\xef\xbb\xbf" + lock.read_bytes())
    status, out, err = run(capsys, "verify", lock)
    assert status == 0 and out.startswith(f"{lock}: all 3 scores reproduce"), (out, err)


# ------------------------------------ item 25: a lock's text printed, not obeyed


def test_terminal_escapes_in_a_lock_are_shown_not_sent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lock's environment values and names are anyone's text: verify prints
    them with each control character as its code point.  Before, an escape
    sequence in the lock reached the terminal (retitling it, clearing it...)."""
    lock = lock_of(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    hostile = "\\u001b]0;pwned\\u0007\\u001b[2J"
    edited = re.sub(r'(?m)^python = "([^"]*)"',
                    lambda found: f'python = "{found.group(1)} {hostile}"', text, count=1)
    assert edited != text
    lock.write_text(edited, encoding="utf-8")
    status, out, err = run(capsys, "verify", lock)
    assert status == 0, err  # the environment differs: said, not a failure
    assert "\x1b" not in out and "\x07" not in out, repr(out)
    assert "⟨U+001B⟩]0;pwned⟨U+0007⟩⟨U+001B⟩[2J" in out, out

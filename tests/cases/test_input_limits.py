"""The user's corpus and fixtures, read within bounds (issue 27): a stray carriage
return (item 5), a lone surrogate (item 12), deep nesting and huge numbers
(item 13), a line without end (item 16), duplicate JSONL keys and a fixture's
non-text hypotheses (item 28).  Each is one line naming the file and line, exit
status 2, and nothing scored."""

from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from helpers import run, run_process

SENTENCE = "the cat sat on the mat"


def refused(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "") and err.count("\n") == 1, (status, out, err)
    assert err.startswith("metricdiff: error: "), err
    return err


# ---------------------------------------------------- item 5: carriage returns


def test_old_mac_line_endings_are_refused_not_read_as_one_segment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``a b c\\rd e f\\r``: before, one segment (43.49 where the two lines give
    52.32), silently.  sacrebleu's reader splits on \\n only and Python's on \\r
    too: which the user meant is theirs to say, so the file is refused, with how
    to convert it."""
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_bytes(b"the cat sat on the mat\ra dog ran in the park\r")
    ref.write_bytes(b"the cat sat on a mat\ra dog ran in a park\r")
    err = refused(capsys, "score", "--metric", "bleu", "--hyp", hyp, "--ref", ref)
    assert f"{hyp}:1: a carriage return (\\r) at column 23 that ends no \\r\\n" in err, err
    assert "tr '\\r' '\\n'" in err


def test_windows_line_endings_are_read_as_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = tmp_path / "h.txt"
    hyp.write_bytes(f"{SENTENCE}\r\n{SENTENCE}\r\n".encode())
    status, out, err = run(capsys, "score", "--metric", "bleu", "--hyp", hyp, "--ref", hyp)
    # Identical texts: BLEU 100 (Papineni et al. 2002, eq. 1); two segments of 6 words.
    assert status == 0 and out.startswith("BLEU = 100.00 ") and "hyp_len = 12" in out, err


# ---------------------------------------------------- item 12: lone surrogates


def test_a_lone_surrogate_in_jsonl_is_refused_at_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: accepted, then `audit --out` died with a UnicodeEncodeError traceback
    # and a cmd: program failed (exit 1), blamed on the implementation.
    data = tmp_path / "data.jsonl"
    data.write_text('{"hyp": "the cat", "ref": "the cat"}\n'
                    '{"hyp": "a \\ud800 dog", "ref": "a dog"}\n', encoding="utf-8")
    err = refused(capsys, "audit", "--metric", "bleu", "--impl", "reference", "--jsonl", data,
                  "--no-minimise", "--out", tmp_path / "out")
    assert f"{data}:2: field 'hyp' holds a lone surrogate (\\ud800) at character 3" in err, err
    assert not (tmp_path / "out" / "findings.json").exists()


# --------------------------------------- item 13: nesting and huge numbers


@pytest.mark.parametrize(("extra", "says"), [
    ("[" * 20_000 + "]" * 20_000, "values nested more than 64 levels deep"),
    ("[" * 65 + "]" * 65, "values nested more than 64 levels deep"),
    ("9" * 5000, "a number with more digits than Python reads (4300)"),
])
def test_jsonl_nesting_and_huge_numbers_in_an_ignored_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str, says: str
) -> None:
    # Before: a RecursionError or ValueError traceback, for a key that is not read.
    data = tmp_path / "data.jsonl"
    data.write_text(f'{{"hyp": "a", "ref": "a", "x": {extra}}}\n', encoding="utf-8")
    assert f"{data}:1: {says}" in refused(capsys, "score", "--metric", "bleu",
                                          "--jsonl", data)


def test_a_fixture_nested_20000_levels_deep_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "deep.toml").write_text(
        "format = 1\ndeep = " + "[" * 20_000 + "]" * 20_000 + "\n", encoding="utf-8")
    err = refused(capsys, "check", "--fixtures", tmp_path, "--impl", "reference",
                  "--out", tmp_path / "out")
    assert "deep.toml:1: values nested more than 64 levels deep" in err, err


def test_report_from_a_folder_with_deep_nesting_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from helpers import TESTS

    folder = tmp_path / "audit"
    folder.mkdir()
    for name in ("audit.json", "findings.json", "results.jsonl"):
        (folder / name).write_bytes((TESTS / "golden" / "audit_small" / name).read_bytes())
    (folder / "findings.json").write_text("[" * 20_000 + "]" * 20_000, encoding="utf-8")
    err = refused(capsys, "report", "--from", folder)
    assert "findings.json:1: values nested more than 64 levels deep" in err, err


# ------------------------------------------------- item 16: a line without end


def test_a_line_without_end_is_refused_at_the_limit(
    tmp_path: Path
) -> None:
    """A FIFO fed endless zero bytes stands for ``/dev/zero`` (no test touches a
    device).  Before, metricdiff read it into memory until MemoryError (3 GB in
    8 s); now it stops at the line limit, 1 MiB, with one line."""
    fifo = tmp_path / "zeros"
    os.mkfifo(fifo)
    ref = tmp_path / "r.txt"
    ref.write_text(SENTENCE + "\n", encoding="utf-8")
    stop = threading.Event()

    def feed() -> None:  # until the reader goes, or 64 MiB
        try:
            with open(fifo, "wb") as sink:
                for _ in range(1024):
                    if stop.is_set():
                        return
                    sink.write(bytes(65536))
        except OSError:  # the reader went away
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        done = run_process(["metricdiff", "score", "--metric", "bleu", "--hyp", fifo,
                            "--ref", ref], timeout=60)
    finally:
        stop.set()
        with open(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK), "rb", closefd=True):
            pass  # a writer still waiting on the FIFO can finish
        writer.join(timeout=10)
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr == (f"metricdiff: error: {fifo}:1: a line longer than 1048576 bytes "
                           "(the limit; --max-line-bytes N raises it); is this a text file?\n")


def test_max_line_bytes_raises_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = " ".join([SENTENCE] * 20_000)  # 440,000 bytes
    hyp = tmp_path / "h.txt"
    hyp.write_text(line + "\n", encoding="utf-8")
    err = refused(capsys, "score", "--metric", "bleu", "--hyp", hyp, "--ref", hyp,
                  "--max-line-bytes", "100000")
    assert f"{hyp}:1: a line longer than 100000 bytes" in err, err
    status, out, _ = run(capsys, "score", "--metric", "bleu", "--hyp", hyp, "--ref", hyp,
                         "--max-line-bytes", "500000")
    assert status == 0 and out.startswith("BLEU = 100.00 "), out  # identical texts


def test_reading_a_long_line_takes_a_small_multiple_of_its_length(tmp_path: Path) -> None:
    """What the reader holds for a line: its bytes and its text, about twice its
    length (measured with tracemalloc, which counts Python's allocations)."""
    from metricdiff.cases.files import iter_segments
    from metricdiff.limits import line_limit

    line = "x" * (8 * 2**20)
    path = tmp_path / "long.txt"
    path.write_text(line + "\n", encoding="utf-8")
    with line_limit(16 * 2**20):
        tracemalloc.start()
        try:
            [text] = list(iter_segments(str(path)))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert text == line
    assert peak < 2.5 * len(line), f"{peak / len(line):.1f} times the line's length"


# ------------------------------------------------------ item 28: small edges


def test_jsonl_with_a_key_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: the last "hyp" silently won.
    data = tmp_path / "data.jsonl"
    data.write_text('{"hyp": "the cat", "ref": "the cat", "hyp": "a dog"}\n', encoding="utf-8")
    err = refused(capsys, "score", "--metric", "bleu", "--jsonl", data)
    assert f"{data}:1: key 'hyp' appears twice in one object" in err, err


@pytest.mark.parametrize(("hyps", "says"), [
    ("[1]", "hyps[0] is int 1, not a string"),
    ('["a", true]', "hyps[1] is bool True, not a string"),
])
def test_a_fixture_hypothesis_that_is_no_text_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hyps: str, says: str
) -> None:
    # Before: str(1) made the text "1", and the case was checked.
    (tmp_path / "one.toml").write_text(
        f'format = 1\n[[case]]\nid = "must_one"\nmetric = "bleu"\nhyps = {hyps}\n'
        'refs = [["1"], ["a"]]\nsource = "hand"\n[[case.expect]]\nscore = 100.0\n',
        encoding="utf-8")
    err = refused(capsys, "check", "--fixtures", tmp_path, "--impl", "reference",
                  "--out", tmp_path / "out")
    assert f"one.toml:3: {says}" in err, err

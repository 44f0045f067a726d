"""A ``cmd:`` program, as a hostile or careless user writes one (issue 27): what it
is given (item 6), how its score is read (items 22b, 24), its options (item 21),
what it prints to standard error (item 25), and what it leaves behind when the
audit's ``--timeout`` kills its worker (item 8)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from helpers import TESTS, no_sleep_left, run, sleeping
from metricdiff.scoring.execution import shutdown_workers

PRINT = f"{sys.executable} -c"


def corpus(tmp_path: Path, hyp: str = "the cat sat on the mat",
           ref: str = "the cat sat on a mat") -> list[str]:
    (tmp_path / "h.txt").write_text(hyp + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text(ref + "\n", encoding="utf-8")
    return ["--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt")]


def printing(tmp_path: Path, output: str, status: int = 0, stderr: str = "") -> str:
    """A cmd: spec whose program prints ``output`` (and ``stderr``), then exits
    with ``status``, whatever it is given."""
    script = tmp_path / "prints.py"
    script.write_text(f"import sys\nsys.stdout.write({output!r})\nsys.stderr.write({stderr!r})\n"
                      f"sys.exit({status})\n", encoding="utf-8")
    return f"cmd:{sys.executable} {script} {{hyp}} {{ref}}"


# ------------------------------------------------ item 6: what BLEU's program is given


def test_a_line_break_in_a_bleu_text_reaches_the_program_as_whitespace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The program is handed the texts the reference scores: for BLEU a line break
    inside a JSONL string is whitespace (docs/inputs.md), so the program's file
    has a space there, not a literal backslash-n glued to the words."""
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"hyp": "the cat\nsat on the mat", "ref": "the cat sat"})
                    + "\n", encoding="utf-8")
    copy = tmp_path / "seen.txt"
    impl = (f"cmd:sh -c 'cp \"$1\" {copy}; echo BLEU = 1' sh {{hyp}} {{ref}}")
    status, _out, err = run(capsys, "score", "--metric", "bleu", "--impl", impl,
                            "--jsonl", data)
    assert status == 0, err
    assert copy.read_text(encoding="utf-8") == "the cat sat on the mat\n"


def test_a_backslash_n_in_a_bleu_line_reaches_the_program_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # For BLEU a text file's \n is backslash and n (docs/inputs.md), as the
    # reference reads it: the program gets the same two characters, not \\n.
    copy = tmp_path / "seen.txt"
    impl = f"cmd:sh -c 'cp \"$1\" {copy}; echo BLEU = 1' sh {{hyp}} {{ref}}"
    status, _out, err = run(capsys, "score", "--metric", "bleu", "--impl", impl,
                            *corpus(tmp_path, hyp="C:\\new folder"))
    assert status == 0, err
    assert copy.read_text(encoding="utf-8") == "C:\\new folder\n"


def test_rouge_still_gets_its_sentence_breaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"hyp": "one.\ntwo.", "ref": "one."}) + "\n", encoding="utf-8")
    copy = tmp_path / "seen.txt"
    impl = f"cmd:sh -c 'cp \"$1\" {copy}; echo F1 = 0.5' sh {{hyp}} {{ref}}"
    status, _out, err = run(capsys, "score", "--metric", "rouge-lsum", "--impl", impl,
                            "--jsonl", data)
    assert status == 0, err
    assert copy.read_text(encoding="utf-8") == "one.\\ntwo.\n"


# ------------------------------------------------ items 22b and 24: reading the score


@pytest.mark.parametrize(("metric", "output", "says"), [
    ("bleu", "BLEU = 250\n", "score = 250.0 is above 100"),
    ("bleu", "BLEU = 100.01\n", "score = 100.01 is above 100"),
    ("rouge-1", "F1 = 45.3\n", "fmeasure = 45.3 is above 1"),
])
def test_a_score_outside_its_scale_is_invalid_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], metric: str, output: str, says: str
) -> None:
    # Before: `BLEU = 250.00`, exit status 0.
    status, out, err = run(capsys, "score", "--metric", metric, "--impl",
                           printing(tmp_path, output), *corpus(tmp_path))
    assert (status, out) == (1, "") and err.count("\n") == 1, (status, out, err)
    assert "returned an invalid result" in err and says in err, err


def test_several_different_scores_are_invalid_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = "BLEU = 20.00 (sentence 1)\nBLEU = 30.00 (corpus)\n"
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl",
                           printing(tmp_path, output), *corpus(tmp_path))
    assert (status, out) == (1, ""), (status, out, err)
    assert "2 different scores (20.00, 30.00)" in err and "#score=" in err, err
    # Said twice, the one score is read.
    status, out, _ = run(capsys, "score", "--metric", "bleu", "--impl",
                         printing(tmp_path, "BLEU = 20.00\nBLEU = 20.00\n"), *corpus(tmp_path))
    assert status == 0 and out.startswith("BLEU = 20.00 "), out


def sacrebleu_program() -> str:
    found = shutil.which("sacrebleu", path=os.pathsep.join(
        [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if found is None:
        pytest.skip("the sacrebleu command is not installed")
    return found


@pytest.mark.parametrize("flags", ["", "-f text"])
def test_sacrebleu_2_output_is_read_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: str
) -> None:
    """sacrebleu 2.x prints JSON by default, and `BLEU|nrefs:1|...|version:2.6.0 =
    49.3 ...` with -f text: the default pattern reads both."""
    sacrebleu = pytest.importorskip("sacrebleu")
    program = sacrebleu_program()
    hyps = ["the cat sat on the mat", "a dog ran"]
    refs = ["the cat sat on a mat", "the dog ran"]
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    impl = f"cmd:{program} {{ref}} -i {{hyp}} {flags} #digits=1"
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", impl,
                           "--hyp", tmp_path / "h.txt", "--ref", tmp_path / "r.txt")
    # The expected value: sacrebleu's own Python API on the same texts, as its
    # command prints it (one decimal).
    expected = round(sacrebleu.corpus_bleu(hyps, [refs]).score, 1)
    assert status == 0, err
    assert out.startswith(f"BLEU = {expected:.1f} "), (out, expected)  # as printed


# ---------------------------------------------------------- item 21: #timeout


@pytest.mark.parametrize("value", ["inf", "1e300", "-1", "nan"])
def test_a_command_timeout_that_cannot_be_waited_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    # Before (inf, 1e300): every run failed with OverflowError, exit 1, blamed on
    # the program.
    impl = f"cmd:echo BLEU = 3 {{hyp}} {{ref}} #timeout={value}"
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", impl,
                           *corpus(tmp_path))
    assert (status, out) == (2, "") and err.count("\n") == 1, (status, out, err)
    assert f"#timeout={value}: must be a number of seconds greater than 0" in err, err


# ------------------------------------------- item 25: what a program prints to stderr


def test_a_programs_terminal_escapes_are_shown_not_sent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\u202eevil"
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl",
                           printing(tmp_path, "", status=3, stderr=hostile + "\n"),
                           *corpus(tmp_path))
    assert (status, out) == (1, ""), (status, out, err)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f\u202e]", err), repr(err)
    assert "⟨U+001B⟩]0;pwned⟨U+0007⟩" in err and "red⟨U+202E⟩evil" in err, err


# ----------------------------- item 8: a worker killed on --timeout takes its program


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="lists processes through /proc")
def test_a_timeout_of_the_audit_kills_the_program_and_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The program's own #timeout (300 s by default) is longer than the audit's
    # --timeout, which kills the worker running it: before, the program (a
    # process group of its own) was re-parented to init and kept running, and
    # its temporary folder, holding the corpus, stayed.
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    impl = "cmd:sh -c 'sleep 7781; echo BLEU = 1' sh {hyp} {ref}"
    with no_sleep_left("7781"):  # nothing left running, whatever happens
        status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                               "--impl", impl, *corpus(tmp_path), "--no-minimise",
                               "--timeout", "2")
        assert status == 1 and "could not score" in out, (status, out, err)
        assert sleeping("7781") == [], "the program outlived the worker the timeout killed"
        shutdown_workers()  # the workers kept for later calls, as metricdiff's exit does
        assert list((tmp_path / "tmp").iterdir()) == [], "files left behind"


# -------------------------------------- item 29: the bundled example and U+2028


def test_the_example_program_splits_lines_on_line_feeds_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """U+2028 (LINE SEPARATOR) inside a segment is no line break in the files
    metricdiff writes: the example splits on \\n as metricdiff does, so it scores
    the two segments, and U+2028, being whitespace to str.split, scores as a space
    would (the expected value: the same corpus with a space there)."""
    example = TESTS / "example_impls" / "multi_bleu_like.py"
    impl = f"cmd:{sys.executable} {example} {{refs}} < {{hyp}}"
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    ref.write_text("the cat sat on a mat\nthe dog ran fast\n", encoding="utf-8")
    scores = []
    for separator in ("\u2028", " "):
        hyp.write_text(f"the cat{separator}sat on the mat\nthe dog ran\n", encoding="utf-8")
        status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", impl,
                               "--hyp", hyp, "--ref", ref)
        assert status == 0, err
        scores.append(out.split()[2])
    assert scores[0] == scores[1], scores

"""``metricdiff score`` reads its input one segment at a time.

The files are never read whole: a segment is scored before the next line has
been written.  Files that do not line up are found at the end, after the
scores of the lines read, with the one-line error naming the file and line.
The reference keeps running sums, which give the numbers of the lists.
"""

from __future__ import annotations

import math
import os
import random
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import run
from metricdiff.cases.files import CorpusStream, stream_corpus
from metricdiff.cases.jsonl import stream_jsonl
from metricdiff.impls.reference.rouge_corpus import CorpusPairs, _ExactSum
from metricdiff.profiles import RougeOptions
from metricdiff.statistics import RougeResult


def write(path: Path, *lines: str) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def test_files_that_do_not_line_up_give_the_scores_of_the_lines_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = write(tmp_path / "h.txt", "the cat sat on the mat", "a dog ran", "one more")
    ref = write(tmp_path / "r.txt", "the cat sat on a mat", "a dog ran away")
    status, out, err = run(capsys, "score", "--hyp", hyp, "--ref", ref, "--metric", "rouge-1")
    assert status == 2
    assert err.count("\n") == 1
    assert err.startswith(f"metricdiff: error: {ref}:3: has 2 lines but {hyp} has 3: the "
                          "scores above are of the first 2 segments only")
    # What the two lines that line up score on their own, as a valid input.
    short = write(tmp_path / "h2.txt", "the cat sat on the mat", "a dog ran")
    assert run(capsys, "score", "--hyp", short, "--ref", ref, "--metric", "rouge-1") == (
        0, out, "")
    # ROUGE-1 recall by hand (the reference's paper profile: recall, macro
    # average): 5 of 6 reference unigrams, then 3 of 4: (5/6 + 3/4) / 2.
    assert f"R = {(5 / 6 + 3 / 4) / 2:.5f}" in out


def test_a_longer_reference_file_is_found_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = write(tmp_path / "h.txt", "a b")
    ref = write(tmp_path / "r.txt", "a b", "c d", "e f")
    status, out, err = run(capsys, "score", "--hyp", hyp, "--ref", ref)
    assert status == 2 and "BLEU" in out
    assert f"{hyp}:2: has 1 lines but" not in err  # the reference file is the odd one
    assert f"{ref}:2: has 3 lines but {hyp} has 1: the scores above are of the first " \
           "1 segment only" in err


def _fed_one_line_at_a_time(tmp_path: Path, first: str, rest: str,
                            opened: Callable[[str], CorpusStream]) -> None:
    """A FIFO whose writer sends ``first``, and ``rest`` only once the reader has
    had the first segment: a reader that reads the whole file first never gets it."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got_first = threading.Event()

    def writer() -> None:
        with fifo.open("w", encoding="utf-8") as stream:
            stream.write(first)
            stream.flush()
            got_first.wait(timeout=30)
            stream.write(rest)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    segments = iter(opened(str(fifo)))
    next(segments)
    got_first.set()
    assert len(list(segments)) == 1
    thread.join(timeout=30)


def test_a_text_file_is_read_a_line_at_a_time(tmp_path: Path) -> None:
    ref = write(tmp_path / "r.txt", "a b", "c d")
    _fed_one_line_at_a_time(tmp_path, "a b\n", "c d\n",
                            lambda name: stream_corpus(name, [ref]))


def test_a_jsonl_file_is_read_a_line_at_a_time(tmp_path: Path) -> None:
    _fed_one_line_at_a_time(tmp_path, '{"hyp": "a", "ref": "b"}\n',
                            '{"hyp": "c", "ref": "d"}\n', stream_jsonl)


def test_an_exact_running_sum_is_math_fsum() -> None:
    # math.fsum is the oracle: the correctly rounded sum of every number added.
    rng = random.Random(3)
    values = [rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20) for _ in range(5000)]
    values += [1e16, 1.0, -1e16, 0.1] * 50
    total = _ExactSum()
    for value in values:
        total.add(value)
    assert total.value() == math.fsum(values)


def test_running_sums_give_the_mean_of_the_pairs() -> None:
    # corpus_average=macro is the mean of each column, summed left to right.
    rng = random.Random(5)
    pairs = [RougeResult(rng.random(), rng.random(), rng.random(), float(rng.randint(0, 9)),
                         float(rng.randint(1, 9)), float(rng.randint(1, 9)))
             for _ in range(1000)]
    corpus = CorpusPairs(RougeOptions())
    for pair in pairs:
        corpus.add(pair, False)
    result = corpus.result()
    left_to_right = 0.0
    for pair in pairs:
        left_to_right += pair.recall
    assert result.recall == left_to_right / len(pairs)
    assert result.matches == math.fsum(pair.matches for pair in pairs)

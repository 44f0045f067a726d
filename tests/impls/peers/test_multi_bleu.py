"""The multi-bleu adapter against Moses' multi-bleu.perl run directly.

Expected values come from running the script by hand here (perl, reference
files, the hypothesis on stdin, its one printed line parsed by this test), or
from the BLEU formula worked out by hand; never from the adapter's output.
"""

from __future__ import annotations

import math
import re
import subprocess
from pathlib import Path

import pytest

from helpers import ROOT
from metricdiff.errors import ImplementationFailed, UnsupportedOption
from metricdiff.impls import get_adapter, resolve
from metricdiff.impls.peers import multi_bleu
from metricdiff.impls.text.tokenizers import get_tokenizer

ADAPTER = get_adapter("multi-bleu")
if ADAPTER.unavailable_reason():
    pytest.skip(ADAPTER.unavailable_reason(), allow_module_level=True)

DATA = ROOT / "benchmarks" / "data" / "translations"
LINE = re.compile(r"BLEU = ([\d.]+), ([\d.]+)/([\d.]+)/([\d.]+)/([\d.]+) \(BP=([\d.]+)")


def run_script(tmp_path: Path, hyps: list[str], refs: list[list[str]], *flags: str):
    """The script itself: reference files ref0.. and the hypotheses on stdin."""
    for j, column in enumerate(zip(*refs, strict=True)):
        (tmp_path / f"ref{j}").write_text("".join(r + "\n" for r in column), encoding="utf-8")
    completed = subprocess.run(
        ["perl", str(multi_bleu.script_path()), *flags, str(tmp_path / "ref")],
        input="".join(h + "\n" for h in hyps).encode(), capture_output=True, check=False,
    )
    found = LINE.search(completed.stdout.decode())
    assert found, completed
    return [float(x) for x in found.groups()]


def score(hyps, refs, **settings):
    adapter = resolve("multi-bleu" + (f"[{','.join(f'{k}={v}' for k, v in settings.items())}]"
                                      if settings else ""), "bleu")
    return adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu"))


def as_printed(result):
    return [result.score, *result.precisions, result.bp]


def test_hand_worked_example():
    # "the cat sat on the mat" vs "the cat sat on a mat": p1..p4 = 5/6, 3/5, 2/4,
    # 1/3 (by hand), equal lengths so BP = 1; BLEU = (5/6*3/5*2/4*1/3)^(1/4).
    result = score(["the cat sat on the mat"], [["the cat sat on a mat"]])
    expected = 100 * (5 / 6 * 3 / 5 * 2 / 4 * 1 / 3) ** 0.25
    assert result.score == pytest.approx(expected, abs=0.005)
    assert result.precisions == (83.3, 60.0, 50.0, 33.3)
    assert (result.bp, result.sys_len, result.ref_len) == (1.0, 6, 6.0)
    assert result.unknown == {"counts", "totals"}


def test_real_translations_equal_the_script(tmp_path):
    # German, French and Russian verses (the README of benchmarks/data/translations).
    hyps = (DATA / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = [[r] for r in (DATA / "ref.txt").read_text(encoding="utf-8").splitlines()]
    assert as_printed(score(hyps, refs)) == run_script(tmp_path, hyps, refs)


def test_lowercase_and_two_references(tmp_path):
    hyps = ["The Cat sat ON the mat .", "Ein Hund bellt laut"]
    refs = [["the cat is on the mat .", "There is a cat on the mat ."],
            ["ein hund bellt", "EIN HUND BELLT LAUT HEUTE"]]
    assert as_printed(score(hyps, refs, lowercase="ascii")) == run_script(
        tmp_path, hyps, refs, "-lc")
    assert as_printed(score(hyps, refs)) == run_script(tmp_path, hyps, refs)


def test_chinese_tokenized_by_the_caller(tmp_path):
    # multi-bleu scores whatever tokens it is given: Chinese split by hand.
    hyps = ["我 爱 北京 天安门", "今天 天气 很 好"]
    refs = [["我 爱 北京 的 天安门"], ["今天 的 天气 很 好"]]
    assert as_printed(score(hyps, refs)) == run_script(tmp_path, hyps, refs)


def test_empty_references_give_its_zero_line():
    # The script prints "BLEU = 0, 0/0/0/0 (BP=0, ..., hyp_len=0, ref_len=0)" and
    # exits 1 when the references' total length is 0 (its source).
    result = score(["the cat"], [[""]])
    assert (result.score, result.bp, result.sys_len, result.ref_len) == (0.0, 0.0, 0, 0.0)


def test_empty_hypotheses_crash_is_reported():
    # c = 0 < r: exp(1 - r/c) is Perl's "Illegal division by zero".
    with pytest.raises(ImplementationFailed, match="division by zero"):
        score([""], [["a b c"]])


def test_uneven_references_are_refused():
    with pytest.raises(UnsupportedOption, match="same number of references"):
        score(["a b", "c d"], [["a b", "a c"], ["c d"]])


def test_unicode_spaces_stay_inside_tokens(tmp_path):
    # U+00A0 and U+3000 are not ASCII whitespace: Perl's split on bytes keeps
    # them inside tokens, so "a\u00a0b c" is 2 tokens (hyp_len=2).
    hyps, refs = ["a\u00a0b c", "x\u3000y z"], [["a b c"], ["x y z"]]
    assert as_printed(score(hyps, refs)) == run_script(tmp_path, hyps, refs)
    assert score(hyps, refs).sys_len == 4
    assert ADAPTER.default_options("bleu").tokenize == "whitespace-ascii"


def test_line_break_inside_a_segment_is_a_space():
    assert math.isclose(score(["a b\nc d"], [["a b c d"]]).score, 100.0)


@pytest.mark.parametrize(
    "text", [" a\u00a0b \t c\u3000d\n", "x\x0by\x0cz\rw", "\x1cq\x85r\u2028s", ""]
)
def test_whitespace_ascii_is_perl_split_on_bytes(text):
    # Perl itself is the oracle: `split` on the line read as bytes.
    printed = subprocess.run(
        ["perl", "-e", 'local $/; my $t = <STDIN>; print join("\\x00", split(" ", $t))'],
        input=text.encode(), capture_output=True, check=True,
    ).stdout.decode()
    expected = printed.split("\x00") if printed else []
    assert get_tokenizer("whitespace-ascii")(text) == expected

"""The compare-mt adapter against compare-mt itself: its command line's reader
(``corpus_utils.load_tokens`` on files) and ``BleuScorer.score_corpus``.

Expected values come from those direct calls, or by hand where stated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bleu_peer_data import EDGES, LANGUAGES, real_translations
from helpers import require_impl
from metricdiff.errors import UnsupportedOption

scorers = pytest.importorskip("compare_mt.scorers")
corpus_utils = pytest.importorskip("compare_mt.corpus_utils")


def _adapter() -> Any:
    return require_impl("compare-mt", "bleu")


def _as_command_line(tmp_path: Path, hyps: list[str], refs: list[list[str]],
                     case_insensitive: bool = False) -> float:
    """What ``compare-mt ref.txt out.txt`` computes as BLEU: both files read by
    its own ``load_tokens``, scored by ``BleuScorer.score_corpus``."""
    (tmp_path / "ref.txt").write_text("".join(f"{seg[0]}\n" for seg in refs), encoding="utf-8")
    (tmp_path / "out.txt").write_text("".join(f"{hyp}\n" for hyp in hyps), encoding="utf-8")
    ref = corpus_utils.load_tokens(str(tmp_path / "ref.txt"))
    out = corpus_utils.load_tokens(str(tmp_path / "out.txt"))
    score, _ = scorers.BleuScorer(case_insensitive=case_insensitive).score_corpus(ref, out)
    return float(score)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_real_translations_as_its_command_line(tmp_path: Path, language: str) -> None:
    adapter = _adapter()
    hyps, refs = real_translations(*LANGUAGES[language])
    result = adapter.corpus_score("bleu", hyps, refs, adapter.default_options("bleu"))
    assert result.score == _as_command_line(tmp_path, hyps, refs)


def test_case_insensitive_is_its_own_switch(tmp_path: Path) -> None:
    # compare-mt --case_insensitive: corpus_utils.lower on the tokens.
    adapter = _adapter()
    hyps, refs = real_translations(*LANGUAGES["fr"])
    options = adapter.options("bleu", {"lowercase": "unicode",
                                       "lowercase_stage": "after-tokenize"})
    result = adapter.corpus_score("bleu", hyps, refs, options)
    assert result.score == _as_command_line(tmp_path, hyps, refs, case_insensitive=True)


@pytest.mark.parametrize("edge", sorted(EDGES))
def test_edge_cases_as_its_command_line(tmp_path: Path, edge: str) -> None:
    adapter = _adapter()
    hyps, refs = EDGES[edge]
    result = adapter.corpus_score("bleu", hyps, refs, adapter.default_options("bleu"))
    assert result.score == _as_command_line(tmp_path, hyps, refs)


def test_empty_lines_are_one_empty_token() -> None:
    # By hand: '' is read as [''], so an empty hypothesis against an empty
    # reference matches its one unigram: p_1 = 1, the orders without n-grams have
    # denominator max(1, 0) = 1 and no match, so they are skipped: BLEU = 100.
    adapter = _adapter()
    result = adapter.corpus_score("bleu", [""], [[""]], adapter.default_options("bleu"))
    assert (result.score, result.sys_len, result.counts) == (100.0, 1, (1, 0, 0, 0))


def test_zero_precisions_are_skipped() -> None:
    # spec/bleu.md BLEU-SMOOTH-SKIP, pair S: m = 4/1/0/0, t = 6/5/4/3;
    # by hand (2/3 * 1/5)^(1/4) * 100 = 60.42750794713536.
    adapter = _adapter()
    result = adapter.corpus_score("bleu", ["the cat sat on a mat"], [["the cat is on the mat"]],
                                  adapter.default_options("bleu"))
    assert result.score == pytest.approx(60.42750794713536, rel=1e-12)
    assert (result.counts, result.totals) == ((4, 1, 0, 0), (6, 5, 4, 3))


def test_one_reference_per_segment() -> None:
    adapter = _adapter()
    with pytest.raises(UnsupportedOption, match="one reference per segment"):
        adapter.corpus_score("bleu", ["a b"], [["a b", "a c"]], adapter.default_options("bleu"))


def test_fixed_smoothing_is_refused() -> None:
    with pytest.raises(UnsupportedOption, match="compare-mt cannot honour"):
        _adapter().options("bleu", {"smoothing": "exp"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # by hand: the ends stripped (any Unicode space, U+001F included), inner
        # double spaces still an empty token, an empty line one empty token
        (" a  b \t", ["a", "", "b"]),
        ("\x1fa b\x1f", ["a", "b"]),
        ("a\tb", ["a\tb"]),
        ("", [""]),
    ],
)
def test_whitespace_strict_trimmed_is_its_reader(tmp_path: Path, text: str,
                                                 expected: list[str]) -> None:
    from metricdiff.impls.text.tokenizers import get_tokenizer

    assert get_tokenizer("whitespace-strict-trimmed")(text) == expected
    (tmp_path / "line.txt").write_text(f"{text}\n", encoding="utf-8")
    assert corpus_utils.load_tokens(str(tmp_path / "line.txt")) == [expected]

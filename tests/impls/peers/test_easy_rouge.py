"""easy-rouge against direct calls to its functions (``rouge.rouge``, loaded in
isolation), on its documented examples, real translations and empty sides."""

from __future__ import annotations

import pytest

from helpers import require_impl, translation_pairs
from metricdiff.errors import UnsupportedOption
from metricdiff.impls import isolated_peers
from metricdiff.impls.peers import _isolated

METRICS = ["rouge-1", "rouge-2", "rouge-l", "rouge-lsum", "rouge-w"]

#: Segments of several sentences (metricdiff's "\n"), for the summary-level variants.
SENTENCES = (
    ["the cat sat on the mat\nthe dog barked", "police killed the gunman\nin the end"],
    [["the cat was on the mat\na dog barked loudly"], ["the gunman was killed by police"]],
)


def direct(metric: str, hyp: str, ref: str) -> tuple[float, float, float]:
    """The library's own (R, P, F), its input split as its README splits it."""
    hyp_s = [line.split() for line in hyp.split("\n") if line]
    ref_s = [line.split() for line in ref.split("\n") if line]
    with _isolated.active(isolated_peers()["easy-rouge"]) as peer:
        rouge = peer.module
        if metric == "rouge-l":
            score = rouge.rouge_l_sentence_level([t for s in hyp_s for t in s],
                                                 [t for s in ref_s for t in s])
        elif metric == "rouge-lsum":
            score = rouge.rouge_l_summary_level(hyp_s, ref_s)
        elif metric == "rouge-w":
            score = rouge.rouge_w_summary_level(hyp_s, ref_s)
        else:
            score = rouge.rouge_n_summary_level(hyp_s, ref_s, int(metric[-1]))
    return score.recall, score.precision, score.f1_measure


def test_readme_example():
    # easy-rouge's README: ROUGE-2 of 'the capital of China is Beijing' against
    # 'Beijing is the capital of China'. By hand: bigrams 'the capital', 'capital
    # of', 'of China' match, 5 on each side: R = P = F = 3/5.
    adapter = require_impl("easy-rouge", "rouge-2")
    got = adapter.corpus_score("rouge-2", ["the capital of China is Beijing"],
                               [["Beijing is the capital of China"]], adapter.options("rouge-2"))
    assert (got.recall, got.precision, got.fmeasure) == (0.6, 0.6, 0.6)
    assert (got.matches, got.hyp_total, got.ref_total) == (3, 5, 5)


def test_docstring_union_lcs_example():
    # _make_lcs_union's docstring: r_i = w1..w5, c1 = 'w1 w2 w6 w7 w8',
    # c2 = 'w1 w3 w8 w8 w5': the union LCS is w1 w2 w3 w5, so 4 hits of 5
    # reference words, 10 hypothesis words: R = 4/5, P = 4/10.
    adapter = require_impl("easy-rouge", "rouge-lsum")
    got = adapter.corpus_score("rouge-lsum", ["w1 w2 w6 w7 w8\nw1 w3 w8 w8 w5"],
                               [["w1 w2 w3 w4 w5"]], adapter.options("rouge-lsum"))
    assert (got.matches, got.hyp_total, got.ref_total) == (4, 10, 5)
    assert (got.recall, got.precision) == (0.8, 0.4)


@pytest.mark.parametrize("metric", METRICS)
def test_real_text_matches_the_library(metric):
    adapter = require_impl("easy-rouge", metric)
    options = adapter.options(metric)
    for hyps, refs in (translation_pairs(), SENTENCES):
        got = adapter.sentence_scores(metric, hyps, refs, options)
        assert [(r.recall, r.precision, r.fmeasure) for r in got] == [
            direct(metric, hyp, seg[0]) for hyp, seg in zip(hyps, refs, strict=True)]


def test_rouge_w_counts_give_its_scores():
    # ROUGE-W's counts are its bases and weighted hits: R = (hits / ref_base)^(1/w).
    adapter = require_impl("easy-rouge", "rouge-w")
    got = adapter.corpus_score("rouge-w", *SENTENCES, adapter.options("rouge-w"))
    assert got.recall == pytest.approx(
        sum((r.matches / r.ref_total) ** (1 / 1.2)
            for r in adapter.sentence_scores("rouge-w", *SENTENCES, adapter.options("rouge-w")))
        / 2, rel=1e-12)


@pytest.mark.parametrize("hyp, ref", [("", "the cat"), ("the cat", ""), ("", "")])
@pytest.mark.parametrize("metric", METRICS)
def test_empty_sides_score_zero(metric, hyp, ref):
    adapter = require_impl("easy-rouge", metric)
    got = adapter.corpus_score(metric, [hyp], [[ref]], adapter.options(metric))
    assert got.fmeasure == direct(metric, hyp, ref)[2] == 0.0


def test_refusals():
    adapter = require_impl("easy-rouge", "rouge-w")
    with pytest.raises(UnsupportedOption, match="weight=1"):
        adapter.options("rouge-w", {"weight": "1"})
    with pytest.raises(UnsupportedOption, match="one reference"):
        adapter.corpus_score("rouge-w", ["a b"], [["a b", "b a"]], adapter.options("rouge-w"))


def test_loading_it_leaves_logging_alone():
    # rouge/rouge.py calls logging.basicConfig(level=logging.INFO) on import.
    import logging

    root = logging.getLogger()
    before = (root.handlers[:], root.level)
    adapter = require_impl("easy-rouge", "rouge-1")
    adapter.corpus_score("rouge-1", ["a b"], [["a b"]], adapter.options("rouge-1"))
    assert (root.handlers[:], root.level) == before

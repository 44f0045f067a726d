"""jury through its adapters, against jury called directly (loaded from its own
folder, as ``metricdiff install-peers jury`` puts it) and against the packages it
wraps (rouge-score, sacrebleu).  Skips, with the adapter's reason, when jury is
not installed."""

from __future__ import annotations

import pytest

from helpers import ROOT, require_impl
from metricdiff.impls import isolated_peers
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers.jury import _metric

TRANSLATIONS = ROOT / "benchmarks" / "data" / "translations"


def real_pairs(first: int, count: int) -> list[tuple[str, str]]:
    """Real translation pairs (lines 1-106 German, 107-198 French: the data's README)."""
    hyp = (TRANSLATIONS / "hyp.txt").read_text(encoding="utf-8").splitlines()
    ref = (TRANSLATIONS / "ref.txt").read_text(encoding="utf-8").splitlines()
    return list(zip(hyp[first - 1:first - 1 + count], ref[first - 1:first - 1 + count],
                    strict=True))


PAIRS = [*real_pairs(1, 4), *real_pairs(107, 4),
         ("我们今天去公园散步。", "我们今天去公园。"),
         ("the cat sat on the mat", "the cat is on the mat")]


@pytest.fixture
def rouge():
    return require_impl("jury", "rouge-1")


@pytest.fixture
def bleu():
    return require_impl("jury", "bleu")


def jury_compute(which: str, **kwargs):
    with _isolated.active(isolated_peers()["jury"]):
        return _metric(which).compute(**kwargs)[which]


@pytest.mark.parametrize("metric,kind", [("rouge-1", "rouge1"), ("rouge-2", "rouge2"),
                                         ("rouge-l", "rougeL"), ("rouge-lsum", "rougeLsum")])
def test_rouge_one_pair_is_rouge_scores_f(rouge, metric, kind):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer([kind])
    for hyp, ref in PAIRS:
        got = rouge.corpus_score(metric, [hyp], [[ref]], rouge.options(metric))
        # a bootstrap of one pair is that pair's F (rouge-score's own)
        assert got.fmeasure == pytest.approx(scorer.score(ref, hyp)[kind].fmeasure, abs=1e-12)
        assert {"recall", "precision"} <= got.unknown


def test_rouge_corpus_equals_jury_itself(rouge):
    import numpy

    hyps = [h for h, _ in PAIRS]
    refs = [[r] for _, r in PAIRS]
    got = rouge.corpus_score("rouge-1", hyps, refs, rouge.options("rouge-1"))
    with _isolated.active(isolated_peers()["jury"]):
        metric = _metric("rouge")  # loading draws from numpy's generator: seed after it
        numpy.random.seed(0)  # the adapter's bootstrap_seed (the paper profile's, 0)
        expected = metric.compute(predictions=[[h] for h in hyps], references=refs,
                                  rouge_types=["rouge1"])["rouge"]
    assert got.fmeasure == expected["rouge1"]


def test_rouge_several_references_keep_the_best_f(rouge):
    from rouge_score import rouge_scorer

    refs = ["the cat is on the mat", "a dog", "there is a cat on the mat"]
    got = rouge.corpus_score("rouge-1", ["the cat sat on the mat"], [refs],
                             rouge.options("rouge-1"))
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    assert got.fmeasure == pytest.approx(
        max(scorer.score(r, "the cat sat on the mat")["rouge1"].fmeasure for r in refs))


def test_bleu_one_segment_is_sacrebleus(bleu):
    import sacrebleu

    for hyp, ref in PAIRS:
        got = bleu.corpus_score("bleu", [hyp], [[ref]], bleu.options("bleu"))
        expected = sacrebleu.corpus_bleu([hyp], [[ref]])
        assert got.score == pytest.approx(expected.score, rel=1e-12)
        assert (list(got.counts), list(got.totals)) == (expected.counts, expected.totals)


def test_bleu_corpus_equals_jury_and_scores_the_first_segment_only(bleu):
    import sacrebleu

    hyps = ["the cat sat on the mat", "a quick brown fox jumps"]
    refs = ["the cat is on the mat", "the quick brown fox jumped"]
    got = bleu.corpus_score("bleu", hyps, [[r] for r in refs], bleu.options("bleu"))
    direct = jury_compute("sacrebleu", predictions=[[h] for h in hyps],
                          references=[[r] for r in refs])
    assert got.score == pytest.approx(direct["score"] * 100, rel=1e-12)
    # jury hands sacrebleu one "reference stream" per segment: sacrebleu zips the
    # hypotheses with two streams of one line each, so only the first hypothesis
    # is scored, against both references -- not the corpus BLEU of the two.
    assert got.score == pytest.approx(sacrebleu.corpus_bleu(hyps[:1], [[refs[0]], [refs[1]]]).score)
    assert got.score != pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score)


def test_empty_hypothesis(rouge, bleu):
    assert rouge.corpus_score("rouge-1", [""], [["a b"]], rouge.options("rouge-1")).fmeasure == 0
    assert bleu.corpus_score("bleu", [""], [["a b"]], bleu.options("bleu")).score == 0

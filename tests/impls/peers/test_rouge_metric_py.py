"""The rouge-metric-py adapter against direct calls of ``rouge_metric.PyRouge``.

Every expected value comes from calling the library itself, never from the
adapter's own output: sentence scores must be equal (the same floating-point
computation), corpus means to 1e-12 where the adapter averages.
"""

from __future__ import annotations

import inspect

import pytest

from metricdiff.impls import get_adapter
from metricdiff.impls.segment_references import usable_rouge_references
from rouge_peer_data import (
    CORPORA,
    assert_counts_consistent,
    assert_rpf,
    assert_rpf_signed,
    mean,
    segments,
)

# --------------------------------------------------------------------------
# rouge-metric (PyRouge)


@pytest.fixture(scope="module")
def py_rouge_module():
    return pytest.importorskip("rouge_metric.py_rouge")


RM_METRICS = ["rouge-1", "rouge-2", "rouge-4", "rouge-l", "rouge-lsum", "rouge-w", "rouge-s",
              "rouge-su"]


def pyrouge_kwargs(metric, options):
    variant = options.variant
    return {
        "rouge_n": [options.n] if variant == "n" else [],
        "rouge_l": variant in ("l", "lsum"),
        "rouge_w": variant == "w",
        "rouge_w_weight": options.weight,
        "rouge_s": variant == "s",
        "rouge_su": variant == "su",
        "skip_gap": None if options.skip < 0 else options.skip,
        "multi_ref_mode": {"pooled": "average", "best-recall": "best"}[options.multi_ref],
        "alpha": float(options.f_measure.removeprefix("alpha=")),
    }


def only(scores):
    assert len(scores) == 1
    return next(iter(scores.values()))


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("metric", RM_METRICS)
@pytest.mark.parametrize("overrides", [
    {}, {"multi_ref": "best-recall"}, {"f_measure": "alpha=0.8", "weight": "1.5", "skip": "2"},
    {"corpus_average": "macro"}, {"sentence_split": "none", "skip": "0"},
])
def test_rouge_metric_matches_evaluate(py_rouge_module, corpus, metric, overrides):
    adapter = get_adapter("rouge-metric-py", metric)
    options = adapter.options(metric, overrides)
    hyps = [hyp for hyp, _ in segments(CORPORA[corpus])]
    refs = [seg for _, seg in segments(CORPORA[corpus])]
    kwargs = pyrouge_kwargs(metric, options)
    sentencizer = (lambda t: [t]) if options.sentence_split == "none" else None
    individual = py_rouge_module.PyRouge(**kwargs, mode="individual").evaluate(
        hyps, refs, sentencizer=sentencizer)
    got = adapter.sentence_scores(metric, *CORPORA[corpus], options)
    for result, score in zip(got, individual, strict=True):
        score = only(score)
        assert_rpf_signed(result, score["r"], score["p"], score["f"])
        if options.variant != "w":
            assert_counts_consistent(result)
    corpus_result = adapter.corpus_score(metric, *CORPORA[corpus], options)
    if options.corpus_average == "f-of-means":
        average = only(py_rouge_module.PyRouge(**kwargs, mode="average").evaluate(
            hyps, refs, sentencizer=sentencizer))
        assert_rpf_signed(corpus_result, average["r"], average["p"], average["f"])
    else:
        scores = [only(s) for s in individual]
        assert_rpf(corpus_result, mean([s["r"] for s in scores]), mean([s["p"] for s in scores]),
                   mean([s["f"] for s in scores]), exact=False)


def test_rouge_metric_rouge_l_is_summary_level(py_rouge_module):
    # rouge-metric's rouge-l on two lines is the union LCS: "c d" and "a b" both count
    adapter = get_adapter("rouge-metric-py", "rouge-l")
    hyps, refs = ["a b\nc d"], [["c d a b"]]
    direct = only(py_rouge_module.PyRouge(rouge_n=[]).evaluate(hyps, refs))
    summary = adapter.corpus_score("rouge-l", hyps, refs, adapter.options("rouge-l"))
    assert summary.recall == direct["r"] == 1.0
    sentence = adapter.corpus_score("rouge-l", hyps, refs,
                                    adapter.options("rouge-l", {"sentence_split": "none"}))
    assert sentence.recall == 0.5


def test_rouge_metric_tokenizer_hook(py_rouge_module):
    from metricdiff.impls.peers._rouge_common import text_pipeline

    adapter = get_adapter("rouge-metric-py", "rouge-2")
    options = adapter.options("rouge-2", {"tokenize": "rouge-score", "stemmer": "porter-nltk"})
    hyps, refs = CORPORA["punctuation"]
    expected = py_rouge_module.PyRouge(rouge_n=[2], rouge_l=False, mode="individual").evaluate(
        hyps, [usable_rouge_references(seg) for seg in refs], tokenizer=text_pipeline(options))
    got = adapter.sentence_scores("rouge-2", hyps, refs, options)
    for result, score in zip(got, expected, strict=True):
        score = only(score)
        assert_rpf(result, score["r"], score["p"], score["f"])


def test_rouge_metric_declared_profile(py_rouge_module):
    adapter = get_adapter("rouge-metric-py", "rouge-1")
    init = inspect.signature(py_rouge_module.PyRouge.__init__).parameters
    declared = adapter.default_options("rouge-w")
    assert init["multi_ref_mode"].default == "average" and declared.multi_ref == "pooled"
    assert init["mode"].default == "average" and declared.corpus_average == "f-of-means"
    assert f"alpha={init['alpha'].default:g}" == declared.f_measure
    assert init["rouge_w_weight"].default == declared.weight
    assert init["skip_gap"].default is None and declared.skip == -1
    assert py_rouge_module.PyRouge._default_tokenizer(" a  b\tc ") == ["a", "b", "c"]
    assert declared.tokenize == "none"
    assert py_rouge_module.PyRouge._default_sentencizer("a\nb") == ["a", "b"]
    assert (declared.wlcs, declared.su_unigrams) == ("rouge155", "rouge155")

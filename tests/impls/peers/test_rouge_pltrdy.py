"""The rouge-pltrdy adapter (pltrdy's ``rouge``, PyPI ``rouge``, loaded from a
folder of its own) against direct calls of its ``Rouge.get_scores``.

Every expected value comes from calling the library itself, never from the
adapter's own output.  The tests skip when ``metricdiff install-peers`` has not
been run.
"""

from __future__ import annotations

import inspect

import pytest

from helpers import require_impl
from metricdiff.impls import UnsupportedOption, get_adapter, isolated_peers
from metricdiff.impls.peers import _isolated
from rouge_peer_data import SINGLE_REF, assert_raises_like, assert_rpf, segments


@pytest.fixture(scope="module")
def pltrdy():
    require_impl("rouge-pltrdy", "rouge-1")
    return _isolated.load(isolated_peers()["rouge-pltrdy"])


PLTRDY_METRICS = ["rouge-1", "rouge-2", "rouge-5", "rouge-l", "rouge-lsum"]


@pytest.mark.parametrize("corpus", sorted(SINGLE_REF))
@pytest.mark.parametrize("metric", PLTRDY_METRICS)
@pytest.mark.parametrize("counts", ["set", "multiset"])
def test_pltrdy_matches_get_scores(pltrdy, corpus, metric, counts):
    adapter = get_adapter("rouge-pltrdy", metric)
    options = adapter.options(metric, {"counts": counts})
    hyps = [hyp for hyp, _ in segments(SINGLE_REF[corpus])]
    refs = [seg[0] for _, seg in segments(SINGLE_REF[corpus])]
    key = "rouge-l" if metric == "rouge-lsum" else metric
    exclusive = counts == "set"
    try:
        with _isolated.active(isolated_peers()["rouge-pltrdy"]) as peer:
            rouge = peer.module.Rouge(metrics=[key], exclusive=exclusive)
            individual = rouge.get_scores(hyps, refs)
            average = rouge.get_scores(hyps, refs, avg=True)[key]
            raw = peer.module.Rouge(metrics=[key], exclusive=exclusive,
                                    raw_results=True).get_scores(hyps, refs)
    except Exception as error:  # the library refuses the input: so does the adapter
        assert_raises_like(error, adapter, metric, SINGLE_REF[corpus], options)
        return
    got = adapter.sentence_scores(metric, *SINGLE_REF[corpus], options)
    for result, score, counted in zip(got, individual, raw, strict=True):
        assert_rpf(result, score[key]["r"], score[key]["p"], score[key]["f"])
        assert (result.matches, result.hyp_total, result.ref_total) == (
            counted[key]["overlap"], counted[key]["hyp"], counted[key]["ref"])
    corpus_result = adapter.corpus_score(metric, *SINGLE_REF[corpus], options)
    assert_rpf(corpus_result, average["r"], average["p"], average["f"])


def test_pltrdy_quirks(pltrdy):
    adapter = get_adapter("rouge-pltrdy", "rouge-1")
    options = adapter.options("rouge-1")
    with pytest.raises(ValueError, match="Hypothesis is empty"):
        adapter.corpus_score("rouge-1", [""], [["a b"]], options)
    with pytest.raises(ValueError, match="Hypothesis is empty"):
        adapter.corpus_score("rouge-1", ["..."], [["a b"]], options)
    # periods separate tokens and vanish; repeated n-grams count once (a set)
    assert adapter.corpus_score("rouge-1", ["3.5 km"], [["3 5 km"]], options).fmeasure == (
        pytest.approx(1.0, abs=1e-8))
    repeated = adapter.corpus_score("rouge-1", ["the the the"], [["the cat"]], options)
    assert (repeated.matches, repeated.hyp_total, repeated.ref_total) == (1, 1, 2)
    # exclusive=False ROUGE-L sums the LCS of every sentence pair: recall above 1
    multiset = get_adapter("rouge-pltrdy", "rouge-l")
    over = multiset.corpus_score("rouge-l", ["a b. a b"], [["a b"]],
                                 multiset.options("rouge-l", {"counts": "multiset"}))
    assert over.recall == 2.0
    with pytest.raises(UnsupportedOption, match="one reference per hypothesis"):
        adapter.corpus_score("rouge-1", ["a"], [["a", "b"]], options)


def test_pltrdy_lowercase(pltrdy):
    adapter = get_adapter("rouge-pltrdy", "rouge-2")
    options = adapter.options("rouge-2", {"lowercase": "unicode"})
    result = adapter.corpus_score("rouge-2", ["The CAT sat"], [["the cat Sat"]], options)
    with _isolated.active(isolated_peers()["rouge-pltrdy"]) as peer:
        expected = peer.module.Rouge(metrics=["rouge-2"]).get_scores("the cat sat", "the cat sat")
    assert result.fmeasure == expected[0]["rouge-2"]["f"]


def test_pltrdy_declared_profile(pltrdy):
    declared = get_adapter("rouge-pltrdy", "rouge-1").default_options("rouge-l")
    init = inspect.signature(pltrdy.module.Rouge.__init__).parameters
    assert init["exclusive"].default is True and declared.counts == "set"
    assert (declared.sentence_split, declared.empty_policy) == ("period", "error")
    assert pltrdy.version == "1.0.1"

"""The NLTK adapter against direct calls of ``nltk.translate.bleu_score``.

Every expected value comes from calling the library itself, never from the
adapter's own output; the adapter must reproduce it exactly (the same floating
point computation, so ``==`` rather than a tolerance, except where the adapter
multiplies a 0-1 score by 100).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import pytest

from bleu_peer_data import CHINESE, CORPORA, RAW
from metricdiff.impls import UnsupportedOption, get_adapter
from metricdiff.impls.text.tokenizers import get_tokenizer

# -------------------------------------------------------------------------- NLTK


@pytest.fixture
def nltk_bleu():
    pytest.importorskip("nltk")
    from nltk.translate import bleu_score

    return bleu_score


def split(hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenize: str = "none"):
    tokenizer = get_tokenizer(tokenize)
    return [tokenizer(h) for h in hyps], [[tokenizer(r) for r in seg] for seg in refs]


NLTK_METHODS = {
    "float-min": 0, "floor": 1, "add-k": 2, "exp": 3, "cc4": 4, "cc5": 5, "cc6": 6, "cc7": 7,
}


def nltk_direct(bleu_score, function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("smoothing", sorted(NLTK_METHODS))
def test_nltk_corpus_matches_corpus_bleu(nltk_bleu, corpus, smoothing):
    hyps, refs = CORPORA[corpus]
    hyp_tokens, ref_tokens = split(hyps, refs)
    adapter = get_adapter("nltk")
    options = adapter.options("bleu", {"smoothing": smoothing})
    smoother = getattr(nltk_bleu.SmoothingFunction(), f"method{NLTK_METHODS[smoothing]}")
    try:
        expected = nltk_direct(nltk_bleu, nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens,
                               smoothing_function=smoother)
    except AssertionError:  # method6 asserts on a zero trigram precision
        with pytest.raises(AssertionError):
            adapter.corpus_score("bleu", hyps, refs, options)
        return
    result = adapter.corpus_score("bleu", hyps, refs, options)
    assert result.score == 100 * expected


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_nltk_statistics_come_from_nltk_functions(nltk_bleu, corpus):
    hyps, refs = CORPORA[corpus]
    hyp_tokens, ref_tokens = split(hyps, refs)
    adapter = get_adapter("nltk")
    result = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu"))
    counts = [
        sum(nltk_bleu.modified_precision(r, h, n).numerator
            for r, h in zip(ref_tokens, hyp_tokens, strict=True))
        for n in range(1, 5)
    ]
    totals = [
        sum(nltk_bleu.modified_precision(r, h, n).denominator
            for r, h in zip(ref_tokens, hyp_tokens, strict=True))
        for n in range(1, 5)
    ]
    hyp_len = sum(len(h) for h in hyp_tokens)
    ref_len = sum(nltk_bleu.closest_ref_length(r, len(h))
                  for r, h in zip(ref_tokens, hyp_tokens, strict=True))
    assert list(result.counts) == counts
    assert list(result.totals) == totals
    assert (result.sys_len, result.ref_len) == (hyp_len, ref_len)
    assert result.bp == nltk_bleu.brevity_penalty(ref_len, hyp_len)


@pytest.mark.parametrize("smoothing", ["float-min", "floor", "add-k", "exp"])
def test_nltk_precisions_are_the_smoothed_ones(nltk_bleu, smoothing):
    # Methods 0-3 depend on the Fractions only, so the test can make the call.
    hyps, refs = CORPORA["multi_ref"]
    hyp_tokens, ref_tokens = split(hyps, refs)
    fractions = [
        nltk_bleu.Fraction(
            sum(nltk_bleu.modified_precision(r, h, n).numerator
                for r, h in zip(ref_tokens, hyp_tokens, strict=True)),
            sum(nltk_bleu.modified_precision(r, h, n).denominator
                for r, h in zip(ref_tokens, hyp_tokens, strict=True)),
            _normalize=False,
        )
        for n in range(1, 5)
    ]
    smoother = getattr(nltk_bleu.SmoothingFunction(), f"method{NLTK_METHODS[smoothing]}")
    expected = nltk_direct(nltk_bleu, smoother, fractions)
    adapter = get_adapter("nltk")
    result = adapter.corpus_score("bleu", hyps, refs,
                                  adapter.options("bleu", {"smoothing": smoothing}))
    assert list(result.precisions) == [100 * float(p) for p in expected]


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("smoothing", sorted(NLTK_METHODS))
def test_nltk_precisions_reproduce_the_score(nltk_bleu, corpus, smoothing):
    # For methods 4-7 the adapter repeats corpus_bleu's smoothing call (last
    # segment, pooled length); corpus_bleu's own formula on those precisions
    # must give back the score corpus_bleu returned.
    hyps, refs = CORPORA[corpus]
    adapter = get_adapter("nltk")
    options = adapter.options("bleu", {"smoothing": smoothing})
    try:
        result = adapter.corpus_score("bleu", hyps, refs, options)
    except AssertionError:  # method6 on an input without trigram matches
        return
    if result.counts[0] == 0:
        assert result.score == 0
        return
    terms = (w * math.log(p / 100) for w, p in zip(options.order_weights(), result.precisions,
                                                    strict=True) if p > 0)
    assert 100 * result.bp * math.exp(math.fsum(terms)) == pytest.approx(result.score,
                                                                         rel=1e-12)


@pytest.mark.parametrize(
    ("smoothing", "parameter", "value"),
    [("floor", "epsilon", 0.01), ("cc4", "k", 2.0), ("cc6", "alpha", 1.5), ("cc7", "k", 3.0)],
)
def test_nltk_smooth_value(nltk_bleu, smoothing, parameter, value):
    hyps, refs = CORPORA["long"]
    hyp_tokens, ref_tokens = split(hyps, refs)
    smoother = getattr(nltk_bleu.SmoothingFunction(**{parameter: value}),
                       f"method{NLTK_METHODS[smoothing]}")
    expected = nltk_direct(nltk_bleu, nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens,
                           smoothing_function=smoother)
    adapter = get_adapter("nltk")
    options = adapter.options("bleu", {"smoothing": smoothing, "smooth_value": str(value)})
    assert adapter.corpus_score("bleu", hyps, refs, options).score == 100 * expected


@pytest.mark.parametrize(
    ("max_order", "weights"),
    [("2", None), ("1", None), ("5", None), ("4", "0.1,0.2,0.3,0.4"), ("3", "1,0,2")],
)
def test_nltk_weights(nltk_bleu, max_order, weights):
    hyps, refs = CORPORA["long"]
    hyp_tokens, ref_tokens = split(hyps, refs)
    overrides = {"max_order": max_order}
    if weights is not None:
        overrides["weights"] = weights
    adapter = get_adapter("nltk")
    options = adapter.options("bleu", overrides)
    expected = nltk_direct(nltk_bleu, nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens,
                           weights=options.order_weights())
    result = adapter.corpus_score("bleu", hyps, refs, options)
    assert result.score == 100 * expected
    assert len(result.counts) == int(max_order)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_nltk_effective_order_is_auto_reweigh(nltk_bleu, corpus):
    hyps, refs = CORPORA[corpus]
    hyp_tokens, ref_tokens = split(hyps, refs)
    adapter = get_adapter("nltk")
    options = adapter.options("bleu", {"empty_order": "effective-order"})
    expected = nltk_direct(nltk_bleu, nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens,
                           auto_reweigh=True)
    assert adapter.corpus_score("bleu", hyps, refs, options).score == 100 * expected
    results = adapter.sentence_scores("bleu", hyps, refs, options)
    for result, h, r in zip(results, hyp_tokens, ref_tokens, strict=True):
        expected = nltk_direct(nltk_bleu, nltk_bleu.sentence_bleu, r, h, auto_reweigh=True)
        assert result.score == 100 * expected


@pytest.mark.parametrize("smoothing", sorted(NLTK_METHODS))
def test_nltk_sentence_scores(nltk_bleu, smoothing):
    adapter = get_adapter("nltk")
    options = adapter.options("bleu", {"smoothing": smoothing})
    smoother = getattr(nltk_bleu.SmoothingFunction(), f"method{NLTK_METHODS[smoothing]}")
    hyps, refs = CORPORA["long"]
    hyp_tokens, ref_tokens = split(hyps, refs)
    results = adapter.sentence_scores("bleu", hyps, refs, options)
    for result, h, r in zip(results, hyp_tokens, ref_tokens, strict=True):
        expected = nltk_direct(nltk_bleu, nltk_bleu.sentence_bleu, r, h,
                               smoothing_function=smoother)
        assert result.score == 100 * expected


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char", "zh"])
@pytest.mark.parametrize("lowercase", ["none", "unicode"])
def test_nltk_tokenizes_with_metricdiff(nltk_bleu, tokenize, lowercase):
    adapter = get_adapter("nltk")
    options = adapter.options("bleu", {"tokenize": tokenize, "lowercase": lowercase})
    for hyps, refs in (RAW, CHINESE):
        texts = [h.lower() if lowercase == "unicode" else h for h in hyps]
        ref_texts = [[r.lower() if lowercase == "unicode" else r for r in seg] for seg in refs]
        hyp_tokens, ref_tokens = split(texts, ref_texts, tokenize)
        expected = nltk_direct(nltk_bleu, nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens)
        assert adapter.corpus_score("bleu", hyps, refs, options).score == 100 * expected


def test_nltk_default_profile(nltk_bleu):
    adapter = get_adapter("nltk")
    declared = adapter.default_options("bleu")
    assert declared.order_weights() == (0.25, 0.25, 0.25, 0.25)
    assert (declared.smoothing, declared.empty_order, declared.all_zero) == (
        "float-min", "denominator-one", "zero",
    )
    for hyps, refs in CORPORA.values():
        hyp_tokens, ref_tokens = split(hyps, refs)
        expected = nltk_direct(nltk_bleu, nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens)
        assert adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu")).score == (
            100 * expected
        )


def test_nltk_suppresses_its_warnings(nltk_bleu):
    adapter = get_adapter("nltk")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = adapter.corpus_score("bleu", ["a b c"], [["a b d"]], adapter.options("bleu"))
    assert 0 < result.score < 1e-50  # float-min: tiny, not 0


def test_nltk_empty_and_missing_references(nltk_bleu):
    adapter = get_adapter("nltk")
    hyps = ["a", "a b"]
    refs: list[list[str | None]] = [["", "a b c"], ["a b", None]]
    kept = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu"))
    expected = nltk_direct(nltk_bleu, nltk_bleu.corpus_bleu,
                           [[[], ["a", "b", "c"]], [["a", "b"]]], [["a"], ["a", "b"]])
    assert kept.score == 100 * expected
    assert kept.ref_len == 0 + 2
    dropped = adapter.corpus_score(
        "bleu", hyps, refs, adapter.options("bleu", {"empty_reference": "dropped"})
    )
    expected = nltk_direct(nltk_bleu, nltk_bleu.corpus_bleu,
                           [[["a", "b", "c"]], [["a", "b"]]], [["a"], ["a", "b"]])
    assert dropped.score == 100 * expected
    assert dropped.ref_len == 3 + 2


@pytest.mark.parametrize(
    "overrides",
    [
        {"smoothing": "none"},
        {"smoothing": "epsilon"},
        {"smoothing": "add-k", "smooth_value": "2"},
        {"empty_order": "effective-order", "weights": "0.1,0.2,0.3,0.4"},
        {"empty_order": "effective-order", "max_order": "3"},
        {"empty_order": "zero"},
        {"empty_order": "ignore"},
        {"ref_length": "average"},
        {"closest_tie": "first"},
        {"all_zero": "smooth"},
        {"level": "sentence-mean"},
        {"smooth_orders": "all"},
        {"empty_policy": "error"},
    ],
)
def test_nltk_refuses(overrides):
    with pytest.raises(UnsupportedOption, match="nltk cannot honour"):
        get_adapter("nltk").options("bleu", overrides)


def test_nltk_accepts_add_k_with_its_own_k():
    options = get_adapter("nltk").options("bleu", {"smoothing": "add-k", "smooth_value": "1"})
    assert options.smooth_value == 1.0

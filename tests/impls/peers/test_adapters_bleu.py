"""The sacrebleu, NLTK and pycocoevalcap adapters against direct calls of their
libraries.

Every expected value comes from calling the library itself, never from the
adapter's own output; the adapter must reproduce it exactly (the same floating
point computation, so ``==`` rather than a tolerance, except where the adapter
multiplies a 0-1 score by 100).
"""

from __future__ import annotations

import contextlib
import io
import math
import warnings
from collections.abc import Sequence

import pytest

from helpers import require_tokenizer
from metricdiff.impls import UnsupportedOption, adapter_names, get_adapter
from metricdiff.impls.text.tokenizers import get_tokenizer
from metricdiff.profiles import AXES, BleuOptions

# Small corpora: (hypotheses, per-segment references).  Texts are whitespace
# tokenized already, so that tokenize=none means the same thing everywhere.
CORPORA: dict[str, tuple[list[str], list[list[str]]]] = {
    "single": (["the cat sat on the mat"], [["the cat is on the mat"]]),
    "multi_ref": (
        ["the cat sat on the mat", "a quick brown fox jumps over the dog"],
        [
            ["the cat is on the mat", "there is a cat on the mat"],
            ["the quick brown fox jumps over the lazy dog", "a fast brown fox leaps over a dog"],
        ],
    ),
    "short_hyps": (["a b", "c", "the cat"], [["a b c"], ["c d"], ["the cat sat"]]),
    "no_4gram": (
        ["a b c d e f", "x y z w v"],
        [["a b c q d e f"], ["x y z w v u"]],
    ),
    "tie": (["a b c d e"], [["a b c d", "a b c d e f"]]),
    "long": (
        [
            "the quick brown fox jumps over the lazy dog today",
            "it is a truth universally acknowledged that a single man",
            "in possession of a good fortune must be in want of a wife",
        ],
        [
            [
                "the quick brown fox jumped over the lazy dog",
                "a quick brown fox jumps over a lazy dog",
            ],
            ["it is a truth universally acknowledged that a single man in possession"],
            ["possessing a good fortune he must want a wife", "in possession of a fortune"],
        ],
    ),
}

# Raw text for the tokenizers: punctuation, numbers, case, entities.
RAW = (
    ["Hello, world! It's 3.5 km (roughly).", "The Cat SAT on the mat; 1,000 times."],
    [
        ["Hello world, it's 3.5 km roughly.", "Hi, world! It is 3.5 km."],
        ["The cat sat on the mat 1,000 times.", "the cat SAT on a mat; 1000 times"],
    ],
)
CHINESE = (["我喜欢吃苹果。", "今天天气很好"], [["我爱吃苹果。"], ["今天的天气很好", "天气很好"]])
JAPANESE = (["これは日本語の文です。"], [["これは日本語の文章です。"]])
KOREAN = (["한국어 문장입니다."], [["한국어 문장이에요."]])


def streams(refs: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """sacrebleu's reference streams, padded with None (written here, not taken
    from the adapter, so the test does not share its code)."""
    width = max(len(seg) for seg in refs)
    return [[seg[i] if i < len(seg) else None for seg in refs] for i in range(width)]


# --------------------------------------------------------------------- sacrebleu


@pytest.fixture
def sacrebleu():
    return pytest.importorskip("sacrebleu")


def test_adapters_are_registered():
    assert {"sacrebleu", "nltk", "pycocoevalcap"} <= set(adapter_names())


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize(
    ("smoothing", "smooth_value"),
    [("exp", None), ("none", None), ("floor", None), ("floor", 0.5), ("add-k", None),
     ("add-k", 0.3)],
)
@pytest.mark.parametrize("effective", [False, True])
def test_sacrebleu_corpus_matches_corpus_bleu(sacrebleu, corpus, smoothing, smooth_value,
                                               effective):
    hyps, refs = CORPORA[corpus]
    adapter = get_adapter("sacrebleu")
    overrides = {"tokenize": "none", "smoothing": smoothing}
    if smooth_value is not None:
        overrides["smooth_value"] = str(smooth_value)
    if effective:
        overrides["empty_order"] = "effective-order"
    result = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu", overrides))
    expected = sacrebleu.corpus_bleu(
        hyps, streams(refs), smooth_method=smoothing, smooth_value=smooth_value,
        tokenize="none", use_effective_order=effective,
    )
    assert result.score == expected.score
    assert list(result.precisions) == list(expected.precisions)
    assert result.bp == expected.bp
    assert (result.sys_len, result.ref_len) == (expected.sys_len, expected.ref_len)
    # The statistics before smoothing: sacrebleu's counts with smoothing=none
    # (add-k adds k into the counts it returns).
    unsmoothed = sacrebleu.corpus_bleu(hyps, streams(refs), smooth_method="none",
                                       tokenize="none")
    assert list(result.counts) == unsmoothed.counts
    assert list(result.totals) == unsmoothed.totals


def test_sacrebleu_corpus_longer_than_one_extraction(sacrebleu):
    """The adapter extracts sacrebleu's statistics a slice of segments at a time,
    to bound the library's reference cache; the corpus score must be the one
    ``corpus_bleu`` gives the whole corpus in one call (expected values: that
    call), here over more than two slices with a segment of two references and
    one whose only reference is empty in each slice."""
    from metricdiff.impls.peers import sacrebleu as adapter_module

    size = 2 * adapter_module.EXTRACTED_AT_ONCE + 3
    words = ["the", "cat", "sat", "on", "a", "mat", "while", "dogs", "ran", "far", "away"]
    hyps = [" ".join(words[i % 7 : i % 7 + 3 + i % 5]) for i in range(size)]
    refs: list[list[str]] = [[" ".join(words[i % 5 : i % 5 + 6])] for i in range(size)]
    for start in range(0, size, adapter_module.EXTRACTED_AT_ONCE):
        refs[start + 1].append("a cat sat on the mat")
        refs[start + 2] = [""]
    adapter = get_adapter("sacrebleu")
    result = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu"))
    expected = sacrebleu.corpus_bleu(hyps, streams(refs))
    assert result.score == expected.score
    assert list(result.counts) == expected.counts
    assert list(result.totals) == expected.totals
    assert (result.sys_len, result.ref_len) == (expected.sys_len, expected.ref_len)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("order", [1, 2, 3, 5])
def test_sacrebleu_max_order(sacrebleu, corpus, order):
    from sacrebleu.metrics import BLEU

    hyps, refs = CORPORA[corpus]
    adapter = get_adapter("sacrebleu")
    options = adapter.options("bleu", {"tokenize": "none", "max_order": str(order)})
    result = adapter.corpus_score("bleu", hyps, refs, options)
    expected = BLEU(tokenize="none", max_ngram_order=order).corpus_score(hyps, streams(refs))
    assert result.score == expected.score
    assert list(result.counts) == expected.counts
    assert len(result.precisions) == order


@pytest.mark.parametrize(
    "tokenize", ["none", "13a", "intl", "zh", "char", "zh-sacrebleu", "ja-mecab", "ko-mecab"]
)
@pytest.mark.parametrize("lowercase", [False, True])
def test_sacrebleu_tokenizers_and_case(sacrebleu, tokenize, lowercase):
    require_tokenizer(tokenize)
    sacrebleu_name = "zh" if tokenize == "zh-sacrebleu" else tokenize
    adapter = get_adapter("sacrebleu")
    options = adapter.options(
        "bleu", {"tokenize": tokenize, "lowercase": "unicode" if lowercase else "none"}
    )
    for hyps, refs in (RAW, CHINESE, JAPANESE, KOREAN):
        result = adapter.corpus_score("bleu", hyps, refs, options)
        expected = sacrebleu.corpus_bleu(hyps, streams(refs), tokenize=sacrebleu_name,
                                         lowercase=lowercase)
        assert result.score == expected.score
        assert list(result.counts) == expected.counts
        assert list(result.totals) == expected.totals
        assert (result.sys_len, result.ref_len) == (expected.sys_len, expected.ref_len)


def test_sacrebleu_default_profile_is_bleu_defaults(sacrebleu):
    from sacrebleu.metrics import BLEU

    adapter = get_adapter("sacrebleu")
    declared = adapter.default_options("bleu")
    bleu = BLEU()
    assert declared.tokenize == bleu.tokenizer.signature() == "13a"
    assert declared.smoothing == bleu.smooth_method == "exp"
    assert declared.max_order == bleu.max_ngram_order == 4
    assert declared.lowercase == ("unicode" if bleu.lowercase else "none")
    assert declared.empty_order == ("effective-order" if bleu.effective_order else "zero")
    assert declared.smooth_value is bleu.smooth_value is None
    for hyps, refs in (RAW, *CORPORA.values()):
        result = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu"))
        assert result.score == sacrebleu.corpus_bleu(hyps, streams(refs)).score


def test_sacrebleu_all_zero_returns_early(sacrebleu):
    # No match at all: compute_bleu returns 0 before smoothing, even with floor.
    adapter = get_adapter("sacrebleu")
    options = adapter.options("bleu", {"tokenize": "none", "smoothing": "floor"})
    result = adapter.corpus_score("bleu", ["x y z"], [["a b c"]], options)
    expected = sacrebleu.corpus_bleu(["x y z"], [["a b c"]], smooth_method="floor",
                                     tokenize="none")
    assert result.score == expected.score == 0.0
    assert list(result.precisions) == expected.precisions == [0.0] * 4


def test_sacrebleu_closest_tie_takes_the_shorter(sacrebleu):
    adapter = get_adapter("sacrebleu")
    for order in (["a b c d", "a b c d e f"], ["a b c d e f", "a b c d"]):
        result = adapter.corpus_score(
            "bleu", ["a b c d e"], [order], adapter.options("bleu", {"tokenize": "none"})
        )
        expected = sacrebleu.corpus_bleu(["a b c d e"], streams([order]), tokenize="none")
        assert result.ref_len == expected.ref_len == 4


def test_sacrebleu_empty_and_missing_references(sacrebleu):
    adapter = get_adapter("sacrebleu")
    hyps = ["a b c d", "a b"]
    refs: list[list[str | None]] = [["a b c d e", ""], ["a b", None]]
    kept = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu", {"tokenize": "none"}))
    expected = sacrebleu.corpus_bleu(hyps, [["a b c d e", "a b"], ["", None]], tokenize="none")
    assert (kept.score, kept.ref_len) == (expected.score, expected.ref_len)
    dropped = adapter.corpus_score(
        "bleu", hyps, refs,
        adapter.options("bleu", {"tokenize": "none", "empty_reference": "dropped"}),
    )
    expected = sacrebleu.corpus_bleu(hyps, [["a b c d e", "a b"], [None, None]], tokenize="none")
    assert (dropped.score, dropped.ref_len) == (expected.score, expected.ref_len)


def test_sacrebleu_empty_reference_changes_closest_length(sacrebleu):
    adapter = get_adapter("sacrebleu")
    hyps, refs = ["a"], [["", "a b c"]]
    kept = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu", {"tokenize": "none"}))
    dropped = adapter.corpus_score(
        "bleu", hyps, refs,
        adapter.options("bleu", {"tokenize": "none", "empty_reference": "dropped"}),
    )
    assert kept.ref_len == sacrebleu.corpus_bleu(hyps, [[""], ["a b c"]], tokenize="none").ref_len
    assert dropped.ref_len == sacrebleu.corpus_bleu(
        hyps, [[None], ["a b c"]], tokenize="none"
    ).ref_len
    assert (kept.ref_len, dropped.ref_len) == (0, 3)


@pytest.mark.parametrize("effective", [False, True])
def test_sacrebleu_sentence_scores(sacrebleu, effective):
    from sacrebleu.metrics import BLEU

    adapter = get_adapter("sacrebleu")
    overrides = {"tokenize": "none"}
    if effective:
        overrides["empty_order"] = "effective-order"
    options = adapter.options("bleu", overrides)
    bleu = BLEU(tokenize="none", effective_order=effective)
    for hyps, refs in CORPORA.values():
        results = adapter.sentence_scores("bleu", hyps, refs, options)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = [bleu.sentence_score(h, r) for h, r in zip(hyps, refs, strict=True)]
        assert [r.score for r in results] == [e.score for e in expected]
        assert [list(r.counts) for r in results] == [e.counts for e in expected]


@pytest.mark.parametrize(
    "overrides",
    [
        {"smoothing": "cc4"},
        {"smoothing": "float-min"},
        {"smoothing": "epsilon"},
        {"lowercase": "ascii"},
        {"lowercase_stage": "after-tokenize"},
        {"weights": "0.1,0.2,0.3,0.4"},
        {"ref_length": "shortest"},
        {"closest_tie": "first"},
        {"empty_order": "denominator-one"},
        {"empty_order": "ignore"},
        {"all_zero": "smooth"},
        {"level": "sentence-mean"},
        {"smooth_orders": "all"},
        {"tokenize": "rouge-score"},
        {"tokenize": "nltk-word"},
        {"empty_policy": "one"},
    ],
)
def test_sacrebleu_refuses(overrides):
    with pytest.raises(UnsupportedOption, match="sacrebleu cannot honour"):
        get_adapter("sacrebleu").options("bleu", overrides)


def test_sacrebleu_refuses_options_it_was_not_given_through_options(sacrebleu):
    # corpus_score re-checks, so options built for another implementation are
    # refused rather than silently approximated.
    with pytest.raises(UnsupportedOption):
        get_adapter("sacrebleu").corpus_score(
            "bleu", ["a"], [["a"]], BleuOptions(smoothing="cc5")
        )


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


# ----------------------------------------------------------------- pycocoevalcap


@pytest.fixture
def coco():
    pytest.importorskip("pycocoevalcap")
    from pycocoevalcap.bleu import bleu, bleu_scorer

    return bleu, bleu_scorer


def coco_inputs(hyps, refs):
    return {i: list(seg) for i, seg in enumerate(refs)}, {i: [h] for i, h in enumerate(hyps)}


def quiet(function, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()):
        return function(*args, **kwargs)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_pycocoevalcap_matches_bleu_compute_score(coco, corpus, order):
    bleu, _ = coco
    hyps, refs = CORPORA[corpus]
    adapter = get_adapter("pycocoevalcap")
    options = adapter.options("bleu", {"max_order": str(order)})
    scores, per_segment = quiet(bleu.Bleu(order).compute_score, *coco_inputs(hyps, refs))
    assert adapter.corpus_score("bleu", hyps, refs, options).score == 100 * scores[order - 1]
    sentences = adapter.sentence_scores("bleu", hyps, refs, options)
    assert [s.score for s in sentences] == [100 * s for s in per_segment[order - 1]]


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("ref_length", ["closest", "shortest", "average"])
def test_pycocoevalcap_ref_length_options(coco, corpus, ref_length):
    _, bleu_scorer = coco
    hyps, refs = CORPORA[corpus]
    scorer = bleu_scorer.BleuScorer(n=4)
    for hyp, seg in zip(hyps, refs, strict=True):
        scorer += (hyp, seg)
    scores, _ = quiet(scorer.compute_score, option=ref_length)
    adapter = get_adapter("pycocoevalcap")
    result = adapter.corpus_score("bleu", hyps, refs,
                                  adapter.options("bleu", {"ref_length": ref_length}))
    assert result.score == 100 * scores[3]
    assert result.ref_len == scorer._reflen
    assert result.sys_len == scorer._testlen
    assert list(result.counts) == [sum(c["correct"][k] for c in scorer.ctest) for k in range(4)]
    assert list(result.totals) == [sum(c["guess"][k] for c in scorer.ctest) for k in range(4)]


def test_pycocoevalcap_default_profile(coco):
    bleu, _ = coco
    adapter = get_adapter("pycocoevalcap")
    declared = adapter.default_options("bleu")
    assert (declared.smoothing, declared.all_zero, declared.ref_length) == (
        "epsilon", "smooth", "closest",
    )
    for hyps, refs in CORPORA.values():
        scores, _ = quiet(bleu.Bleu().compute_score, *coco_inputs(hyps, refs))
        assert adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu")).score == (
            100 * scores[3]
        )


def test_pycocoevalcap_no_match_is_tiny_not_zero(coco):
    bleu, _ = coco
    adapter = get_adapter("pycocoevalcap")
    scores, _ = quiet(bleu.Bleu(4).compute_score, {0: ["a b c"]}, {0: ["x y z"]})
    result = adapter.corpus_score("bleu", ["x y z"], [["a b c"]], adapter.options("bleu"))
    assert result.score == 100 * scores[3]
    assert 0 < result.score < 1e-6


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char"])
@pytest.mark.parametrize("lowercase", ["none", "unicode"])
def test_pycocoevalcap_pretokenized(coco, tokenize, lowercase):
    bleu, _ = coco
    tokenizer = get_tokenizer(tokenize)

    def text(segment: str) -> str:
        return " ".join(tokenizer(segment.lower() if lowercase == "unicode" else segment))

    hyps, refs = RAW
    adapter = get_adapter("pycocoevalcap")
    options = adapter.options("bleu", {"tokenize": tokenize, "lowercase": lowercase})
    scores, _ = quiet(
        bleu.Bleu(4).compute_score,
        *coco_inputs([text(h) for h in hyps], [[text(r) for r in seg] for seg in refs]),
    )
    assert adapter.corpus_score("bleu", hyps, refs, options).score == 100 * scores[3]


def test_pycocoevalcap_prints_nothing(coco, capsys):
    adapter = get_adapter("pycocoevalcap")
    hyps, refs = CORPORA["multi_ref"]
    adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu"))
    assert capsys.readouterr().out == ""


def test_pycocoevalcap_segment_without_reference(coco):
    bleu, _ = coco
    from metricdiff.errors import MissingReferenceError

    # The library itself asserts.
    with pytest.raises(AssertionError):
        quiet(bleu.Bleu(4).compute_score, {0: []}, {0: ["a b"]})
    adapter = get_adapter("pycocoevalcap")
    with pytest.raises(MissingReferenceError, match="segment 2 has none"):
        adapter.corpus_score("bleu", ["a", "a b"], [["a"], [None]], adapter.options("bleu"))
    with pytest.raises(MissingReferenceError):
        adapter.corpus_score(
            "bleu", ["a"], [[""]], adapter.options("bleu", {"empty_reference": "dropped"})
        )


def test_pycocoevalcap_cannot_count_beyond_4_grams(coco):
    # Why max_order > 4 is refused: the scorer cooks 4-grams whatever its n is.
    bleu, _ = coco
    with pytest.raises(IndexError):
        quiet(bleu.Bleu(5).compute_score, {0: ["a b c d e f"]}, {0: ["a b c d e f"]})
    with pytest.raises(UnsupportedOption, match="max_order"):
        get_adapter("pycocoevalcap").options("bleu", {"max_order": "5"})


@pytest.mark.parametrize(
    "overrides",
    [
        {"smoothing": "none"},
        {"smoothing": "exp"},
        {"smooth_value": "0.1"},
        {"weights": "0.1,0.2,0.3,0.4"},
        {"closest_tie": "first"},
        {"empty_order": "effective-order"},
        {"all_zero": "zero"},
        {"level": "sentence-mean"},
        {"max_order": "6"},
        {"empty_policy": "one"},
    ],
)
def test_pycocoevalcap_refuses(overrides):
    with pytest.raises(UnsupportedOption, match="pycocoevalcap cannot honour"):
        get_adapter("pycocoevalcap").options("bleu", overrides)


# ------------------------------------------------------------------------ shared


@pytest.mark.parametrize("name", ["sacrebleu", "nltk", "pycocoevalcap"])
def test_adapter_metadata(name):
    adapter = get_adapter(name)
    assert adapter.name == name
    assert adapter.metrics == ("bleu",)
    assert adapter.install_hint == "pip install 'metricdiff[peers]'"
    assert adapter.modules
    pytest.importorskip(adapter.modules[0])
    assert adapter.unavailable_reason() is None
    assert adapter.version() not in ("unknown", "not-installed")
    assert adapter.signature("bleu", adapter.default_options("bleu")).startswith(
        f"bleu|impl:{name}-"
    )
    with pytest.raises(UnsupportedOption):
        adapter.options("rouge-l")


@pytest.mark.parametrize("name", ["sacrebleu", "nltk", "pycocoevalcap"])
def test_default_options_validate(name):
    # the declared profile is accepted as is, and every settable axis is a real axis
    adapter = get_adapter(name)
    assert adapter.options("bleu") == adapter.default_options("bleu")
    assert set(adapter.settable) <= set(AXES)

"""The sacrebleu adapter against direct calls of ``sacrebleu.metrics.BLEU``.

Every expected value comes from calling the library itself, never from the
adapter's own output; the adapter must reproduce it exactly (the same floating
point computation, so ``==`` rather than a tolerance).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import pytest

from bleu_peer_data import CHINESE, CORPORA, JAPANESE, KOREAN, RAW
from helpers import require_tokenizer
from metricdiff.impls import UnsupportedOption, get_adapter
from metricdiff.profiles import BleuOptions


def streams(refs: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """sacrebleu's reference streams, padded with None (written here, not taken
    from the adapter, so the test does not share its code)."""
    width = max(len(seg) for seg in refs)
    return [[seg[i] if i < len(seg) else None for seg in refs] for i in range(width)]


# --------------------------------------------------------------------- sacrebleu


@pytest.fixture
def sacrebleu():
    return pytest.importorskip("sacrebleu")


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

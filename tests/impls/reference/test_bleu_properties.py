"""Properties the reference BLEU must have whatever the input (Hypothesis)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from metricdiff.impls.reference.bleu import (
    bleu_from_statistics,
    corpus_bleu,
    segment_tokens,
    sentence_bleu,
    text_statistics,
)
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuStats

# A small vocabulary makes matches, repeats and ties common.
words = st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "dog", ".", ","])
segments = st.lists(words, min_size=0, max_size=12).map(" ".join)
references = st.lists(segments, min_size=1, max_size=4)
smoothings = st.sampled_from(
    ["none", "floor", "add-k", "exp", "cc4", "cc5", "cc6", "cc7", "epsilon", "float-min"]
)
empty_orders = st.sampled_from(["zero", "denominator-one", "ignore", "effective-order"])


@st.composite
def options(draw: st.DrawFn) -> BleuOptions:
    return BleuOptions(
        smoothing=draw(smoothings),
        empty_order=draw(empty_orders),
        ref_length=draw(st.sampled_from(["closest", "shortest", "average"])),
        all_zero=draw(st.sampled_from(["zero", "smooth"])),
        max_order=draw(st.integers(1, 5)),
    )


@settings(max_examples=150, deadline=None)
@given(segments, references, options(), st.randoms(use_true_random=False))
def test_reference_order_does_not_matter(hyp, refs, opts, rng):
    shuffled = list(refs)
    rng.shuffle(shuffled)
    a, b = sentence_bleu(hyp, refs, opts), sentence_bleu(hyp, shuffled, opts)
    assert a.score == b.score
    assert a.counts == b.counts


@settings(max_examples=150, deadline=None)
@given(segments, references, options(), st.data())
def test_duplicating_a_reference_changes_nothing(hyp, refs, opts, data):
    # Holds for the paper's closest length (and shortest); an average over references
    # is weighted by how often each appears, so ref_length=average is exempt.
    if opts.ref_length == "average":
        return
    extra = data.draw(st.sampled_from(refs))
    assert sentence_bleu(hyp, [*refs, extra], opts) == sentence_bleu(hyp, refs, opts)


@settings(max_examples=100, deadline=None)
@given(st.lists(words, min_size=4, max_size=15).map(" ".join), options())
def test_hypothesis_identical_to_its_only_reference_scores_100(text, opts):
    # Every n-gram matches and c = r, so p_n = 1 and BP = 1 under any smoothing that
    # leaves a full match alone.  cc5 averages m_n = c - n + 1 with its neighbours,
    # which is again c - n + 1 (except through m'_0 = m_1 + 1, so only for one order);
    # cc6 rewrites orders >= 3 and epsilon nudges every count.
    if opts.smoothing in ("cc6", "epsilon") or (
        opts.smoothing in ("cc5", "cc7") and opts.max_order == 1
    ):
        return
    if opts.max_order > len(text.split()):
        return
    assert math.isclose(sentence_bleu(text, [text], opts).score, 100.0)


@settings(max_examples=200, deadline=None)
@given(segments, references, options())
def test_score_lies_between_0_and_100(hyp, refs, opts):
    result = sentence_bleu(hyp, refs, opts)
    assert 0.0 <= result.score <= 100.0 + 1e-9
    assert not math.isnan(result.score)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(segments, references), min_size=1, max_size=6), options())
def test_corpus_statistics_are_the_sum_of_sentence_statistics(pairs, opts):
    summed = BleuStats.zero(opts.max_order + (1 if opts.smoothing in ("cc5", "cc7") else 0))
    for hyp, refs in pairs:
        summed += text_statistics(hyp, refs, opts)
    corpus = corpus_bleu([h for h, _ in pairs], [r for _, r in pairs], opts)
    assert corpus == bleu_from_statistics(summed, opts)
    assert corpus.sys_len == sum(len(segment_tokens(h, opts)) for h, _ in pairs)

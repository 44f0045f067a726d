"""The BLEU fast path (``reference/fast/bleu_statistics.py``) against the readable reference
(``reference/bleu.py``): the same statistics for every segment and the same corpus
result, exactly, under every counting-relevant axis value."""

from __future__ import annotations

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from metricdiff.impls.reference import bleu
from metricdiff.impls.reference.fast import bleu_statistics
from metricdiff.profiles import BleuOptions

WORDS = st.sampled_from(["a", "b", "c", "the", "cat", "A", "b.", "x-y", "3,5", "é", ""])
TEXT = st.lists(WORDS, max_size=10).map(" ".join)
REFERENCES = st.lists(st.one_of(TEXT, st.none()), min_size=1, max_size=3)

OPTIONS = st.builds(
    BleuOptions,
    tokenize=st.sampled_from(["none", "13a", "char"]),
    lowercase=st.sampled_from(["none", "unicode"]),
    max_order=st.integers(1, 5),
    ref_length=st.sampled_from(["closest", "shortest", "average"]),
    closest_tie=st.sampled_from(["shorter", "first"]),
    smoothing=st.sampled_from(["none", "exp", "floor", "add-k", "cc4", "cc5", "cc6", "cc7",
                               "epsilon"]),
    empty_order=st.sampled_from(["zero", "denominator-one", "ignore", "effective-order"]),
    all_zero=st.sampled_from(["zero", "smooth"]),
    empty_policy=st.sampled_from(["zero", "one"]),
    empty_reference=st.sampled_from(["length-zero", "dropped"]),
    level=st.sampled_from(["corpus", "sentence-mean"]),
)


@settings(max_examples=200, deadline=None)
@given(segments=st.lists(st.tuples(TEXT, REFERENCES), min_size=1, max_size=4), options=OPTIONS)
def test_fast_bleu_equals_the_reference(segments, options):
    hyps = [hyp for hyp, _ in segments]
    refs = [refs for _, refs in segments]
    # The oracle: bleu.py's own counting (Counter of every order, clipped in a loop).
    for hyp, seg_refs in segments:
        assert bleu_statistics.fast_text_statistics(hyp, seg_refs, options) == bleu.text_statistics(
            hyp, seg_refs, options)
        assert bleu_statistics.fast_sentence_bleu(hyp, seg_refs, options) == bleu.sentence_bleu(
            hyp, seg_refs, options)
    assert bleu_statistics.fast_corpus_bleu(hyps, refs, options) == bleu.corpus_bleu(
        hyps, refs, options)


def test_statistics_by_hand():
    # Papineni et al. 2002 §2.1's example: "the the the the the the the" against
    # "the cat is on the mat" and "there is a cat on the mat": the clips to 2 (the
    # largest count in one reference) of 7; no bigram of the hypothesis occurs.
    stats = bleu_statistics.fast_segment_statistics(
        ["the"] * 7, [["the", "cat", "is", "on", "the", "mat"],
                      ["there", "is", "a", "cat", "on", "the", "mat"]],
        attrs.evolve(BleuOptions(), max_order=2))
    assert stats.matches == (2, 0)
    assert stats.totals == (7, 6)
    assert stats.hyp_len == 7
    assert stats.ref_len == 7.0  # closest reference length to 7 is 7


# Profiles that share a corpus's statistics: one base, the axes after the
# statistics changed (``bleu.statistics_options`` leaves them out of the key).
AFTER = st.tuples(
    st.sampled_from(["none", "exp", "floor", "add-k", "cc4", "cc5", "epsilon"]),
    st.sampled_from(["zero", "smooth"]),
    st.sampled_from(["zero", "one", "error"]),
    st.sampled_from(["corpus", "sentence-mean"]),
)


@settings(max_examples=150, deadline=None)
@given(segments=st.lists(st.tuples(TEXT, REFERENCES), min_size=1, max_size=5), base=OPTIONS,
       changes=st.lists(AFTER, min_size=1, max_size=6))
def test_many_profiles_at_once_equal_the_reference_one_by_one(segments, base, changes):
    # The oracle: bleu.py's corpus_bleu under each profile alone, or the
    # exception it raises (an empty pair under empty_policy=error).
    hyps = [hyp for hyp, _ in segments]
    refs = [refs for _, refs in segments]
    profiles = [base] + [attrs.evolve(base, smoothing=smoothing, all_zero=all_zero,
                                      empty_policy=empty, level=level)
                         for smoothing, all_zero, empty, level in changes]
    for options, got in zip(profiles, bleu_statistics.fast_corpus_bleus(hyps, refs, profiles),
                            strict=True):
        try:
            expected = bleu.corpus_bleu(hyps, refs, options)
        except Exception as refused:
            assert isinstance(got, type(refused)), (options, got)
        else:
            assert got == expected, options

"""The pair-counting fast path (``reference/fast/rouge_pair_counts.py``) against the
readable reference: skip-bigram units equal to ``rouge_counts.units``, WLCS
marks equal to ``lcs.wlcs_marks``, pair counts equal to
``rouge_counts.pair_counts`` and corpus results equal to
``rouge_corpus.corpus_rouge``, all exactly."""

from __future__ import annotations

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from metricdiff.impls.reference import lcs, rouge_corpus, rouge_counts
from metricdiff.impls.reference.fast import rouge_pair_counts
from metricdiff.profiles.rouge import RougeOptions

TOKENS = st.lists(st.sampled_from(["a", "b", "c", "d", "the"]), max_size=14)
SENTENCES = st.lists(TOKENS, max_size=3)
SKIP = st.sampled_from([-1, 0, 1, 2, 4, 9])
WEIGHT = st.sampled_from([1.0, 1.2, 1.5, 2.0])
COUNT_OPTIONS = st.builds(
    RougeOptions,
    variant=st.sampled_from(["n", "l", "lsum", "w", "s", "su"]),
    n=st.sampled_from([1, 2]),
    skip=SKIP,
    weight=WEIGHT,
    su_unigrams=st.sampled_from(["paper", "rouge155"]),
    counts=st.sampled_from(["multiset", "set"]),
    wlcs=st.sampled_from(["paper", "rouge155"]),
)


@settings(max_examples=300, deadline=None)
@given(hyp=TOKENS, ref=TOKENS, options=COUNT_OPTIONS.filter(lambda o: o.variant in ("s", "su")))
def test_skip_gram_counts_equal_the_readable_gram_counts(hyp, ref, options):
    # The oracle: rouge_counts.gram_counts of rouge_counts.units, the index-pair
    # generator of the paper's §5.
    expected = rouge_counts.gram_counts(rouge_counts.units(hyp, options),
                                        rouge_counts.units(ref, options), options)
    assert rouge_pair_counts.skip_gram_counts(hyp, ref, options) == expected


@settings(max_examples=300, deadline=None)
@given(ref=TOKENS, hyp=TOKENS, weight=WEIGHT)
def test_wlcs_and_its_marks_equal_the_readable_ones(ref, hyp, weight):
    # The oracle: lcs.wlcs_marks, the table of lcs._wlcs_rows walked back.
    assert rouge_pair_counts.wlcs_marks(ref, hyp, weight) == lcs.wlcs_marks(ref, hyp, weight)
    # The oracle: lcs.wlcs, the paper's §4 algorithm.
    assert rouge_pair_counts.wlcs(ref, hyp, weight) == lcs.wlcs(ref, hyp, weight)


def test_a_sentence_against_itself_is_marked_everywhere_and_a_common_ending_too():
    # The walk back of ROUGE-1.5.5's markLCS steps diagonally on equal tokens, so
    # every position of a text against itself is marked; the oracle,
    # lcs.wlcs_marks, walks the whole table to the same answer.
    text = ["a", "b", "a", "c"] * 75
    assert rouge_pair_counts.wlcs_marks(text, text, 1.2) == list(range(300))
    assert lcs.wlcs_marks(text, text, 1.2) == list(range(300))
    ref, hyp = [*text[:20], "b"], ["c", "c", "b", *text[:20], "b"]
    assert rouge_pair_counts.wlcs_marks(ref, hyp, 1.2) == lcs.wlcs_marks(ref, hyp, 1.2)


@settings(max_examples=300, deadline=None)
@given(hyp=SENTENCES, ref=SENTENCES, options=COUNT_OPTIONS)
def test_pair_counts_equal_the_readable_pair_counts(hyp, ref, options):
    # The oracle: rouge_counts.pair_counts.
    expected = rouge_counts.pair_counts(hyp, ref, options)
    assert rouge_pair_counts.fast_pair_counts(hyp, ref, options) == expected
    assert rouge_pair_counts.remembered_pair_counts(hyp, ref, options) == expected


WORDS = st.sampled_from(["a", "b", "c", "the", "Cat", "cats", "b."])
TEXT = st.lists(WORDS, max_size=9).map(" ".join)
SEGMENT_TEXT = st.one_of(TEXT, st.lists(TEXT, min_size=2, max_size=3).map("\n".join))
REFERENCES = st.lists(st.one_of(SEGMENT_TEXT, st.none()), min_size=1, max_size=3)
TEXT_OPTIONS = st.fixed_dictionaries({
    "lowercase": st.sampled_from(["none", "unicode"]),
    "stemmer": st.sampled_from(["none", "porter-original"]),
    "sentence_split": st.sampled_from(["newline", "period"]),
    "multi_ref": st.sampled_from(["best-f", "pooled", "jackknife", "max-p-max-r"]),
    "rounding": st.sampled_from(["exact", "perl-5dp"]),
    "corpus_average": st.sampled_from(["macro", "micro"]),
    "truncate": st.sampled_from(["none", "words:3"]),
})


@settings(max_examples=200, deadline=None)
@given(segments=st.lists(st.tuples(SEGMENT_TEXT, REFERENCES), min_size=1, max_size=3),
       options=COUNT_OPTIONS, text=TEXT_OPTIONS)
def test_fast_corpus_rouge_equals_corpus_rouge(segments, options, text):
    options = attrs.evolve(options, **text)
    hyps = [hyp for hyp, _ in segments]
    refs = [seg_refs for _, seg_refs in segments]
    # The oracle: the readable corpus_rouge, which counts by rouge_counts.pair_counts.
    expected = rouge_corpus.corpus_rouge(hyps, refs, options)
    assert rouge_pair_counts.fast_corpus_rouge(hyps, refs, options) == expected


def test_skip_bigrams_of_the_papers_example():
    # Lin 2004 §5: "police killed the gunman" has C(4,2) = 6 skip-bigrams with an
    # unlimited skip; with skip 0 they are its 3 bigrams.  Against S4 "the gunman
    # police killed" 2 skip-bigrams match, "the gunman" and "police killed" (§5).
    s1 = ["police", "killed", "the", "gunman"]
    s4 = ["the", "gunman", "police", "killed"]
    unlimited = RougeOptions(variant="s", skip=-1)
    assert rouge_pair_counts.skip_gram_counts(s1, s1, unlimited) == (
        rouge_counts.PairCounts(6, 6, 6))
    assert rouge_pair_counts.skip_gram_counts(s4, s1, unlimited) == (
        rouge_counts.PairCounts(2, 6, 6))
    assert rouge_pair_counts.skip_gram_counts(s1, s1, attrs.evolve(unlimited, skip=0)) == (
        rouge_counts.PairCounts(3, 3, 3))


def test_remembered_counts_are_keyed_by_the_count_axes_only():
    # Two profiles that differ only in a text axis count the same tokens alike;
    # a count axis (skip) changes the key.  Skip-bigrams of "a b c" (C(3,2) = 3)
    # against "a c" (1, shared): matches 1, totals 3 and 1.
    lowered = RougeOptions(variant="s", lowercase="unicode")
    plain = RougeOptions(variant="s", lowercase="none")
    assert rouge_pair_counts.count_options(lowered) == rouge_pair_counts.count_options(plain)
    assert rouge_pair_counts.remembered_pair_counts([["a", "b", "c"]], [["a", "c"]], plain) == (
        rouge_counts.PairCounts(1, 3, 1))
    assert rouge_pair_counts.count_options(plain) != rouge_pair_counts.count_options(
        attrs.evolve(plain, skip=0))


def test_a_large_corpus_is_counted_without_remembering_and_alike():
    # The oracle: the readable corpus_rouge, on a corpus at the size from which
    # pairs are no longer remembered.
    size = rouge_pair_counts.REMEMBER_BELOW
    hyps = [f"the cat sat on mat {i}\nthe end" for i in range(size)]
    refs = [[f"a cat sat on the mat {i % 7}\nend", None] for i in range(size)]
    for options in (RougeOptions(variant="su", skip=4), RougeOptions(variant="w", wlcs="rouge155",
                                                                     multi_ref="pooled")):
        before = rouge_pair_counts._remembered.cache_info().currsize
        assert rouge_pair_counts.fast_corpus_rouge(hyps, refs, options) == (
            rouge_corpus.corpus_rouge(hyps, refs, options))
        assert rouge_pair_counts._remembered.cache_info().currsize == before

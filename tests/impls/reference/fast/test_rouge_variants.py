"""The ROUGE fast path (``reference/fast/rouge_variants.py``) against the readable
reference: ``fast_score_variants`` must give ``rouge_shared.score_variants``'s
results exactly (every float of every segment and of the corpus), and its two
kernels must agree with the reference's own ``lcs`` and ``rouge_counts``."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import large_corpus
from metricdiff.impls.reference import lcs, rouge_corpus, rouge_counts, rouge_shared
from metricdiff.impls.reference.fast import rouge_variants
from metricdiff.profiles.rouge import RougeOptions

WORDS = st.sampled_from(["a", "b", "c", "the", "cat", "A", "b.", "x-y", "3,5", "é"])
TEXT = st.lists(WORDS, max_size=9).map(" ".join)
# A segment's text may have sentences on lines, and a reference may be missing.
SEGMENT_TEXT = st.one_of(TEXT, st.lists(TEXT, min_size=2, max_size=3).map("\n".join))
REFERENCES = st.lists(st.one_of(SEGMENT_TEXT, st.none()), min_size=1, max_size=3)

OPTIONS = st.builds(
    RougeOptions,
    tokenize=st.sampled_from(["none", "rouge-score", "rouge155"]),
    lowercase=st.sampled_from(["none", "unicode"]),
    lowercase_stage=st.sampled_from(["before-tokenize", "after-tokenize"]),
    sentence_split=st.sampled_from(["newline", "period"]),
    counts=st.sampled_from(["multiset", "set"]),
    stopwords=st.sampled_from(["none", "smart"]),
    stemmer=st.sampled_from(["none", "porter-original"]),
    multi_ref=st.sampled_from(["best-f", "best-recall", "mean", "pooled", "jackknife",
                               "max-p-max-r"]),
    rounding=st.sampled_from(["exact", "perl-5dp"]),
    corpus_average=st.sampled_from(["macro", "micro", "f-of-means"]),
    truncate=st.sampled_from(["none", "words:3", "bytes:7"]),
    truncate_side=st.sampled_from(["hypothesis", "both"]),
    empty_policy=st.sampled_from(["zero", "one"]),
)
VARIANT = st.sampled_from([("n", 1), ("n", 2), ("n", 3), ("l", 1)])


def _as(options: RougeOptions, variant: tuple[str, int]) -> RougeOptions:
    import attrs

    return attrs.evolve(options, variant=variant[0], n=variant[1])


@settings(max_examples=150, deadline=None)
@given(
    segments=st.lists(st.tuples(SEGMENT_TEXT, REFERENCES), min_size=1, max_size=4),
    options=OPTIONS,
    variants=st.lists(VARIANT, min_size=1, max_size=3),
)
def test_fast_score_variants_equals_the_readable_path(segments, options, variants):
    hyps = [hyp for hyp, _ in segments]
    refs = [refs for _, refs in segments]
    wanted = [_as(options, variant) for variant in variants]
    # The oracle: the readable path, which scores through rouge_counts.pair_counts.
    expected = rouge_shared.score_variants(hyps, refs, wanted)
    assert rouge_variants.fast_score_variants(hyps, refs, wanted) == expected


@settings(max_examples=300, deadline=None)
@given(hyp=st.lists(st.sampled_from("abcd"), max_size=12),
       ref=st.lists(st.sampled_from("abcd"), max_size=12), n=st.integers(1, 4))
def test_kernels_equal_the_reference_counts(hyp, ref, n):
    # The oracles: the textbook DP table, and rouge_counts' Counter-based clipping.
    assert rouge_variants.lcs_length(hyp, ref) == lcs.lcs_length_dp(ref, hyp)
    grams = rouge_counts.gram_counts(
        rouge_counts.ngram_counts(hyp, n), rouge_counts.ngram_counts(ref, n), RougeOptions()
    )
    assert rouge_variants.clipped_ngram_matches(hyp, ref, n) == (
        grams.matches, grams.hyp_total, grams.ref_total)


def test_clipping_by_hand():
    # "the the cat" vs "the cat the the": unigrams the min(2, 3) + cat 1 = 3;
    # bigrams of the hypothesis "the the", "the cat" both occur once in the reference.
    assert rouge_variants.clipped_ngram_matches(["the", "the", "cat"],
                                            ["the", "cat", "the", "the"], 1) == (3, 3, 4)
    assert rouge_variants.clipped_ngram_matches(["the", "the", "cat"],
                                            ["the", "cat", "the", "the"], 2) == (2, 2, 3)


@pytest.mark.parametrize("variant", ["lsum", "w", "s", "su"])
def test_uncovered_variants_take_the_readable_path(variant):
    options = [RougeOptions(variant=variant)]
    assert rouge_variants.fast_score_variants(["a"], [["a"]], options) is None


def test_a_large_corpus_takes_the_fast_path_with_the_readable_result():
    from metricdiff.impls.reference import rouge_corpus
    from metricdiff.impls.reference.adapter import ReferenceRougeAdapter

    adapter = ReferenceRougeAdapter()
    words = ["the", "cat", "sat", "on", "a", "mat", "dog"]
    size = adapter.FAST_FROM + 1
    hyps = [" ".join(words[(i + k) % 7] for k in range(i % 6 + 1)) for i in range(size)]
    refs = [[" ".join(words[(2 * i + k) % 7] for k in range(i % 5 + 2))] for i in range(size)]
    for metric, variant, n in (("rouge-2", "n", 2), ("rouge-l", "l", 1)):
        options = RougeOptions(variant=variant, n=n)
        # The oracle: the readable corpus_rouge.
        assert adapter.corpus_score(metric, hyps, refs, options) == rouge_corpus.corpus_rouge(
            hyps, refs, options)


@settings(max_examples=150, deadline=None)
@given(
    segments=st.lists(st.tuples(SEGMENT_TEXT, REFERENCES), min_size=1, max_size=4),
    profiles=st.lists(st.tuples(OPTIONS, VARIANT), min_size=2, max_size=5),
)
def test_profiles_that_share_tokens_counts_or_results_score_as_apart(segments, profiles):
    # Profiles scored in one pass share a text's tokens, a pair's counts and a
    # segment's result wherever their axes allow: each profile must still get
    # the readable path's results for it alone.
    hyps = [hyp for hyp, _ in segments]
    refs = [refs for _, refs in segments]
    wanted = [_as(options, variant) for options, variant in profiles]
    wanted += [attrs.evolve(wanted[0], corpus_average="micro", report="recall"),
               attrs.evolve(wanted[0], counts="set", multi_ref="jackknife"),
               # one corpus's sums serve these (``CorpusPairs.under``)
               attrs.evolve(wanted[0], corpus_average="bootstrap-median",
                            bootstrap_samples=7),
               attrs.evolve(wanted[0], corpus_average="f-of-means")]
    expected = [rouge_shared.score_variants(hyps, refs, [one])[0] for one in wanted]
    assert rouge_variants.fast_score_variants(hyps, refs, wanted) == expected


@settings(max_examples=60, deadline=None)
@given(
    segments=st.lists(st.tuples(SEGMENT_TEXT, REFERENCES), min_size=1, max_size=4),
    options=OPTIONS,
    averages=st.lists(st.sampled_from(["macro", "micro", "f-of-means", "bootstrap-mean",
                                       "bootstrap-median", "bootstrap-rouge155"]),
                      min_size=2, max_size=4),
)
def test_the_readable_pass_shares_sums_only_where_the_average_alone_differs(
        segments, options, averages):
    # Oracle: rouge_corpus.corpus_rouge, the paper's corpus ROUGE, one profile
    # at a time.  Together, the Lsum and S profiles share tokens, counts and one
    # corpus's sums for the profiles that differ only in the corpus average.
    hyps = [hyp for hyp, _ in segments]
    refs = [refs for _, refs in segments]
    wanted = [attrs.evolve(options, variant=variant, corpus_average=average,
                           bootstrap_samples=9)
              for variant in ("lsum", "s") for average in averages]
    together = rouge_shared.score_variants(hyps, refs, wanted)
    assert [scored.corpus for scored in together] == [
        rouge_corpus.corpus_rouge(hyps, refs, one) for one in wanted]


def test_the_reference_scores_many_profiles_of_a_large_corpus_as_one_by_one():
    from metricdiff.errors import EmptyInputError
    from metricdiff.impls.reference import rouge_corpus
    from metricdiff.impls.reference.adapter import ReferenceRougeAdapter

    adapter = ReferenceRougeAdapter()
    hyps, refs = large_corpus(adapter.FAST_FROM + 3)
    hyps[200], refs[200] = "", [""]  # refused under empty_policy=error
    profiles = [RougeOptions(variant="n", n=2), RougeOptions(variant="l", lowercase="unicode"),
                RougeOptions(variant="n", n=1, empty_policy="error"),
                RougeOptions(variant="lsum"),  # not covered by the fast path
                RougeOptions(variant="n", n=1, corpus_average="bootstrap-rouge155"),
                RougeOptions(variant="n", n=1, counts="set", f_measure="beta=1.2")]
    outcomes = adapter.corpus_scores("rouge-1", hyps, refs, profiles)
    for options, outcome in zip(profiles, outcomes, strict=True):
        if options.empty_policy == "error":
            assert isinstance(outcome, EmptyInputError)
            continue
        # The oracle: the readable corpus_rouge, profile by profile.
        assert outcome == rouge_corpus.corpus_rouge(hyps, refs, options)

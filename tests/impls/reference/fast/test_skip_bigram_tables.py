"""The skip-bigram tables (``reference/fast/skip_bigram_tables.py``) against the
readable reference: ``rouge_counts.gram_counts`` of ``rouge_counts.units``, the
index-pair generator of Lin 2004 §5, exactly; and the paper's own example."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from metricdiff.impls.reference import rouge_counts
from metricdiff.impls.reference.fast import rouge_pair_counts, skip_bigram_tables
from metricdiff.impls.reference.rouge_counts import PairCounts
from metricdiff.profiles.rouge import RougeOptions

#: Long texts over a few words: what the tables are for (``worth_a_table``).
LONG = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "of"]), min_size=16, max_size=60)
UNLIMITED = st.builds(
    RougeOptions,
    variant=st.sampled_from(["s", "su"]),
    skip=st.just(-1),
    su_unigrams=st.sampled_from(["paper", "rouge155"]),
    counts=st.sampled_from(["multiset", "set"]),
)


#: Both sides' tokens as numbers, as ``skip_gram_counts`` codes them.
coded = rouge_pair_counts._coded


@settings(max_examples=300, deadline=None)
@given(hyp=LONG, ref=LONG, options=UNLIMITED)
def test_long_texts_are_counted_by_tables_exactly_as_the_readable_counts(hyp, ref, options):
    hyp_ids, ref_ids, size = coded(hyp, ref)
    assert skip_bigram_tables.worth_a_table(len(hyp), len(ref), size, options)
    # The oracle: rouge_counts.gram_counts of rouge_counts.units (Lin 2004 §5).
    expected = rouge_counts.gram_counts(rouge_counts.units(hyp, options),
                                        rouge_counts.units(ref, options), options)
    assert skip_bigram_tables.table_counts(hyp_ids, ref_ids, size, options) == expected
    assert rouge_pair_counts.skip_gram_counts(hyp, ref, options) == expected


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(st.integers(0, 4), max_size=30))
def test_the_table_counts_each_ordered_pair_of_positions(ids):
    # The oracle: every pair of positions i < j, enumerated.
    table = skip_bigram_tables.pair_table(ids, 5)
    for a in range(5):
        for b in range(5):
            pairs = sum(1 for i, j in combinations(range(len(ids)), 2)
                        if ids[i] == a and ids[j] == b)
            assert table[a, b] == pairs


def test_the_papers_example_by_tables():
    # Lin 2004 §5: "police killed the gunman" has C(4,2) = 6 skip-bigrams; against
    # S2 "police kill the gunman" 3 match ("police the", "police gunman", "the
    # gunman"); against S3 "the gunman kill police" 1 ("the gunman").
    s1 = ["police", "killed", "the", "gunman"]
    s2 = ["police", "kill", "the", "gunman"]
    s3 = ["the", "gunman", "kill", "police"]
    unlimited = RougeOptions(variant="s", skip=-1)
    assert skip_bigram_tables.table_counts(*coded(s2, s1), unlimited) == PairCounts(3, 6, 6)
    assert skip_bigram_tables.table_counts(*coded(s3, s1), unlimited) == PairCounts(1, 6, 6)
    # ROUGE-SU adds the unigrams: S2 shares police, the, gunman with S1 (§5.1).
    su = RougeOptions(variant="su", skip=-1)
    assert skip_bigram_tables.table_counts(*coded(s2, s1), su) == PairCounts(6, 10, 10)


def test_an_empty_or_one_token_side_against_a_long_one():
    # The oracle: rouge_counts.gram_counts of rouge_counts.units.  An empty
    # hypothesis has no unit; one token has no skip-bigram, and under
    # su_unigrams=rouge155 not its unigram either (all but the last token).
    long = ["a", "b", "c"] * 14
    for hyp in ([], ["a"]):
        for options in (RougeOptions(variant="su", skip=-1),
                        RougeOptions(variant="su", skip=-1, su_unigrams="rouge155"),
                        RougeOptions(variant="s", skip=-1, counts="set")):
            hyp_ids, ref_ids, size = coded(hyp, long)
            assert skip_bigram_tables.worth_a_table(len(hyp), len(long), size, options)
            expected = rouge_counts.gram_counts(rouge_counts.units(hyp, options),
                                                rouge_counts.units(long, options), options)
            assert skip_bigram_tables.table_counts(hyp_ids, ref_ids, size, options) == expected


def test_short_texts_and_a_skip_limit_are_not_counted_by_tables():
    unlimited = RougeOptions(variant="s", skip=-1)
    assert not skip_bigram_tables.worth_a_table(4, 4, 5, unlimited)
    assert not skip_bigram_tables.worth_a_table(300, 300, 20, RougeOptions(variant="s", skip=4))
    # Many distinct words for their length: making each skip-bigram is quicker.
    assert not skip_bigram_tables.worth_a_table(300, 300, 400, unlimited)
    assert skip_bigram_tables.worth_a_table(300, 300, 28, unlimited)

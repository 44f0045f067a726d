"""Known disagreements between a peer library and the reference configured with the
library's declared profile: genuine library behaviour, pinned so that it stays
visible and so that the pin fails when a library release changes it.

``KNOWN_FINDINGS`` maps (adapter, case description) to the cause, naming the axis
involved.  ``FINDING_INPUTS`` holds each case's minimal input: hypotheses,
per-segment references and the axis overrides applied on top of the adapter's
declared profile (the reference runs with exactly the same options).
``tests/impls/peers/test_bleu_conformance.py`` asserts that every pinned case still
disagrees: a compared field differs, or the library raises the exception named in
``raises``.
"""

from __future__ import annotations

from typing import NamedTuple


class FindingInput(NamedTuple):
    hyps: list[str]
    refs: list[list[str | None]]
    overrides: dict[str, str]
    #: The exception the library raises, when the finding is a refusal.
    raises: str | None = None


FINDING_INPUTS: dict[tuple[str, str], FindingInput] = {
    # ------------------------------------------------------------------ sacrebleu
    ("sacrebleu", "segment without any reference"): FindingInput(
        ["a b c"], [[None]], {"tokenize": "none"}, raises="TypeError"
    ),
    ("sacrebleu", "empty hypothesis without any reference"): FindingInput(
        ["", "a b"], [[""], ["a b"]], {"tokenize": "none", "empty_reference": "dropped"}
    ),
    ("sacrebleu", "empty corpus"): FindingInput(
        [], [], {"tokenize": "none"}, raises="IndexError"
    ),
    ("sacrebleu", "zh tokenizer on an em dash"): FindingInput(
        ["a—b 我们"], [["a — b 我们"]], {"tokenize": "zh"}
    ),
    ("sacrebleu", "13a tokenizer on a final hyphen-newline"): FindingInput(
        ["well-\n"], [["well"]], {"tokenize": "13a"}
    ),
    # ----------------------------------------------------------------------- nltk
    ("nltk", "segment without any reference"): FindingInput(
        ["a b c"], [[None]], {}, raises="KeyError"
    ),
    ("nltk", "empty corpus"): FindingInput([], [], {}, raises="ZeroDivisionError"),
    ("nltk", "cc4 smoothing"): FindingInput(
        ["the cat sat on the mat"], [["the cat is on the mat"]], {"smoothing": "cc4"}
    ),
    ("nltk", "cc4 smoothing, one-token hypothesis"): FindingInput(
        ["a"], [["a b c"]], {"smoothing": "cc4"}
    ),
    ("nltk", "cc5 smoothing averages precisions"): FindingInput(
        ["a b c d e"], [["a b c d e"]], {"smoothing": "cc5"}
    ),
    ("nltk", "cc5 smoothing, corpus level"): FindingInput(
        ["a b c d e", "a b c d"], [["a b c d e"], ["a b c d"]], {"smoothing": "cc5"}
    ),
    ("nltk", "cc5 smoothing, max_order 3"): FindingInput(
        ["a b c d e"], [["a b c d x"]], {"smoothing": "cc5", "max_order": "3"}
    ),
    ("nltk", "cc6 smoothing, no trigram match"): FindingInput(
        ["a b c d"], [["a b x d"]], {"smoothing": "cc6"}, raises="AssertionError"
    ),
    ("nltk", "cc6 smoothing, corpus level"): FindingInput(
        ["a b c d e", "x y z w"], [["a b c d e"], ["x y z w"]], {"smoothing": "cc6"}
    ),
    ("nltk", "cc6 smoothing, hypothesis shorter than n"): FindingInput(
        ["a b c"], [["a b c d"]], {"smoothing": "cc6"}
    ),
    ("nltk", "cc7 smoothing"): FindingInput(
        ["the cat sat on the mat"], [["the cat is on the mat"]], {"smoothing": "cc7"}
    ),
    ("nltk", "effective-order, short hypothesis"): FindingInput(
        ["a b"], [["a b c"]], {"empty_order": "effective-order"}
    ),
    ("nltk", "effective-order, short segments pooling to 3 tokens"): FindingInput(
        ["a b", "c"], [["a b c"], ["c d"]], {"empty_order": "effective-order"}
    ),
    ("nltk", "effective-order, short segments pooling to 4 tokens"): FindingInput(
        ["a b", "c d"], [["a b"], ["c d"]], {"empty_order": "effective-order"}
    ),
    # -------------------------------------------------------------- pycocoevalcap
    ("pycocoevalcap", "segment without any reference"): FindingInput(
        ["a b c"], [[None]], {}, raises="MissingReferenceError"
    ),
}


KNOWN_FINDINGS: dict[tuple[str, str], str] = {
    # ------------------------------------------------------------------ sacrebleu
    ("sacrebleu", "segment without any reference"): (
        "empty_reference: a segment whose references are all None (or '' under "
        "empty_reference=dropped) leaves BLEU._extract_reference_info with ref_ngrams=None, "
        "and _compute_segment_statistics then tests `ngram in None`: TypeError. The "
        "reference scores the segment with r = 0."
    ),
    ("sacrebleu", "empty hypothesis without any reference"): (
        "empty_reference: _get_closest_ref_len returns its initial value -1 when a segment "
        "has no reference, so an empty hypothesis without references (no n-gram, so no "
        "TypeError) adds -1 to the corpus ref_len: 1 instead of the reference's 2."
    ),
    ("sacrebleu", "empty corpus"): (
        "empty_policy: BLEU.corpus_score checks `hyps[0]` and raises IndexError on an empty "
        "corpus; the reference returns 0 (no statistics)."
    ),
    ("sacrebleu", "zh tokenizer on an em dash"): (
        "tokenize=zh: sacrebleu's zh tokenizer reads the WMT script's '\\u20000' escapes "
        "literally, so every character in U+2001..U+2A6D (general punctuation such as "
        "'—', arrows, operators) is split off like a CJK character and Extension B is not "
        "split; metricdiff's zh uses the intended ranges (its zh-sacrebleu reproduces "
        "sacrebleu)."
    ),
    ("sacrebleu", "13a tokenizer on a final hyphen-newline"): (
        "tokenize=13a: BLEU._preprocess_segment rstrip()s the segment before tokenizing, so "
        "13a's end-of-line hyphenation rule (remove '-' + newline) never sees a final "
        "'-\\n': 'well-\\n' gives the token 'well-' in sacrebleu and 'well' under 13a."
    ),
    # ----------------------------------------------------------------------- nltk
    ("nltk", "segment without any reference"): (
        "empty_reference: modified_precision builds max_counts from the references only, "
        "so with none it raises KeyError on the first hypothesis n-gram (and "
        "closest_ref_length would fail next on min() of nothing); the reference uses r = 0."
    ),
    ("nltk", "empty corpus"): (
        "empty_policy: corpus_bleu builds Fraction(0, 0) for each order before its "
        "no-match early return: ZeroDivisionError; the reference returns 0."
    ),
    ("nltk", "cc4 smoothing"): (
        "smoothing=cc4: method4 gives the k-th order without matches (1 / (2^k * K / ln c)) "
        "/ t_n, combining NIST's 2^k with a single K/ln c, where Chen & Cherry's smoothing "
        "4 replaces the factor 2 by K/ln c: (ln c / K)^k / t_n."
    ),
    ("nltk", "cc4 smoothing, one-token hypothesis"): (
        "smoothing=cc4: method4 only smooths when c > 1 (ln 1 = 0), and corpus_bleu skips "
        "every precision that is 0 (`if p_i > 0`), which counts it as 1: 'a' against "
        "'a b c' scores BP = 13.5 where the reference (K/ln 1 infinite, p_n = 0) scores 0."
    ),
    ("nltk", "cc5 smoothing averages precisions"): (
        "smoothing=cc5: method5 averages the precisions P'_n = (P'_{n-1} + P_n + P_{n+1})/3 "
        "from P'_0 = P_1 + 1, where Chen & Cherry's smoothing 5 averages the matched counts "
        "m'_n from m'_0 = m_1 + 1; a perfect match scores 111.67 in NLTK and 100 in the "
        "reference."
    ),
    ("nltk", "cc5 smoothing, corpus level"): (
        "smoothing=cc5: corpus_bleu calls the smoothing function with the last segment's "
        "references and hypothesis, so method5's P_{N+1} is the last segment's 5-gram "
        "precision (0/1 here) instead of the pooled one (1/1)."
    ),
    ("nltk", "cc5 smoothing, max_order 3"): (
        "smoothing=cc5, max_order: method5 always appends modified_precision(..., 5), the "
        "5-gram precision, whatever N is; with N = 3 it uses P_5 = 0 where the reference "
        "uses P_4 = 1/2."
    ),
    ("nltk", "cc6 smoothing, no trigram match"): (
        "smoothing=cc6: method6 asserts p_n[2] (the trigram precision, though its message "
        "says bigrams), so any input without a trigram match raises AssertionError; the "
        "reference interpolates."
    ),
    ("nltk", "cc6 smoothing, corpus level"): (
        "smoothing=cc6: method6 divides the pooled match count m_n by l + alpha where l "
        "counts the last hypothesis's n-grams only (corpus_bleu passes the last segment), "
        "so corpus precisions exceed 1 (BLEU 133 for a perfect corpus)."
    ),
    ("nltk", "cc6 smoothing, hypothesis shorter than n"): (
        "smoothing=cc6, empty_order: method6's l counts the hypothesis's n-grams without "
        "NLTK's own max(1, count), so an order the hypothesis is too short for is divided "
        "by alpha rather than 1 + alpha (p_4 = 1 instead of 5/6)."
    ),
    ("nltk", "cc7 smoothing"): (
        "smoothing=cc7: method7 is method4 then method5, so it inherits method4's "
        "1 / (2^k * K / ln c) counts (see cc4)."
    ),
    ("nltk", "effective-order, short hypothesis"): (
        "empty_order=effective-order: auto_reweigh drops the orders above c from the "
        "weights but modified_precision still reports max(1, 0) = 1 as their totals; the "
        "score agrees, the totals do not (1 where the reference has 0)."
    ),
    ("nltk", "effective-order, short segments pooling to 3 tokens"): (
        "empty_order=effective-order: auto_reweigh picks the orders by the pooled "
        "hypothesis length (c = 3 < 4, weights 1/3) and keeps the per-segment max(1, count) "
        "denominators, so the 1-token segment adds a phantom bigram (p_2 = 1/2) and orders "
        "without n-grams get float-min: 1e-101 instead of 51.3."
    ),
    ("nltk", "effective-order, short segments pooling to 4 tokens"): (
        "empty_order=effective-order: auto_reweigh does nothing once the pooled hypothesis "
        "length reaches 4, although no segment has a trigram; orders 3 and 4 keep max(1, 0) "
        "denominators and get float-min, so BLEU is 1e-152 instead of 100."
    ),
    # -------------------------------------------------------------- pycocoevalcap
    ("pycocoevalcap", "segment without any reference"): (
        "empty_reference: Bleu.compute_score asserts len(ref) >= 1 (BleuScorer alone fails "
        "in min() or divides by zero); the adapter raises MissingReferenceError. The "
        "reference scores the segment with r = 0."
    ),
}


#: Fixture cases on which an implementation disagrees with the reference configured
#: as the implementation declares itself: (implementation, case id, the expectation's
#: `when` as "axis=value" or "") -> the cause, naming the axis.  The fixture
#: conformance test fails on a disagreement missing here and on a pin that no
#: longer disagrees.
FIXTURE_FINDINGS: dict[tuple[str, str, str], str] = {
    ("sacrebleu", "conv_tok_curly_quotes", "tokenize=zh"): (
        "tokenize: sacrebleu's zh is zh-sacrebleu (U+2001..U+2A6D count as Chinese, so "
        "curly quotes are split off)"
    ),
    ("sacrebleu", "conv_tok_zh_sacrebleu_dash", "tokenize=zh"): (
        "tokenize: sacrebleu's zh is zh-sacrebleu ('—' is split off as if Chinese)"
    ),
    ("nltk", "conv_empty_order_short_exact", "empty_order=effective-order"): (
        "empty_order: auto_reweigh drops the weights of the missing orders but keeps "
        "max(1, 0) totals, whose float-min precisions show in the statistics"
    ),
    ("nltk", "conv_empty_order_short_exp", "empty_order=effective-order"): (
        "empty_order: auto_reweigh keeps max(1, 0) totals, which exp smoothing then fills"
    ),
    ("nltk", "conv_empty_order_corpus_denominator_one", "empty_order=effective-order"): (
        "empty_order: auto_reweigh looks at the pooled hypothesis length only, and the "
        "per-segment max(1, count) totals stay"
    ),
    ("nltk", "must_smooth_cc4", ""): "smoothing=cc4: 1/(2^k K/ln c) instead of (ln c/K)^k",
    ("nltk", "must_smooth_cc4_value", ""): "smoothing=cc4: 1/(2^k K/ln c) instead of (ln c/K)^k",
    ("nltk", "must_smooth_cc4_corpus_length", ""): (
        "smoothing=cc4 and empty_order: method4's formula, and max(1, 0) totals"
    ),
    ("nltk", "must_smooth_cc5", ""): "smoothing=cc5: averages precisions, not matched counts",
    ("nltk", "must_smooth_cc5_perfect_match", ""): (
        "smoothing=cc5: averaging precisions from P'_0 = P_1 + 1 lifts a perfect match to 111.67"
    ),
    ("nltk", "must_smooth_cc5_corpus_pooled", ""): (
        "smoothing=cc5: precisions averaged, and P_5 from the last segment only"
    ),
    ("nltk", "must_smooth_cc6", ""): (
        "smoothing=cc6: method6 asserts a non-zero trigram precision (AssertionError)"
    ),
    ("nltk", "must_smooth_cc6_alpha", ""): (
        "smoothing=cc6: method6 asserts a non-zero trigram precision (AssertionError)"
    ),
    ("nltk", "must_smooth_cc7", ""): "smoothing=cc7: inherits method4's and method5's departures",
    ("rouge-metric-py", "must_rl_ignores_sentences", ""): (
        "variant: its 'rouge-l' is summary-level union LCS over the sentences (lsum)"
    ),
    ("rouge-metric-py", "must_rl_union_pair_sentence_level", ""): (
        "variant: its 'rouge-l' is summary-level union LCS over the sentences (lsum)"
    ),
}

"""The reference ROUGE: values derived by hand from Lin (2004)'s worked examples,
properties that must hold whatever the input (Hypothesis), and agreement with
rouge-score where the conventions match."""

from __future__ import annotations

import itertools
import math
import random

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from metricdiff.errors import EmptyInputError
from metricdiff.impls.reference import lcs
from metricdiff.impls.reference.rouge import (
    f_score,
    headline,
    sentence_rouge,
    truncate_bytes,
)
from metricdiff.impls.reference.rouge_corpus import corpus_rouge
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

# Lin 2004 §3.1 and §5: S1 is the reference throughout.
S1 = "police killed the gunman"
S2 = "police kill the gunman"
S3 = "the gunman kill police"
S4 = "the gunman police killed"
S5 = "gunman the killed police"

# Lin 2004 §4: the same LCS, but Y1's matches are consecutive.
X = "A B C D E F G"
Y1 = "A B C D H I K"
Y2 = "A H B K C I D"


def opts(variant: str = "n", **axes: object) -> RougeOptions:
    return attrs.evolve(RougeOptions(variant=variant), **axes)


def rpf(result: RougeResult) -> tuple[float, float, float]:
    return result.recall, result.precision, result.fmeasure


def score(hyp: str, refs: list[str] | str, variant: str = "n", **axes: object) -> RougeResult:
    return sentence_rouge(hyp, [refs] if isinstance(refs, str) else refs, opts(variant, **axes))


# --------------------------------------------------------------------------
# Hand-derived values from the paper's examples


@pytest.mark.parametrize(
    ("hyp", "lcs_length"),
    [
        # S2: "police _ the gunman" -> LCS 3; ROUGE-L = 3/4 (the paper: 0.75).
        (S2, 3),
        # S3: only "the gunman" is in S1's order -> 2/4 (the paper: 0.5, so
        # S2 is better than S3 under ROUGE-L although both have ROUGE-2 1/3).
        (S3, 2),
        # S4: either "the gunman" or "police killed", not both -> 2/4, the same as
        # S3 (the paper's point about ROUGE-L ignoring alternative LCSes).
        (S4, 2),
        # S5 reverses every pair of S1's words, so no two words are in order -> 1/4.
        (S5, 1),
    ],
)
def test_rouge_l_paper_examples(hyp, lcs_length):
    result = score(hyp, S1, "l")
    assert result.matches == lcs_length
    assert rpf(result) == (lcs_length / 4, lcs_length / 4, lcs_length / 4)


@pytest.mark.parametrize(
    ("hyp", "matches"),
    [
        # S1 bigrams: police killed, killed the, the gunman.
        (S2, 1),  # the gunman
        (S3, 1),  # the gunman
        (S4, 2),  # the gunman, police killed: "ROUGE-2 would prefer S4 to S3"
        (S5, 0),
    ],
)
def test_rouge_2_paper_examples(hyp, matches):
    result = score(hyp, S1, "n", n=2)
    assert rpf(result) == (matches / 3, matches / 3, matches / 3)


@pytest.mark.parametrize(
    ("hyp", "matches"),
    [
        # S1's C(4,2) = 6 skip-bigrams: police-killed, police-the, police-gunman,
        # killed-the, killed-gunman, the-gunman.
        # S2 shares police-the, police-gunman, the-gunman -> 3/6 = 0.5 (the paper).
        (S2, 3),
        # S3 (the gunman kill police) shares only the-gunman -> 1/6 = 0.167.
        (S3, 1),
        # S4 (the gunman police killed) shares the-gunman, police-killed -> 2/6 = 0.333.
        (S4, 2),
        # S5 has every pair of S1 reversed -> 0 (the paper's motivation for SU).
        (S5, 0),
    ],
)
def test_rouge_s_paper_examples(hyp, matches):
    result = score(hyp, S1, "s")
    assert result.matches == matches
    assert (result.ref_total, result.hyp_total) == (6, 6)
    assert rpf(result) == pytest.approx((matches / 6,) * 3)


@pytest.mark.parametrize(
    ("hyp", "matches"),
    [
        # ROUGE-SU (paper): the 6 skip-bigrams plus the 4 unigrams = 10 units.
        (S2, 3 + 3),  # + police, the, gunman
        (S3, 1 + 3),  # + the, gunman, police
        (S4, 2 + 4),  # + all four words
        (S5, 0 + 4),  # + all four: S5 "is not a total loss" under SU
    ],
)
def test_rouge_su_paper_examples(hyp, matches):
    result = score(hyp, S1, "su")
    assert (result.ref_total, result.hyp_total) == (10, 10)
    assert result.recall == pytest.approx(matches / 10)


def test_rouge_su_rouge155_omits_the_last_unigram():
    # ROUGE-1.5.5 adds the unigrams of all tokens but the last: S1's units are the
    # 6 skip-bigrams + police, killed, the = 9; S5's + gunman, the, killed.
    # Shared: no skip-bigram, unigrams "the" and "killed" -> 2/9.
    result = score(S5, S1, "su", su_unigrams="rouge155")
    assert (result.matches, result.ref_total, result.hyp_total) == (2, 9, 9)
    assert result.recall == pytest.approx(2 / 9)
    # S2: police-the, police-gunman, the-gunman + police, the (S2's last word
    # "gunman" has no unigram, and neither has S1's) -> 5/9.
    assert score(S2, S1, "su", su_unigrams="rouge155").recall == pytest.approx(5 / 9)
    # A one-token text has no unit at all under rouge155, one under the paper.
    assert score("a", "a", "su", su_unigrams="rouge155").recall == 0
    assert score("a", "a", "su").recall == 1


def test_rouge_s_skip_distance():
    # skip = 1: pairs with at most one word between.  S1: police-killed,
    # police-the, killed-the, killed-gunman, the-gunman = 5; S2 likewise gives
    # police-kill, police-the, kill-the, kill-gunman, the-gunman; shared:
    # police-the, the-gunman -> 2/5.
    result = score(S2, S1, "s", skip=1)
    assert (result.matches, result.ref_total) == (2, 5)
    # skip = 0 is ROUGE-2: S4 shares the-gunman, police-killed of 3 bigrams.
    assert score(S4, S1, "s", skip=0).recall == pytest.approx(2 / 3)


def test_rouge_w_paper_example():
    # Lin 2004 §4 with f(k) = k^2: X and Y1 share the run A B C D, so
    # WLCS = f(4) = 16 and R = f^-1(16 / f(7)) = sqrt(16/49) = 4/7; Y2 matches
    # A, B, C, D one at a time: WLCS = 4 f(1) = 4, R = sqrt(4/49) = 2/7.  Both
    # have LCS 4, so ROUGE-L cannot tell them apart.
    y1 = score(Y1, X, "w", weight=2.0)
    y2 = score(Y2, X, "w", weight=2.0)
    assert (y1.matches, y2.matches) == (16, 4)
    assert rpf(y1) == pytest.approx((4 / 7,) * 3)
    assert rpf(y2) == pytest.approx((2 / 7,) * 3)
    assert score(Y1, X, "l").recall == score(Y2, X, "l").recall == 4 / 7
    # With the usual weight 1.2 a single run still gives R = 4/7 exactly, and
    # Y2 gives f^-1(4 / 7^1.2) = 4^(1/1.2) / 7.
    assert score(Y1, X, "w").recall == pytest.approx(4 / 7)
    assert score(Y2, X, "w").recall == pytest.approx(4 ** (1 / 1.2) / 7)


def test_rouge_w_rouge155_example():
    # ROUGE-1.5.5 marks reference positions A B C D (0-3) for both Y1 and Y2, a
    # single run on the reference side, so both get hit f(4) = 16: the script
    # does not tell Y1 from Y2.  Recall's base is weighted twice:
    # f(f(7)) = 49^2 = 2401, R = sqrt(16/2401) = 4/49; precision's is f(7) = 49,
    # P = sqrt(16/49) = 4/7.
    for hyp in (Y1, Y2):
        result = score(hyp, X, "w", weight=2.0, wlcs="rouge155")
        assert (result.matches, result.hyp_total, result.ref_total) == (16, 49, 2401)
        assert result.recall == pytest.approx(4 / 49)
        assert result.precision == pytest.approx(4 / 7)
    # So identical texts do not get recall 1: for one sentence of m tokens,
    # R = f^-1(f(m) / f(f(m))) = m^(1 - weight); m = 4, weight 2 -> 1/4.
    same = score("a b c d", "a b c d", "w", weight=2.0, wlcs="rouge155")
    assert (same.recall, same.precision) == pytest.approx((0.25, 1.0))


def test_rouge_w_rouge155_clipping_quirks():
    # Reference sentences r1 = [x], r2 = [a, x, b]; hypothesis [a, x, b]; f(k) = k^2.
    # Unigrams left: reference x:2 a:1 b:1, hypothesis a:1 x:1 b:1.
    # r1: x marked, passes -> run 1 closed at the sentence end: hit f(1) = 1
    #     (hypothesis x now 0).
    # r2: a, x, b all marked.  a passes: run 1, next is marked, not closed.  x
    #     fails the clipping: neither extends nor closes the run.  b passes:
    #     run 2, sentence end -> f(2) = 4.  Hits 1 + 4 = 5 (a and b are not
    #     consecutive in the reference, yet they form one run).
    # Base: f(f(1) + f(3)) = f(10) = 100 -> R = sqrt(5/100); P = sqrt(5/f(3)).
    result = score("a x b", "x\na x b", "w", weight=2.0, wlcs="rouge155")
    assert result.matches == 5
    assert (result.recall, result.precision) == pytest.approx((math.sqrt(0.05), math.sqrt(5 / 9)))
    # r2 = [a, x]: a passes (run 1, next marked), x fails, the sentence ends with the
    # run still open and it is lost: only r1's f(1) = 1 counts.
    # Base f(f(1) + f(2)) = 25 -> R = 1/5; P = sqrt(1/f(2)) = 1/2.
    dropped = score("a x", "x\na x", "w", weight=2.0, wlcs="rouge155")
    assert dropped.matches == 1
    assert (dropped.recall, dropped.precision) == pytest.approx((0.2, 0.5))


def test_summary_level_union_lcs_paper_example():
    # Lin 2004 §3.2: r_i = w1 w2 w3 w4 w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5.
    # LCS(r_i, c1) = w1 w2, LCS(r_i, c2) = w1 w3 w5, union = w1 w2 w3 w5 -> 4.
    # R = 4/5, P = 4/10 (both candidate sentences count toward n).
    result = score("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", "w1 w2 w3 w4 w5", "lsum")
    assert result.matches == 4
    assert (result.recall, result.precision) == (4 / 5, 4 / 10)
    r_i, c1, c2 = ("w1 w2 w3 w4 w5", "w1 w2 w6 w7 w8", "w1 w3 w8 w9 w5")
    assert lcs.union_lcs_positions(r_i.split(), [c1.split(), c2.split()]) == [0, 1, 2, 4]


def test_summary_level_clipping_keeps_lsum_below_rouge_1():
    # Reference sentences [a], [a]; hypothesis [a].  Each reference sentence's
    # union LCS is "a": unclipped, hits 2 -> R = 2/2, P = 2/1 > 1.  Clipped, the
    # hypothesis has one "a" to give: hits 1 -> R = 1/2, P = 1, as ROUGE-1.
    result = score("a", "a\na", "lsum")
    assert (result.recall, result.precision) == (0.5, 1.0)
    assert rpf(result) == rpf(score("a", "a\na", "n"))


def test_sentence_split_values():
    hyp, ref = "a b. c d.", "c d. a b."
    # period: [a b.] [c d.] against [c d.] [a b.]: each reference sentence is
    # matched in full by one hypothesis sentence -> 4/4.
    assert score(hyp, ref, "lsum", sentence_split="period").recall == 1
    # none: one sentence each, which is ROUGE-L: LCS(a b c d, c d a b) = 2 -> 2/4.
    assert score(hyp, ref, "lsum", sentence_split="none").recall == 0.5
    assert score(hyp, ref, "l").recall == 0.5
    # newline: no line break, so one sentence, as none.
    assert score(hyp, ref, "lsum").recall == 0.5


def test_sentences_are_separated_by_real_line_breaks():
    # The reference sees real line breaks; the two characters backslash-n are
    # text (the command line converts them before).  ROUGE-N and ROUGE-L treat a
    # line break as a token boundary whatever the tokenizer.
    assert score("a b\nc d", "c d\na b", "lsum").recall == 1
    assert score(r"a b\nc d", "c d\na b", "lsum").recall == 0.5
    assert score("a b\nc d", "a b c d", "n", tokenize="whitespace-strict").recall == 1


def test_rouge_n_counts_and_set_counts():
    # Reference "a a a b" has unigrams a:3 b:1; hypothesis "a a c" a:2 c:1.
    # multiset: matches min(2,3) = 2 -> R = 2/4, P = 2/3.
    # set: {a, b} vs {a, c}: 1 shared -> R = 1/2, P = 1/2.
    assert (score("a a c", "a a a b").recall, score("a a c", "a a a b").precision) == (
        0.5, 2 / 3)
    as_set = score("a a c", "a a a b", counts="set")
    assert (as_set.matches, as_set.recall, as_set.precision) == (1, 0.5, 0.5)


def test_f_measure_forms():
    # R = 4/5, P = 2/5 (the summary-level example):
    # alpha = 0.5: PR / (P/2 + R/2) = 0.32 / 0.6 = 8/15.
    # beta = 1.2: (1 + 1.44) PR / (R + 1.44 P) = 0.7808 / 1.376.
    # alpha = 0 is recall, alpha = 1 precision.
    assert f_score(0.4, 0.8, "alpha=0.5") == pytest.approx(8 / 15)
    assert f_score(0.4, 0.8, "beta=1.2") == pytest.approx(0.7808 / 1.376)
    assert f_score(0.4, 0.8, "alpha=0") == pytest.approx(0.8)
    assert f_score(0.4, 0.8, "alpha=1") == pytest.approx(0.4)
    assert f_score(0.0, 0.0, "beta=1") == 0
    result = score("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", "w1 w2 w3 w4 w5", "lsum", f_measure="beta=1.2")
    assert result.fmeasure == pytest.approx(0.7808 / 1.376)


def test_perl_rounding():
    # "a b c" vs "a d d d d d": R = 1/6 -> 0.16667, P = 1/3 -> 0.33333,
    # F = 2 (0.16667)(0.33333) / 0.5 = 0.2222244... -> 0.22222 (unrounded: 2/9).
    result = score("a b c", "a d d d d d", rounding="perl-5dp")
    assert rpf(result) == (0.16667, 0.33333, 0.22222)
    assert score("a b c", "a d d d d d").fmeasure == pytest.approx(2 / 9)


# Hypothesis "a b c d" against:
#   ref1 "a b x y":     matches 2, R = 2/4, P = 2/4, F = 1/2
#   ref2 "a b c z z z": matches 3, R = 3/6, P = 3/4, F = 2(.5)(.75)/1.25 = 0.6
#   ref3 "a b c d":     matches 4, R = P = F = 1
MULTI_HYP = "a b c d"
REF1, REF2, REF3 = "a b x y", "a b c z z z", "a b c d"


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("best-f", (0.5, 0.75, 0.6)),  # ref2 has the best F
        ("best-recall", (0.5, 0.5, 0.5)),  # recall ties at 1/2: the first, ref1
        # pooled: matches 2+3, hypothesis total 4+4, reference total 4+6:
        # R = 5/10, P = 5/8, F = 2(.5)(.625)/1.125 = 5/9.
        ("pooled", (0.5, 0.625, 5 / 9)),
        ("mean", (0.5, 0.625, 0.55)),
        # max-p-max-r: R = max(.5, .5), P = max(.5, .75), F from those = 0.6.
        ("max-p-max-r", (0.5, 0.75, 0.6)),
        # jackknife, M = 2: leaving ref1 out leaves ref2, leaving ref2 out ref1;
        # the mean of the two = the mean rule.
        ("jackknife", (0.5, 0.625, 0.55)),
    ],
)
def test_multi_reference_rules(rule, expected):
    assert rpf(score(MULTI_HYP, [REF1, REF2], multi_ref=rule)) == pytest.approx(expected)


def test_jackknife_three_references():
    # Leave-one-out sets {2,3}, {1,3}, {1,2}; best recall in each: ref3 (1),
    # ref3 (1), ref1 (1/2, tied with ref2, the first wins) -> R = 2.5/3,
    # P = (1 + 1 + 0.5)/3, F = (1 + 1 + 0.5)/3.
    result = score(MULTI_HYP, [REF1, REF2, REF3], multi_ref="jackknife")
    assert rpf(result) == pytest.approx((5 / 6, 5 / 6, 5 / 6))
    # With report=precision the choice in {1,2} is ref2 (P 3/4):
    # R = (1 + 1 + .5)/3, P = (1 + 1 + .75)/3, F = (1 + 1 + .6)/3.
    by_p = score(MULTI_HYP, [REF1, REF2, REF3], multi_ref="jackknife", report="precision")
    assert rpf(by_p) == pytest.approx((2.5 / 3, 2.75 / 3, 2.6 / 3))
    # One reference: jackknife is just the pair.
    assert score(MULTI_HYP, [REF2], multi_ref="jackknife") == score(MULTI_HYP, [REF2])


def test_missing_references_are_dropped():
    assert sentence_rouge(MULTI_HYP, [None, REF3], opts()) == sentence_rouge(
        MULTI_HYP, [REF3], opts())
    # None at all: scored against one empty reference.
    assert rpf(sentence_rouge("", [None], opts(empty_policy="one"))) == (1, 1, 1)


def test_empty_policy():
    assert rpf(score("", "", "l")) == (0, 0, 0)
    assert rpf(score("", "", "l", empty_policy="one")) == (1, 1, 1)
    with pytest.raises(EmptyInputError):
        score("", "", "lsum", empty_policy="error")
    # Only one side empty is not the empty pair: 0 whatever the policy.
    assert rpf(score("", "a", empty_policy="one")) == (0, 0, 0)
    assert rpf(score("a", "", empty_policy="one")) == (0, 0, 0)
    # Empty after tokenizing counts as empty.
    assert rpf(score("!!", "?", tokenize="rouge-score", empty_policy="one")) == (1, 1, 1)


def test_truncation():
    # words:2 on the hypothesis only: "a b" against "a b c" -> R = 2/3, P = 1.
    assert rpf(score("a b c", "a b c", truncate="words:2"))[:2] == (2 / 3, 1)
    assert score("a b c", "a b c", truncate="words:2", truncate_side="both").recall == 1
    # words counts across sentences: the second sentence keeps one token.
    assert score("a b\nc d", "a b c", "lsum", truncate="words:3").hyp_total == 3
    # bytes:4 cuts "ab cd" to "ab c"; a cut inside "é" (2 bytes) drops it.
    assert score("ab cd", "ab c", truncate="bytes:4").recall == 1
    assert truncate_bytes("aé", 2) == "a"


def test_stopwords_and_stemming():
    # SMART stopwords: "the" and "a" are on the list, so both sides are [cat].
    assert score("the cat", "a cat", stopwords="smart").recall == 1
    # "cats" is longer than 3 characters and stems to "cat"; with a minimum of 4
    # it is left alone.
    assert score("cats", "cat", stemmer="porter-nltk").recall == 1
    assert score("cats", "cat", stemmer="porter-nltk", stem_min_length=4).recall == 0


def test_headline():
    result = RougeResult(0.1, 0.2, 0.3)
    assert headline(result, opts()) == 0.1
    assert headline(result, opts(report="precision")) == 0.2
    assert headline(result, opts(report="f")) == 0.3


def test_corpus_averages():
    # Pair 1: "a b" vs "a c": R = P = F = 1/2, counts (1, 2, 2).
    # Pair 2: "a" vs "a b c d": R = 1/4, P = 1, F = 0.4, counts (1, 1, 4).
    hyps, refs = ["a b", "a"], [["a c"], ["a b c d"]]

    def corpus(rule: str) -> RougeResult:
        return corpus_rouge(hyps, refs, opts(corpus_average=rule))

    assert rpf(corpus("macro")) == pytest.approx((0.375, 0.75, 0.45))
    # f-of-means: F(P = .75, R = .375) = 2(.75)(.375)/1.125 = 0.5.
    assert rpf(corpus("f-of-means")) == pytest.approx((0.375, 0.75, 0.5))
    # micro: matches 2, hypothesis 3, reference 6 -> R = 1/3, P = 2/3, F = 4/9.
    assert rpf(corpus("micro")) == pytest.approx((1 / 3, 2 / 3, 4 / 9))
    assert (corpus("micro").matches, corpus("micro").ref_total) == (2, 6)
    assert corpus_rouge([], [], opts()) == RougeResult(0.0, 0.0, 0.0)


def test_bootstrap_is_seeded_and_matches_rouge_score():
    np = pytest.importorskip("numpy")
    scoring = pytest.importorskip("rouge_score.scoring")
    rng = random.Random(3)
    words = ["a", "b", "c", "d", "e", "f"]
    hyps = [" ".join(rng.choices(words, k=rng.randint(1, 8))) for _ in range(40)]
    refs = [[" ".join(rng.choices(words, k=rng.randint(1, 8)))] for _ in range(40)]
    options = opts(corpus_average="bootstrap-median", bootstrap_samples=200, bootstrap_seed=11)
    ours = corpus_rouge(hyps, refs, options)
    assert ours == corpus_rouge(hyps, refs, options)  # deterministic
    aggregator = scoring.BootstrapAggregator(n_samples=200)
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        pair = sentence_rouge(hyp, seg_refs, opts())
        aggregator.add_scores(
            {"r": scoring.Score(pair.precision, pair.recall, pair.fmeasure)})
    np.random.seed(11)
    mid = aggregator.aggregate()["r"].mid
    assert (ours.precision, ours.recall, ours.fmeasure) == (mid.precision, mid.recall,
                                                           mid.fmeasure)
    mean = corpus_rouge(hyps, refs, attrs.evolve(options, corpus_average="bootstrap-mean"))
    macro = corpus_rouge(hyps, refs, opts())
    assert mean.recall == pytest.approx(macro.recall, abs=0.05)


def test_perl_rand_is_perls():
    from metricdiff.impls.reference.resample import perl_rand

    # perl 5.36: perl -e 'srand(0); print rand()' prints 0.17082803610629, and
    # perl -e 'srand(1); print rand()' 0.0416303447718782 (15 significant digits).
    assert next(perl_rand(0)) == pytest.approx(0.17082803610629, abs=1e-14)
    assert next(perl_rand(1)) == pytest.approx(0.0416303447718782, abs=1e-16)


def test_the_resamples_draw_perls_rows_for_every_seed_at_once():
    # ROUGE-1.5.5.pl l. 693-760: resample i calls srand(i), then int(rand(N)) N
    # times; perl -e 'srand(0); print int(rand(500))' prints 85, srand(1) 20.
    # The draws for every seed at once are the rows that perl_rand (checked
    # against perl above) gives one seed at a time, on sizes where the product
    # with N rounds either way.
    import itertools

    from metricdiff.impls.reference.resample import _perl_draws, perl_rand

    assert _perl_draws(2, 500)[:, 0].tolist() == [85, 20]
    for samples, size in ((1, 1), (3, 2), (40, 7), (25, 500), (4, 1999)):
        one_by_one = [[int(draw * size) for draw in itertools.islice(perl_rand(seed), size)]
                      for seed in range(samples)]
        assert _perl_draws(samples, size).tolist() == one_by_one


def test_bootstrap_rouge155_is_the_scripts_average():
    # ROUGE-1.5.5.pl -r 1000 on two units with ROUGE-1 recall 0.5 ("a b" vs "a c")
    # and 1 ("a" vs "a") prints Average_R: 0.75000 (run through pyrouge 0.1.3);
    # the numpy-style bootstrap-mean of the same pairs is 0.75475.
    options = opts(corpus_average="bootstrap-rouge155", rounding="perl-5dp")
    result = corpus_rouge(["a b", "a"], [["a c"], ["a"]], options)
    assert result.recall == 0.75
    assert corpus_rouge(["a b", "a"], [["a c"], ["a"]],
                        attrs.evolve(options, corpus_average="bootstrap-mean")).recall != 0.75


# --------------------------------------------------------------------------
# LCS algorithms

tokens = st.lists(st.sampled_from("abcde"), max_size=14)


@settings(max_examples=400, deadline=None)
@given(tokens, tokens)
def test_bit_parallel_lcs_equals_dp(a, b):
    assert lcs.lcs_length(a, b) == lcs.lcs_length_dp(a, b) == lcs.lcs_length_dp(b, a)


@settings(max_examples=300, deadline=None)
@given(tokens, tokens)
def test_bit_parallel_alignment_equals_dp_alignment(ref, hyp):
    pairs = lcs.lcs_alignment(ref, hyp)
    assert lcs.lcs_alignment_bits(ref, hyp) == pairs
    assert len(pairs) == lcs.lcs_length_dp(ref, hyp)
    assert all(ref[i] == hyp[j] for i, j in pairs)
    assert all(i1 < i2 and j1 < j2 for (i1, j1), (i2, j2) in itertools.pairwise(pairs))


@settings(max_examples=200, deadline=None)
@given(tokens, tokens)
def test_alignment_is_rouge_scores_lcs(ref, hyp):
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    assert [i for i, _ in lcs.lcs_alignment(ref, hyp)] == rouge_scorer.lcs_ind(ref, hyp)


@settings(max_examples=200, deadline=None)
@given(tokens, tokens)
def test_wlcs_is_between_lcs_and_one_run(ref, hyp):
    # Every match adds f(k+1) - f(k) >= 1 for weight >= 1, so WLCS >= LCS, and the
    # matches form at most one run of length LCS, so WLCS <= f(LCS).
    length = lcs.lcs_length(ref, hyp)
    value = lcs.wlcs(ref, hyp, 1.2)
    assert length - 1e-9 <= value <= length**1.2 + 1e-9
    marks = lcs.wlcs_marks(ref, hyp, 1.2)
    assert marks == sorted(set(marks))


# --------------------------------------------------------------------------
# Properties of the scores

words = st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "dog"])
sentences = st.lists(words, min_size=0, max_size=9).map(" ".join)
texts = st.lists(sentences, min_size=1, max_size=3).map("\n".join)
references = st.lists(texts, min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(texts, references, st.sampled_from(["l", "lsum"]))
def test_lcs_recall_at_most_rouge_1(hyp, refs, variant):
    for ref in refs:
        assert score(hyp, ref, variant).recall <= score(hyp, ref, "n").recall
        assert score(hyp, ref, variant).precision <= score(hyp, ref, "n").precision


order_free = st.sampled_from(["pooled", "mean", "max-p-max-r"])
variants = st.sampled_from(
    [("n", {"n": 1}), ("n", {"n": 2}), ("l", {}), ("lsum", {}), ("w", {}),
     ("w", {"wlcs": "rouge155"}), ("s", {}), ("s", {"skip": 2}), ("su", {})]
)


@settings(max_examples=150, deadline=None)
@given(texts, references, order_free, variants, st.randoms(use_true_random=False))
def test_reference_order_does_not_matter(hyp, refs, rule, variant, rng):
    shuffled = list(refs)
    rng.shuffle(shuffled)
    name, axes = variant
    a = score(hyp, refs, name, multi_ref=rule, **axes)
    b = score(hyp, shuffled, name, multi_ref=rule, **axes)
    assert rpf(a) == pytest.approx(rpf(b), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(texts, references, st.sampled_from(["best-f", "best-recall", "jackknife"]),
       st.randoms(use_true_random=False))
def test_reference_order_keeps_the_chosen_score(hyp, refs, rule, rng):
    # Rules that pick a reference may pick another among ties, but the value they
    # pick by is the same.
    shuffled = list(refs)
    rng.shuffle(shuffled)
    a, b = score(hyp, refs, "l", multi_ref=rule), score(hyp, shuffled, "l", multi_ref=rule)
    pick = {"best-f": lambda r: r.fmeasure}.get(rule, lambda r: r.recall)
    assert pick(a) == pytest.approx(pick(b), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(texts, variants)
def test_identical_texts_score_one(text, variant):
    name, axes = variant
    flat = text.split()
    assume(flat)
    if name == "n":
        assume(len(flat) >= axes["n"])
    if name == "s":
        assume(len(flat) >= 2)
    if axes.get("wlcs") == "rouge155":
        return  # ROUGE-1.5.5's double-weighted base: see test_rouge_w_rouge155_example
    result = score(text, text, name, **axes)
    assert rpf(result) == pytest.approx((1.0, 1.0, 1.0))


@settings(max_examples=150, deadline=None)
@given(sentences, sentences)
def test_summary_level_equals_sentence_level_for_one_sentence(hyp, ref):
    assert score(hyp, ref, "lsum") == score(hyp, ref, "l")


@settings(max_examples=150, deadline=None)
@given(texts, texts)
def test_skip_zero_is_rouge_2(hyp, ref):
    assert rpf(score(hyp, ref, "s", skip=0)) == rpf(score(hyp, ref, "n", n=2))


@settings(max_examples=100, deadline=None)
@given(texts, texts)
def test_paper_wlcs_with_weight_one_is_lcs(hyp, ref):
    # f(k) = k makes every match worth 1: ROUGE-W-1 = ROUGE-L.
    assert rpf(score(hyp, ref, "w", weight=1.0)) == pytest.approx(rpf(score(hyp, ref, "l")))


@settings(max_examples=100, deadline=None)
@given(texts, references)
def test_scores_are_between_zero_and_one(hyp, refs):
    for name, axes in [("n", {"n": 1}), ("lsum", {}), ("w", {"wlcs": "rouge155"}),
                       ("su", {"su_unigrams": "rouge155"})]:
        result = score(hyp, refs, name, multi_ref="pooled", **axes)
        assert all(0 <= value <= 1 + 1e-12 for value in rpf(result))


# --------------------------------------------------------------------------
# Agreement with rouge-score where the conventions match

ascii_words = st.sampled_from(["The", "cat", "sat", "on", "mat", "a", "dog", "cats",
                               "running", "runs", "x", "1", "It's", "-", "day."])
rs_sentences = st.lists(ascii_words, min_size=0, max_size=10).map(" ".join)
rs_texts = st.lists(rs_sentences, min_size=1, max_size=3).map("\n".join)

RS_TYPES = {"rouge1": ("n", 1), "rouge2": ("n", 2), "rougeL": ("l", 1), "rougeLsum": ("lsum", 1)}


@settings(max_examples=200, deadline=None)
@given(rs_texts, st.lists(rs_texts, min_size=1, max_size=3), st.booleans())
def test_matches_rouge_score(hyp, refs, stemmed):
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    scorer = rouge_scorer.RougeScorer(list(RS_TYPES), use_stemmer=stemmed)
    theirs = scorer.score_multi(refs, hyp) if len(refs) > 1 else scorer.score(refs[0], hyp)
    for rouge_type, (variant, n) in RS_TYPES.items():
        ours = score(hyp, refs, variant, n=n, tokenize="rouge-score", multi_ref="best-f",
                     stemmer="porter-nltk" if stemmed else "none")
        expected = theirs[rouge_type]
        assert rpf(ours) == pytest.approx(
            (expected.recall, expected.precision, expected.fmeasure), abs=1e-12
        ), rouge_type

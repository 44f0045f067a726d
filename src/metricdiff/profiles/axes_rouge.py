"""ROUGE's axes (Lin 2004)."""

from __future__ import annotations

import math

from metricdiff.errors import ConventionError
from metricdiff.profiles.axis import (
    Axis,
    choice,
    parse_int,
    parse_whole_number,
    positive_numbers_up_to,
    whole_numbers_up_to,
)

#: ROUGE-W's largest weight: f(k) = k^weight must stay a float for every run
#: length k of a segment (150,000 words at the longest line: 150000^20 is 3e103).
MOST_WEIGHT = 20.0
#: The largest beta of F: (1 + beta^2) stays a float far beyond; recall alone is
#: alpha=1.
MOST_BETA = 1e6
#: The most bootstrap resamples: each one draws every segment, and 100,000 are
#: a hundred times rouge-score's 1,000.
MOST_BOOTSTRAP_SAMPLES = 100_000
#: A bootstrap seed is numpy's: a 32-bit number.
MOST_SEED = 2**32 - 1


def _parse_int_allowing_unlimited(text: str) -> int:
    """A skip distance: a whole number >= 0, or -1 for unlimited (ROUGE-S*)."""
    return parse_whole_number(text, -1)


def _parse_count(text: str) -> int:
    """A whole number >= 0."""
    return parse_whole_number(text, 0)


def _parse_seed(text: str) -> int:
    """A whole number from 0 to ``MOST_SEED``."""
    return parse_whole_number(text, 0, most=MOST_SEED)


def _parse_f_measure(text: str) -> str:
    """``alpha=A`` (0 <= A <= 1, ROUGE-1.5.5's weighting) or ``beta=B`` (B > 0)."""
    name, _, number = text.partition("=")
    try:
        value = float(number)
    except ValueError:
        value = math.nan
    if name == "alpha" and 0.0 <= value <= 1.0:
        return f"alpha={value:g}"
    if name == "beta" and 0 < value <= MOST_BETA:
        return f"beta={value:g}"
    raise ConventionError(f"expected alpha=A with 0 <= A <= 1 or beta=B with 0 < B <= "
                          f"{MOST_BETA:,.0f}, got {text!r}")


def _parse_truncate(text: str) -> str:
    """``none``, ``words:N``, ``bytes:N`` or ``line-chars:N``."""
    if text == "none":
        return text
    unit, _, number = text.partition(":")
    if unit in ("words", "bytes", "line-chars") and number.isascii() and number.isdigit():
        return f"{unit}:{parse_whole_number(number, 0)}"
    raise ConventionError(f"expected none, words:N, bytes:N or line-chars:N, got {text!r}")


VARIANT = choice(
    "variant",
    "variant",
    "Which ROUGE (set by the metric name).",
    "n",
    {
        "n": "ROUGE-N, n-gram co-occurrence (Lin 2004 eq. 1)",
        "l": "ROUGE-L, sentence-level LCS (§3.1)",
        "lsum": "ROUGE-Lsum, summary-level union LCS (§3.2)",
        "w": "ROUGE-W, weighted LCS (§4)",
        "s": "ROUGE-S, skip-bigrams (§5)",
        "su": "ROUGE-SU, skip-bigrams plus unigrams (§5.1)",
    },
)

ROUGE_N = Axis("n", "n", "The n of ROUGE-N (set by the metric name, rouge-1 ... rouge-9).", 1,
               parser=parse_int, accepts="a whole number >= 1")

WEIGHT = Axis("weight", "wlcsw", "ROUGE-W's weighting exponent: f(k) = k^weight.", 1.2,
              parser=positive_numbers_up_to(MOST_WEIGHT),
              accepts=f"a positive number of at most {MOST_WEIGHT:g}")

SKIP = Axis(
    "skip",
    "skip",
    "ROUGE-S/SU's maximum skip distance: words allowed between the pair; -1 = unlimited.",
    -1,
    parser=_parse_int_allowing_unlimited,
    accepts="a whole number >= 0, or -1 for unlimited",
)

SENTENCE_SPLIT = choice(
    "sentence_split",
    "split",
    "How a text is cut into sentences for summary-level LCS.",
    "newline",
    {
        "newline": "one sentence per line (a literal \\n in a segment)",
        "punkt": "NLTK's punkt model",
        "period": "after each '.'",
        "none": "the whole text is one sentence",
    },
)

STEMMER = choice(
    "stemmer",
    "stem",
    "Which Porter stemmer, if any, is applied to tokens longer than stem_min_length.",
    "none",
    {
        "none": "no stemming",
        "porter-nltk": "NLTK PorterStemmer, NLTK_EXTENSIONS mode",
        "porter-original": "NLTK PorterStemmer, ORIGINAL_ALGORITHM mode",
        "porter-rouge155": "the ROUGE-1.5.5 Perl script's Porter stemmer",
        "porter-rouge155-wordnet": "the Perl script's Porter with its WordNet exception table",
        "porter-original-wordnet": "NLTK's ORIGINAL_ALGORITHM Porter with the Perl script's "
        "WordNet exception table (sacrerouge's PythonRouge)",
    },
)

STEM_MIN_LENGTH = Axis(
    "stem_min_length",
    "stemmin",
    "Only tokens longer than this are stemmed.",
    3,
    parser=_parse_count,
    accepts="a whole number >= 0",
)

STOPWORDS = choice(
    "stopwords",
    "stop",
    "Whether stopwords are removed before counting.",
    "none",
    {"none": "keep every token", "smart": "remove the ROUGE-1.5.5 SMART list"},
)

COUNTS = choice(
    "counts",
    "counts",
    "How repeated n-grams count.",
    "multiset",
    {"multiset": "clipped counts (the paper)", "set": "each distinct n-gram once"},
)

MULTI_REF = choice(
    "multi_ref",
    "multi",
    "How several references make one score.",
    "jackknife",
    {
        "best-f": "the reference with the best F, per score type",
        "best-recall": "the reference with the best recall",
        "pooled": "counts summed over references (ROUGE-1.5.5 -f A)",
        "mean": "the mean over references",
        "jackknife": "mean over the M leave-one-out sets of the best score (Lin 2004 §2.1)",
        "max-p-max-r": "best precision and best recall separately, then F (pycocoevalcap)",
    },
)

F_MEASURE = Axis(
    "f_measure",
    "f",
    "How P and R combine: alpha=A gives PR/((1-A)P + AR); beta=B gives "
    "(1+B^2)PR/(R + B^2 P).",
    "alpha=0.5",
    parser=_parse_f_measure,
    accepts=f"alpha=A with 0 <= A <= 1, or beta=B with 0 < B <= {MOST_BETA:,.0f}",
)

REPORT = choice(
    "report",
    "report",
    "What a single ROUGE score means.",
    "recall",
    {"recall": "recall (the paper's headline)", "precision": "precision", "f": "F-measure"},
)

ROUNDING = choice(
    "rounding",
    "round",
    "Rounding before F is formed.",
    "exact",
    {"exact": "no rounding", "perl-5dp": "R and P rounded to 5 decimals, F from those"},
)

CORPUS_AVERAGE = choice(
    "corpus_average",
    "avg",
    "How per-pair scores make a corpus score.",
    "macro",
    {
        "macro": "mean of per-pair R, P and F",
        "f-of-means": "F of the mean R and mean P",
        "micro": "pooled counts",
        "bootstrap-mean": "mean of bootstrap resamples (seeded)",
        "bootstrap-median": "median of bootstrap resamples (seeded)",
        "bootstrap-rouge155": "ROUGE-1.5.5's printed Average: mean of bootstrap resamples, "
        "resample i drawn by Perl's drand48 after srand(i), summed in sorted order",
        "bootstrap-sacrebleu": "mean of bootstrap resamples drawn as sacrebleu's paired tests "
        "draw them: numpy's default_rng(seed), statistics summed as float32 (its μ)",
    },
)

WLCS = choice(
    "wlcs",
    "wlcs",
    "How ROUGE-W normalises weighted LCS.",
    "paper",
    {
        "paper": "f^-1(WLCS / f(m)) as in Lin 2004 §4",
        "rouge155": "ROUGE-1.5.5: double-weighted base, runs counted on reference positions",
    },
)

SU_UNIGRAMS = choice(
    "su_unigrams",
    "su",
    "Which unigrams ROUGE-SU adds to the skip-bigrams.",
    "paper",
    {"paper": "every unigram", "rouge155": "the last token's unigram omitted"},
)

TRUNCATE = Axis(
    "truncate",
    "trunc",
    "Length limit applied before scoring: none, words:N, bytes:N (UTF-8 bytes of "
    "the text) or line-chars:N (characters of the stripped lines, the line breaks "
    "joining them not counted).",
    "none",
    parser=_parse_truncate,
    accepts="none, words:N, bytes:N or line-chars:N",
)

TRUNCATE_SIDE = choice(
    "truncate_side",
    "truncside",
    "What the length limit applies to.",
    "hypothesis",
    {"hypothesis": "the hypothesis only", "both": "hypothesis and references"},
)

BOOTSTRAP_SEED = Axis("bootstrap_seed", "seed", "Seed of bootstrap resampling: corpus "
                      "averages, and `rank`'s intervals and tests.", 0,
                      parser=_parse_seed, accepts=f"a whole number from 0 to {MOST_SEED}")

BOOTSTRAP_SAMPLES = Axis("bootstrap_samples", "samples",
                         "Resamples of bootstrap resampling: corpus averages, and `rank`'s "
                         "intervals and tests.", 1000,
                         parser=whole_numbers_up_to(MOST_BOOTSTRAP_SAMPLES),
                         accepts=f"a whole number from 1 to {MOST_BOOTSTRAP_SAMPLES}")

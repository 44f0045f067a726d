"""BLEU's axes (Papineni et al. 2002; Chen & Cherry 2014 for smoothing)."""

from __future__ import annotations

import math

from metricdiff.errors import ConventionError
from metricdiff.profiles.axis import (
    Axis,
    choice,
    parse_positive_number,
    whole_numbers_up_to,
)

#: The largest n-gram order: BLEU's cost grows with its square (every n-gram of
#: every order is counted), and 20 is five times the paper's N = 4.
MOST_ORDER = 20
#: The largest smoothing constant: the methods' own are 0.1 to 5.
MOST_SMOOTH_VALUE = 1000.0


def _parse_optional_float(text: str) -> float | None:
    """A positive number of at most ``MOST_SMOOTH_VALUE``, or ``default`` (None:
    the method's own constant)."""
    if text in ("", "default"):
        return None
    try:
        return parse_positive_number(text, MOST_SMOOTH_VALUE)
    except ConventionError:
        raise ConventionError(f"expected a positive number of at most "
                              f"{MOST_SMOOTH_VALUE:g}, or 'default', got {text!r}") from None


def _parse_weights(text: str) -> tuple[float, ...] | None:
    """``uniform`` or a comma-separated list of non-negative weights."""
    if text == "uniform":
        return None
    try:
        weights = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise ConventionError(
            f"expected 'uniform' or comma-separated numbers, got {text!r}"
        ) from None
    if any(not math.isfinite(w) or w < 0 for w in weights) or sum(weights) <= 0:
        raise ConventionError(f"weights must be non-negative with a positive sum, got {text!r}")
    return weights


MAX_ORDER = Axis("max_order", "order", "Longest n-gram counted (BLEU's N).", 4,
                 parser=whole_numbers_up_to(MOST_ORDER),
                 accepts=f"a whole number from 1 to {MOST_ORDER}")

WEIGHTS = Axis(
    "weights",
    "w",
    "Weights w_n of the log precisions; 'uniform' is 1/N each.",
    None,
    parser=_parse_weights,
    none_text="uniform",
    accepts="'uniform', or max_order comma-separated non-negative numbers with a "
    "positive sum, e.g. 0.5,0.5",
)

ENTITIES = choice(
    "entities",
    "ent",
    "Whether mteval's markup is decoded before tokenizing: the entities &quot; &amp; "
    "&lt; &gt; (and &apos; for intl) and the <skipped> tag (13a and intl only).",
    "decode",
    {
        "decode": "decoded and removed first, as mteval-v13a and -v14 do",
        "keep": "left as written, so &amp; is split like any other text",
    },
)

REF_LENGTH = choice(
    "ref_length",
    "reflen",
    "The effective reference length r of each segment.",
    "closest",
    {
        "closest": "the reference length closest to the hypothesis length",
        "shortest": "the shortest reference length",
        "average": "the mean reference length",
    },
)

CLOSEST_TIE = choice(
    "closest_tie",
    "tie",
    "Which length 'closest' takes when two references are equally close.",
    "shorter",
    {"shorter": "the shorter one", "first": "the first in reference order"},
)

EMPTY_BP = choice(
    "empty_bp",
    "ebp",
    "The brevity penalty of an empty hypothesis against empty references (c = r = 0).",
    "one",
    {
        "one": "BP = 1, as c >= r gives (the reference's reading)",
        "zero": "BP = 0 for every empty hypothesis, whatever r is",
    },
)

SMOOTHING = choice(
    "smoothing",
    "smooth",
    "What a modified precision with zero matches becomes.",
    "none",
    {
        "none": "p_n = 0 (the paper)",
        "floor": "p_n = epsilon / total (Chen & Cherry 1; epsilon = smooth_value, 0.1)",
        "add-k": "k added to matches and totals (Chen & Cherry 2; k = smooth_value, 1)",
        "exp": "p_n = 1 / (2^k total) for the k-th zero order (NIST, Chen & Cherry 3)",
        "cc4": "Chen & Cherry 4: like exp but 1/(K/ln(len)) grows with length (K = 5)",
        "cc5": "Chen & Cherry 5: mean of the precisions of orders n-1, n and n+1",
        "cc6": "Chen & Cherry 6: interpolation with p_{n-1}^2/p_{n-2} (alpha = 5)",
        "cc7": "Chen & Cherry 7: smoothing 4, then smoothing 5",
        "epsilon": "(matches + 1e-15) / (total + 1e-9) on every order, and c + 1e-15 "
        "against r + 1e-9 in BP, so no pair is ever empty (pycocoevalcap)",
        "float-min": "NLTK method0: a zero precision becomes sys.float_info.min",
        "skip": "a zero precision counts as 1: its log term is 0, the weights stay "
        "(compare-mt)",
    },
)

SMOOTH_VALUE = Axis(
    "smooth_value",
    "sv",
    "The constant of the smoothing method (floor's epsilon, add-k's k, cc4's K, "
    "cc6's alpha); 'default' takes the method's own.",
    None,
    parser=_parse_optional_float,
    accepts=f"a positive number of at most {MOST_SMOOTH_VALUE:g}, or 'default'",
)

SMOOTH_ORDERS = choice(
    "smooth_orders",
    "sorders",
    "Which orders add-k smoothing touches.",
    "n>1",
    {"n>1": "bigrams and up (Lin & Och 2004)", "all": "unigrams too"},
)

EMPTY_ORDER = choice(
    "empty_order",
    "eorder",
    "An order with no n-grams at all (hypothesis shorter than n).",
    "zero",
    {
        "zero": "precision 0, so the score is 0",
        "denominator-one": "each segment's total is max(1, count) (NLTK)",
        "ignore": "its log term is 0 but the sum is still divided by N (mteval)",
        "effective-order": "the order is dropped and N shrinks (sacrebleu's effective order)",
    },
)

ALL_ZERO = choice(
    "all_zero",
    "allzero",
    "When no unigram matches at all.",
    "smooth",
    {"zero": "return 0 before smoothing", "smooth": "smooth as usual"},
)

LEVEL = choice(
    "level",
    "level",
    "How a corpus score is formed.",
    "corpus",
    {
        "corpus": "pooled counts over all segments (the paper)",
        "sentence-mean": "the mean of the segments' sentence scores",
    },
)

EMPTY_REFERENCE = choice(
    "empty_reference",
    "eref",
    "What an empty reference string is.",
    "length-zero",
    {
        "length-zero": "a reference of length 0 that takes part in r",
        "dropped": "no reference at all",
    },
)

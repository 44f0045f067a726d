"""The convention axes: every choice a BLEU or ROUGE implementation makes that the
papers leave open or that differ from them.

The names and values here are public API (see ``shared/CONVENTIONS.md``): they are
what users write in ``-o axis=value``, what adapter profiles declare and what
signatures and findings print.  Add axes and values; never rename one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Union

import attrs

from metricdiff.errors import ConventionError

#: A typed axis value: a name from a fixed list, a number, or a weight vector.
Value = Union[str, int, float, "tuple[float, ...]", None]


def _parse_int(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise ConventionError(f"expected a whole number, got {text!r}") from None
    if number < 1:
        raise ConventionError(f"expected a whole number of at least 1, got {text!r}")
    return number


def _parse_optional_float(text: str) -> float | None:
    if text in ("", "default"):
        return None
    try:
        number = float(text)
    except ValueError:
        raise ConventionError(f"expected a number or 'default', got {text!r}") from None
    if not math.isfinite(number) or number <= 0:
        raise ConventionError(f"expected a positive finite number, got {text!r}")
    return number


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


def _format(value: Value, none_text: str) -> str:
    if value is None:
        return none_text
    if isinstance(value, tuple):
        return ",".join(f"{w:g}" for w in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@attrs.frozen
class Axis:
    """One convention axis.

    ``values`` lists the allowed names for a choice axis; numeric axes leave it
    empty and parse with ``parser`` instead.  ``paper`` is the value that follows
    the paper, ``short`` the key used in signatures.
    """

    name: str
    short: str
    doc: str
    paper: Value
    values: tuple[str, ...] = ()
    parser: Callable[[str], Value] | None = None
    value_docs: dict[str, str] = attrs.field(factory=dict)
    none_text: str = "default"  # how a None value (the method's own default) prints

    def parse(self, text: str) -> Value:
        """Turn the text a user wrote into the typed value, or raise ConventionError."""
        text = text.strip()
        if self.parser is not None:
            try:
                return self.parser(text)
            except ConventionError as error:
                raise ConventionError(f"axis {self.name!r}: {error}") from None
        if text not in self.values:
            raise ConventionError(
                f"unknown value {text!r} for axis {self.name!r} "
                f"(known: {', '.join(self.values)})"
            )
        return text

    def format(self, value: Value) -> str:
        """The value as it appears in a signature or report."""
        return _format(value, self.none_text)


def _choice(
    name: str, short: str, doc: str, paper: str, values: dict[str, str]
) -> Axis:
    return Axis(name, short, doc, paper, tuple(values), None, values)


TOKENIZE = _choice(
    "tokenize",
    "tok",
    "How a segment is cut into tokens.",
    "none",
    {
        "none": "split on Unicode whitespace (str.split)",
        "13a": "mteval-v13a rules: punctuation split off, '.' and ',' kept inside numbers",
        "intl": "mteval-v14 international rules: Unicode punctuation and symbols split off",
        "zh": "each CJK character is a token, the rest tokenized by 13a rules",
        "zh-sacrebleu": "sacrebleu's zh: its Ext-B range, written '\\u20000', makes "
        "U+2001..U+2A6D (dashes, quotes, arrows...) count as Chinese too",
        "char": "every non-space character is a token",
        "ja-mecab": "Japanese morphemes from MeCab with the IPA dictionary",
        "ko-mecab": "Korean morphemes from MeCab-ko",
        "rouge-score": "lowercase, then every run of non-[a-z0-9] becomes a space",
        "rouge155": "ROUGE-1.5.5 preprocessing: ASCII only, '-' dropped, non-ASCII removed",
        "nltk-word": "NLTK's Treebank word tokenizer",
        "whitespace-strict": "str.split(' '): double spaces make empty tokens",
    },
)

LOWERCASE = _choice(
    "lowercase",
    "lc",
    "Case folding.",
    "none",
    {
        "none": "case is kept",
        "unicode": "str.lower(): every script, may change length",
        "ascii": "A-Z only, as the Perl scripts do",
    },
)

LOWERCASE_STAGE = _choice(
    "lowercase_stage",
    "lcstage",
    "Whether case folding happens before or after tokenizing.",
    "before-tokenize",
    {"before-tokenize": "fold the raw line", "after-tokenize": "fold each token"},
)

EMPTY_POLICY = _choice(
    "empty_policy",
    "empty",
    "What an empty hypothesis scored against empty references yields.",
    "zero",
    {"zero": "score 0", "one": "score 1 (100 for BLEU)", "error": "refuse the input"},
)

MAX_ORDER = Axis("max_order", "order", "Longest n-gram counted (BLEU's N).", 4,
                 parser=_parse_int)

WEIGHTS = Axis(
    "weights",
    "w",
    "Weights w_n of the log precisions; 'uniform' is 1/N each.",
    None,
    parser=_parse_weights,
    none_text="uniform",
)

REF_LENGTH = _choice(
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

CLOSEST_TIE = _choice(
    "closest_tie",
    "tie",
    "Which length 'closest' takes when two references are equally close.",
    "shorter",
    {"shorter": "the shorter one", "first": "the first in reference order"},
)

SMOOTHING = _choice(
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
        "epsilon": "pycocoevalcap: (matches + 1e-15) / (total + 1e-9) on every order",
        "float-min": "NLTK method0: a zero precision becomes sys.float_info.min",
    },
)

SMOOTH_VALUE = Axis(
    "smooth_value",
    "sv",
    "The constant of the smoothing method (floor's epsilon, add-k's k, cc4's K, "
    "cc6's alpha); 'default' takes the method's own.",
    None,
    parser=_parse_optional_float,
)

SMOOTH_ORDERS = _choice(
    "smooth_orders",
    "sorders",
    "Which orders add-k smoothing touches.",
    "n>1",
    {"n>1": "bigrams and up (Lin & Och 2004)", "all": "unigrams too"},
)

EMPTY_ORDER = _choice(
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

ALL_ZERO = _choice(
    "all_zero",
    "allzero",
    "When no unigram matches at all.",
    "smooth",
    {"zero": "return 0 before smoothing", "smooth": "smooth as usual"},
)

LEVEL = _choice(
    "level",
    "level",
    "How a corpus score is formed.",
    "corpus",
    {
        "corpus": "pooled counts over all segments (the paper)",
        "sentence-mean": "the mean of the segments' sentence scores",
    },
)

EMPTY_REFERENCE = _choice(
    "empty_reference",
    "eref",
    "What an empty reference string is.",
    "length-zero",
    {
        "length-zero": "a reference of length 0 that takes part in r",
        "dropped": "no reference at all",
    },
)

def _parse_int_allowing_unlimited(text: str) -> int:
    """A skip distance: a whole number >= 0, or -1 for unlimited (ROUGE-S*)."""
    try:
        number = int(text)
    except ValueError:
        raise ConventionError(f"expected a whole number or -1, got {text!r}") from None
    if number < -1:
        raise ConventionError(f"expected a whole number >= -1, got {text!r}")
    return number


def _parse_count(text: str) -> int:
    """A whole number >= 0."""
    try:
        number = int(text)
    except ValueError:
        raise ConventionError(f"expected a whole number, got {text!r}") from None
    if number < 0:
        raise ConventionError(f"expected a whole number >= 0, got {text!r}")
    return number


def _parse_positive_float(text: str) -> float:
    try:
        number = float(text)
    except ValueError:
        raise ConventionError(f"expected a number, got {text!r}") from None
    if not math.isfinite(number) or number <= 0:
        raise ConventionError(f"expected a positive number, got {text!r}")
    return number


def _parse_f_measure(text: str) -> str:
    """``alpha=A`` (0 <= A <= 1, ROUGE-1.5.5's weighting) or ``beta=B`` (B > 0)."""
    name, _, number = text.partition("=")
    try:
        value = float(number)
    except ValueError:
        value = math.nan
    if name == "alpha" and 0.0 <= value <= 1.0:
        return f"alpha={value:g}"
    if name == "beta" and math.isfinite(value) and value > 0:
        return f"beta={value:g}"
    raise ConventionError(f"expected alpha=A with 0 <= A <= 1 or beta=B with B > 0, got {text!r}")


def _parse_truncate(text: str) -> str:
    """``none``, ``words:N`` or ``bytes:N``."""
    if text == "none":
        return text
    unit, _, number = text.partition(":")
    if unit in ("words", "bytes") and number.isdigit():
        return f"{unit}:{int(number)}"
    raise ConventionError(f"expected none, words:N or bytes:N, got {text!r}")


VARIANT = _choice(
    "variant",
    "variant",
    "Which ROUGE (set by the metric name).",
    "n",
    {
        "n": "ROUGE-N, n-gram co-occurrence (Lin 2004 eq. 1)",
        "l": "ROUGE-L, sentence-level LCS (§3.1)",
        "lsum": "ROUGE-Lsum, summary-level union LCS (§3.2)",
        "w": "ROUGE-W, weighted LCS (§3.3)",
        "s": "ROUGE-S, skip-bigrams (§5)",
        "su": "ROUGE-SU, skip-bigrams plus unigrams (§5.1)",
    },
)

ROUGE_N = Axis("n", "n", "The n of ROUGE-N (set by the metric name, rouge-1 ... rouge-9).", 1,
               parser=_parse_int)

WEIGHT = Axis("weight", "wlcsw", "ROUGE-W's weighting exponent: f(k) = k^weight.", 1.2,
              parser=_parse_positive_float)

SKIP = Axis(
    "skip",
    "skip",
    "ROUGE-S/SU's maximum skip distance: words allowed between the pair; -1 = unlimited.",
    -1,
    parser=_parse_int_allowing_unlimited,
)

SENTENCE_SPLIT = _choice(
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

STEMMER = _choice(
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
    },
)

STEM_MIN_LENGTH = Axis(
    "stem_min_length",
    "stemmin",
    "Only tokens longer than this are stemmed.",
    3,
    parser=_parse_count,
)

STOPWORDS = _choice(
    "stopwords",
    "stop",
    "Whether stopwords are removed before counting.",
    "none",
    {"none": "keep every token", "smart": "remove the ROUGE-1.5.5 SMART list"},
)

COUNTS = _choice(
    "counts",
    "counts",
    "How repeated n-grams count.",
    "multiset",
    {"multiset": "clipped counts (the paper)", "set": "each distinct n-gram once"},
)

MULTI_REF = _choice(
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
)

REPORT = _choice(
    "report",
    "report",
    "What a single ROUGE score means.",
    "recall",
    {"recall": "recall (the paper's headline)", "precision": "precision", "f": "F-measure"},
)

ROUNDING = _choice(
    "rounding",
    "round",
    "Rounding before F is formed.",
    "exact",
    {"exact": "no rounding", "perl-5dp": "R and P rounded to 5 decimals, F from those"},
)

CORPUS_AVERAGE = _choice(
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
    },
)

WLCS = _choice(
    "wlcs",
    "wlcs",
    "How ROUGE-W normalises weighted LCS.",
    "paper",
    {
        "paper": "f^-1(WLCS / f(m)) as in Lin 2004 §3.3",
        "rouge155": "ROUGE-1.5.5: double-weighted base, runs counted on reference positions",
    },
)

SU_UNIGRAMS = _choice(
    "su_unigrams",
    "su",
    "Which unigrams ROUGE-SU adds to the skip-bigrams.",
    "paper",
    {"paper": "every unigram", "rouge155": "the last token's unigram omitted"},
)

TRUNCATE = Axis(
    "truncate",
    "trunc",
    "Length limit applied before scoring: none, words:N or bytes:N.",
    "none",
    parser=_parse_truncate,
)

TRUNCATE_SIDE = _choice(
    "truncate_side",
    "truncside",
    "What the length limit applies to.",
    "hypothesis",
    {"hypothesis": "the hypothesis only", "both": "hypothesis and references"},
)

BOOTSTRAP_SEED = Axis("bootstrap_seed", "seed", "Seed of bootstrap corpus averages.", 0,
                      parser=_parse_count)

BOOTSTRAP_SAMPLES = Axis("bootstrap_samples", "samples",
                         "Resamples of bootstrap corpus averages.", 1000, parser=_parse_int)


#: Every axis, in the order signatures print them.
ALL_AXES: tuple[Axis, ...] = (
    TOKENIZE,
    LOWERCASE,
    LOWERCASE_STAGE,
    MAX_ORDER,
    WEIGHTS,
    REF_LENGTH,
    CLOSEST_TIE,
    SMOOTHING,
    SMOOTH_VALUE,
    SMOOTH_ORDERS,
    EMPTY_ORDER,
    ALL_ZERO,
    LEVEL,
    EMPTY_REFERENCE,
    EMPTY_POLICY,
    VARIANT,
    ROUGE_N,
    WEIGHT,
    SKIP,
    SENTENCE_SPLIT,
    STEMMER,
    STEM_MIN_LENGTH,
    STOPWORDS,
    COUNTS,
    MULTI_REF,
    F_MEASURE,
    REPORT,
    ROUNDING,
    CORPUS_AVERAGE,
    WLCS,
    SU_UNIGRAMS,
    TRUNCATE,
    TRUNCATE_SIDE,
    BOOTSTRAP_SEED,
    BOOTSTRAP_SAMPLES,
)

AXES: dict[str, Axis] = {axis.name: axis for axis in ALL_AXES}


def axis_named(name: str) -> Axis:
    """The axis called ``name``, or a ConventionError listing the known ones."""
    try:
        return AXES[name]
    except KeyError:
        raise ConventionError(
            f"unknown axis {name!r} (known: {', '.join(AXES)})"
        ) from None


#: The ROUGE variants whose score an axis can change (Lin 2004: the weighting
#: function belongs to ROUGE-W, the skip distance to ROUGE-S/SU, ...); an axis not
#: listed can change every variant.  ``sentence_split`` matters where sentences are
#: scored as sentences: summary-level LCS, and ROUGE-1.5.5's sentence-wise ROUGE-W.
ROUGE_VARIANTS_AFFECTED: dict[str, tuple[str, ...]] = {
    "weight": ("w",),
    "wlcs": ("w",),
    "skip": ("s", "su"),
    "su_unigrams": ("su",),
    "sentence_split": ("lsum", "w"),
}


def affects(axis_name: str, variant: str | None) -> bool:
    """Whether ``axis_name`` can change the score of ROUGE ``variant`` (always
    true for BLEU, which has no variant)."""
    variants = ROUGE_VARIANTS_AFFECTED.get(axis_name)
    return variant is None or variants is None or variant in variants

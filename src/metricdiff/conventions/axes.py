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

#: A typed axis value: a name from a fixed list, a number, or a weight vector.
Value = Union[str, int, float, "tuple[float, ...]", None]


class ConventionError(ValueError):
    """An axis or value that metricdiff does not know, or that does not parse."""


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

"""The convention axes: every choice a BLEU or ROUGE implementation makes that the
papers leave open or that differ from them.

The names and values here are public API (written out in ``docs/conventions.md``,
printed by ``metricdiff axes``): they are what users write in ``-o axis=value``,
what adapter profiles declare and what signatures and findings print.  Add axes
and values; never rename one.
"""

from __future__ import annotations

from metricdiff.errors import ConventionError
from metricdiff.profiles.axes_bleu import (
    ALL_ZERO,
    CLOSEST_TIE,
    EMPTY_BP,
    EMPTY_ORDER,
    EMPTY_REFERENCE,
    ENTITIES,
    LEVEL,
    MAX_ORDER,
    REF_LENGTH,
    SMOOTH_ORDERS,
    SMOOTH_VALUE,
    SMOOTHING,
    WEIGHTS,
)
from metricdiff.profiles.axes_rouge import (
    BOOTSTRAP_SAMPLES,
    BOOTSTRAP_SEED,
    CORPUS_AVERAGE,
    COUNTS,
    F_MEASURE,
    MULTI_REF,
    REPORT,
    ROUGE_N,
    ROUNDING,
    SENTENCE_SPLIT,
    SKIP,
    STEM_MIN_LENGTH,
    STEMMER,
    STOPWORDS,
    SU_UNIGRAMS,
    TRUNCATE,
    TRUNCATE_SIDE,
    VARIANT,
    WEIGHT,
    WLCS,
)
from metricdiff.profiles.axes_shared import EMPTY_POLICY, LOWERCASE, LOWERCASE_STAGE, TOKENIZE
from metricdiff.profiles.axis import Axis, Value

__all__ = ["ALL_AXES", "AXES", "Axis", "ConventionError", "Value", "affects", "axis_named"]


#: Every axis, in the order signatures print them.
ALL_AXES: tuple[Axis, ...] = (
    TOKENIZE,
    LOWERCASE,
    LOWERCASE_STAGE,
    ENTITIES,
    MAX_ORDER,
    WEIGHTS,
    REF_LENGTH,
    CLOSEST_TIE,
    EMPTY_BP,
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
    # Clipped against a set or a multiset: units are counted for N, S and SU
    # only; the LCS variants align tokens and count no units.
    "counts": ("n", "s", "su"),
}


def affects(axis_name: str, variant: str | None) -> bool:
    """Whether ``axis_name`` can change the score of ROUGE ``variant`` (always
    true for BLEU, which has no variant)."""
    variants = ROUGE_VARIANTS_AFFECTED.get(axis_name)
    return variant is None or variants is None or variant in variants

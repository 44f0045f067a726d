"""Which clause of ``spec/bleu.md`` and ``spec/rouge.md`` each convention axis
concerns, and which axes a metric's value can depend on.

The table below is the one place that ties axes to clauses: the audit report's
conformance table (implementation x clause) is derived from it.  A clause is
listed with the axes whose paper value it fixes (or, for a choice the papers leave
open, the value the reference takes); clauses that no axis touches (BLEU-CLIP,
ROUGE-N, ...) have no row, since no declared profile can depart from them.
"""

from __future__ import annotations

from metricdiff.profiles.bleu import BleuOptions
from metricdiff.profiles.profile import axis_names
from metricdiff.profiles.rouge import RougeOptions

#: family -> (clause ID, the axes it concerns), in the order of the spec.
SPEC_CLAUSES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "bleu": (
        ("BLEU-TOK-NONE", ("tokenize",)),
        ("BLEU-CASE", ("lowercase", "lowercase_stage")),
        ("BLEU-REFLEN", ("ref_length", "closest_tie", "empty_reference")),
        ("BLEU-SCORE", ("max_order", "weights")),
        ("BLEU-EMPTY-ORDER", ("empty_order",)),
        ("BLEU-ALL-ZERO", ("all_zero",)),
        ("BLEU-SMOOTH-NONE", ("smoothing", "smooth_value", "smooth_orders")),
        ("BLEU-LEVEL", ("level",)),
        ("BLEU-EMPTY", ("empty_policy",)),
    ),
    "rouge": (
        ("ROUGE-TOKENIZE", ("tokenize",)),
        ("ROUGE-CASE", ("lowercase", "lowercase_stage")),
        ("ROUGE-STEM", ("stemmer", "stem_min_length")),
        ("ROUGE-STOPWORDS", ("stopwords",)),
        ("ROUGE-TRUNCATE", ("truncate", "truncate_side")),
        ("ROUGE-EMPTY", ("empty_policy",)),
        ("ROUGE-COUNTS", ("counts",)),
        ("ROUGE-LSUM", ("sentence_split",)),
        ("ROUGE-W", ("weight", "wlcs")),
        ("ROUGE-S", ("skip",)),
        ("ROUGE-SU", ("su_unigrams",)),
        ("ROUGE-F-MEASURE", ("f_measure",)),
        ("ROUGE-MULTI-REF", ("multi_ref",)),
        ("ROUGE-ROUNDING", ("rounding",)),
        ("ROUGE-REPORT", ("report",)),
        ("ROUGE-CORPUS-AVERAGE", ("corpus_average", "bootstrap_seed", "bootstrap_samples")),
    ),
}

#: Axes the metric name sets (``rouge-2`` is variant n with n = 2): never a choice.
SET_BY_NAME = ("variant", "n")

#: ROUGE axes that only some variants read, and those variants (ROUGE-W reads
#: sentences only under ``wlcs=rouge155``, which a profile may choose).
_VARIANT_AXES: dict[str, tuple[str, ...]] = {
    "counts": ("n", "s", "su"),
    "sentence_split": ("lsum", "w"),
    "weight": ("w",),
    "wlcs": ("w",),
    "skip": ("s", "su"),
    "su_unigrams": ("su",),
}


def _variant(metric: str) -> str:
    if metric in ("rouge-l", "rouge-lsum", "rouge-w", "rouge-s", "rouge-su"):
        return metric.removeprefix("rouge-")
    return "n"


def metric_axes(metric: str) -> tuple[str, ...]:
    """The axes ``metric``'s value can depend on, in signature order: the family's
    axes less those its name sets and those its variant never reads."""
    if metric == "bleu":
        return axis_names(BleuOptions)
    variant = _variant(metric)
    return tuple(
        axis for axis in axis_names(RougeOptions)
        if axis not in SET_BY_NAME and variant in _VARIANT_AXES.get(axis, (variant,))
    )


def clauses_of(metric: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The clauses of ``metric``'s family with their axes."""
    return SPEC_CLAUSES["bleu" if metric == "bleu" else "rouge"]


def clause_of_axis(metric: str, axis: str) -> str | None:
    """The clause that concerns ``axis`` in ``metric``'s family, if any."""
    for clause, axes in clauses_of(metric):
        if axis in axes:
            return clause
    return None

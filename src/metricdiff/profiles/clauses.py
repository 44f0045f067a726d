"""Which clause of ``spec/bleu.md`` and ``spec/rouge.md`` each convention axis
concerns, which clauses a metric depends on, and which clause a statistic belongs
to.

``CLAUSES`` below is the one table that ties axes and statistics to clauses; the
audit report's conformance table (implementation x clause) is derived from it.
Each entry is one column of that table: a clause with the axes whose paper value
it fixes (or, for a choice the papers leave open, the value the reference takes),
or a family of *variant* clauses such as ``BLEU-TOK-*`` (one clause per tokenizer)
and ``BLEU-SMOOTH-*`` (one per smoothing method), of which a profile follows the
one its value of the naming axis picks.  A clause no axis touches (BLEU-CLIP,
ROUGE-N, ...) is a column too: a conformance finding that no axis explains lands
in the clause of its first differing statistic (``clause_of_statistic``).
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from metricdiff.profiles.axes import affects
from metricdiff.profiles.bleu import BleuOptions
from metricdiff.profiles.profile import axis_names, profile_of
from metricdiff.profiles.rouge import RougeOptions

#: Axes the metric name sets (``rouge-2`` is variant n with n = 2): never a choice.
SET_BY_NAME = ("variant", "n")


@attrs.frozen
class Clause:
    """One column of the conformance table: a clause of the spec, or a family of
    variant clauses (``id`` ends in ``-*``; ``members`` maps each value of the
    axis ``named_by`` to its clause)."""

    id: str
    #: The axes whose value the clause fixes.
    axes: tuple[str, ...] = ()
    #: The statistics (stages of ``comparison.stages``) that this clause produces:
    #: an unexplained difference that starts there lands here.
    statistics: tuple[str, ...] = ()
    #: The ROUGE variants that read the clause (None: every metric of the family).
    variants: tuple[str, ...] | None = None
    named_by: str = ""
    members: Mapping[str, str] = attrs.field(factory=dict)
    #: Claims its statistics only from a profile that departs from the paper on
    #: ``axes`` (a smoothing method, not the unsmoothed p_n it replaces).
    when_departing: bool = False
    #: What the clause does, in a few words, for a difference that lands in it
    #: (``clipping``): how the audit's text output names it.
    about: str = ""

    def member(self, profile: Mapping[str, str]) -> str:
        """The clause a profile follows: ``id`` itself, or for a family the member
        its value picks (``tokenize=ja-mecab`` when the spec has none for it)."""
        if not self.named_by:
            return self.id
        value = profile.get(self.named_by, "")
        return self.members.get(value, f"{self.named_by}={value}")

    def applies_to(self, metric: str) -> bool:
        """Whether ``metric`` depends on the clause."""
        if self.variants is not None and variant_of(metric) not in self.variants:
            return False
        return not self.axes or any(axis in metric_axes(metric) for axis in self.axes)


def _family(prefix: str, axes: tuple[str, ...], values: Mapping[str, str],
            statistics: tuple[str, ...], when_departing: bool = False,
            about: str = "") -> Clause:
    """A family of variant clauses ``PREFIX-SUFFIX``, one per value of its first
    axis (``values``: value -> suffix)."""
    members = {value: f"{prefix}-{suffix}" for value, suffix in values.items()}
    return Clause(f"{prefix}-*", axes, statistics, named_by=axes[0], members=members,
                  when_departing=when_departing, about=about)


#: family -> its clauses, in the order of the spec.
CLAUSES: dict[str, tuple[Clause, ...]] = {
    "bleu": (
        _family("BLEU-TOK", ("tokenize", "entities"),
                {"none": "NONE", "13a": "13A", "intl": "INTL", "zh": "ZH",
                 "zh-sacrebleu": "ZH", "char": "CHAR"},
                statistics=("sys_len",), about="tokenization"),
        Clause("BLEU-CASE", ("lowercase", "lowercase_stage")),
        Clause("BLEU-NGRAM", statistics=("totals",), about="counting the n-grams"),
        Clause("BLEU-CLIP", statistics=("counts",), about="clipping"),
        Clause("BLEU-STATS"),
        Clause("BLEU-PN", statistics=("precisions",), about="the modified precision"),
        Clause("BLEU-REFLEN", ("ref_length", "closest_tie", "empty_reference"),
               statistics=("ref_len",), about="the effective reference length"),
        Clause("BLEU-BP", ("empty_bp",), statistics=("bp",), about="the brevity penalty"),
        Clause("BLEU-SCORE", ("max_order", "weights"), statistics=("score",),
               about="the geometric mean of the precisions"),
        Clause("BLEU-PRECISION"),
        Clause("BLEU-EMPTY-ORDER", ("empty_order",)),
        Clause("BLEU-ALL-ZERO", ("all_zero",)),
        _family("BLEU-SMOOTH", ("smoothing", "smooth_value", "smooth_orders"),
                {"none": "NONE", "floor": "FLOOR", "add-k": "ADD-K", "exp": "EXP",
                 "cc4": "CC4", "cc5": "CC5", "cc6": "CC6", "cc7": "CC7",
                 "epsilon": "EPSILON", "float-min": "FLOAT-MIN",
                 "skip": "SKIP"},
                statistics=("precisions",), when_departing=True, about="smoothing"),
        Clause("BLEU-LEVEL", ("level",)),
        Clause("BLEU-EMPTY", ("empty_policy",)),
    ),
    "rouge": (
        Clause("ROUGE-TOKENIZE", ("tokenize",), statistics=("ref_total", "hyp_total"),
               about="tokenization"),
        Clause("ROUGE-CASE", ("lowercase", "lowercase_stage")),
        Clause("ROUGE-STEM", ("stemmer", "stem_min_length")),
        Clause("ROUGE-STOPWORDS", ("stopwords",)),
        Clause("ROUGE-TRUNCATE", ("truncate", "truncate_side")),
        Clause("ROUGE-EMPTY", ("empty_policy",)),
        Clause("ROUGE-N", statistics=("matches",), variants=("n",),
               about="matching n-grams"),
        Clause("ROUGE-COUNTS", ("counts",)),
        Clause("ROUGE-N-MULTI", variants=("n",)),
        Clause("ROUGE-L", statistics=("matches",), variants=("l", "lsum"),
               about="the longest common subsequence"),
        Clause("ROUGE-L-SUMMARY", statistics=("matches",), variants=("lsum",),
               about="the summary-level union LCS"),
        Clause("ROUGE-LSUM", ("sentence_split",)),
        Clause("ROUGE-W", ("weight", "wlcs"), statistics=("matches",),
               about="the weighted LCS"),
        Clause("ROUGE-S", ("skip",), statistics=("matches",), variants=("s", "su"),
               about="matching skip-bigrams"),
        Clause("ROUGE-SU", ("su_unigrams",), statistics=("matches",),
               about="matching skip-bigrams and unigrams"),
        Clause("ROUGE-SCORE", statistics=("recall", "precision"),
               about="recall and precision"),
        Clause("ROUGE-F-MEASURE", ("f_measure",), statistics=("fmeasure",),
               about="the F-measure"),
        Clause("ROUGE-MULTI-REF", ("multi_ref",)),
        Clause("ROUGE-ROUNDING", ("rounding",)),
        Clause("ROUGE-REPORT", ("report",)),
        Clause("ROUGE-CORPUS-AVERAGE", ("corpus_average", "bootstrap_seed", "bootstrap_samples")),
    ),
}

#: Each family's paper profile as text, on the axes that name variant clauses.
_PAPER = {"bleu": profile_of(BleuOptions()), "rouge": profile_of(RougeOptions())}

#: family -> (clause ID, the axes it concerns), in the order of the spec: the
#: clause that fixes each axis's paper value (for a family of variant clauses,
#: the member the paper's value picks: BLEU-TOK-NONE, BLEU-SMOOTH-NONE).
SPEC_CLAUSES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    family: tuple((clause.member(_PAPER[family]), clause.axes)
                  for clause in clauses if clause.axes)
    for family, clauses in CLAUSES.items()
}

#: The statistic each family's quoted number is.
_HEADLINE = {"bleu": "score", "rouge": "fmeasure"}


def variant_of(metric: str) -> str:
    """The ROUGE variant of ``metric`` (``n`` for ROUGE-N), or ``bleu``."""
    if metric == "bleu":
        return "bleu"
    if metric in ("rouge-l", "rouge-lsum", "rouge-w", "rouge-s", "rouge-su"):
        return metric.removeprefix("rouge-")
    return "n"


def metric_axes(metric: str) -> tuple[str, ...]:
    """The axes ``metric``'s value can depend on, in signature order: the family's
    axes less those its name sets and those its variant never reads."""
    if metric == "bleu":
        return axis_names(BleuOptions)
    variant = variant_of(metric)
    return tuple(axis for axis in axis_names(RougeOptions)
                 if axis not in SET_BY_NAME and affects(axis, variant))


def _family_of(metric: str) -> str:
    return "bleu" if metric == "bleu" else "rouge"


def clauses_of(metric: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The clauses of ``metric``'s family that concern an axis, with their axes."""
    return SPEC_CLAUSES[_family_of(metric)]


def metric_clauses(metric: str) -> tuple[Clause, ...]:
    """Every clause (or family of variant clauses) ``metric`` depends on, in the
    order of the spec: the columns of its conformance table."""
    return tuple(clause for clause in CLAUSES[_family_of(metric)] if clause.applies_to(metric))


def clause_of_axis(metric: str, axis: str) -> str | None:
    """The clause that concerns ``axis`` in ``metric``'s family, if any."""
    for clause, axes in clauses_of(metric):
        if axis in axes:
            return clause
    return None


def clause_of_statistic(metric: str, statistic: str, profile: Mapping[str, str],
                        paper: Mapping[str, str]) -> Clause:
    """The column of ``metric`` where a difference that starts at ``statistic``
    (``counts[2]``, ``bp``, ``matches``...) lands, for an implementation of
    ``profile`` (``paper``: the paper's profile): the last clause in spec order
    that produces it, so that the variant's own clause wins over a general one
    (ROUGE-SU over ROUGE-S), and a smoothing method over the unsmoothed p_n only
    when the profile smooths.  Any other text (no statistic named) lands where
    the quoted number is produced."""
    stage = statistic.split("[")[0].split(":")[0].strip()
    claiming = [
        clause for clause in metric_clauses(metric)
        if stage in clause.statistics
        and (not clause.when_departing
             or any(profile.get(axis) != paper.get(axis) for axis in clause.axes))
    ]
    if claiming:
        return claiming[-1]
    return clause_of_statistic(metric, _HEADLINE[_family_of(metric)], profile, paper)

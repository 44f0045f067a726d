"""How far each convention moves a score on the user's own text
(``metricdiff sensitivity``): a table for a paper's appendix.

From the paper's profile (ROUGE's ``report`` set to what the paper quotes, F by
default), the reference scores the corpus once per value of every axis the
metric depends on, one axis at a time: each row is that value's effect, the score
under it minus the paper's.  Then every pair of changes that each moved the score
is scored together: the pair *interacts* when the joint effect differs from the
sum of the two single effects by more than the metric's noise tolerance (the
reference's ``Tolerance``: float noise), and the interaction is that difference.
Rows are sorted by size.  It is the table Rogue Scores (Grusky 2023) made by hand
for stemming, stopwords, truncation, sentence splitting and averaging, and for
BLEU the tokenizer, smoothing, casing and reference length, on the text at hand.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import attrs

from metricdiff.cases.case import Sample
from metricdiff.comparison.corpus import DEFAULT_REPORT, REFERENCE, ReferenceScorer
from metricdiff.conclusions.reproduce import scored_profiles
from metricdiff.findings.explain import FIXED_AXES, candidate_values, changed
from metricdiff.impls import get_adapter
from metricdiff.profiles import AXES, profile_of, with_overrides
from metricdiff.profiles.axes import affects
from metricdiff.profiles.metrics import Options, family, paper_options

#: Values tried beyond the explainer's on axes that take free text: the length
#: limits of the DUC evaluations (75 and 665 bytes, 100 words).
EXTRA_VALUES: dict[str, tuple[str, ...]] = {"truncate": ("bytes:75", "bytes:665", "words:100")}
#: Axes that are not conventions of the score itself (set by the metric name).
NOT_VARIED = FIXED_AXES | {"variant"}


@attrs.frozen
class Effect:
    """One axis at one value, the rest at the paper's: the score and its
    difference from the paper's (points)."""

    axis: str
    value: str
    paper_value: str
    score: float
    effect: float

    def to_dict(self) -> dict[str, Any]:
        return {"axis": self.axis, "value": self.value, "paper_value": self.paper_value,
                "score": self.score, "effect": self.effect}


@attrs.frozen
class Interaction:
    """Two changes together: the joint effect, the sum of their single effects,
    and the interaction (their difference)."""

    first: tuple[str, str]
    second: tuple[str, str]
    joint: float
    singles: float

    @property
    def interaction(self) -> float:
        return self.joint - self.singles

    def to_dict(self) -> dict[str, Any]:
        return {"first": list(self.first), "second": list(self.second), "joint": self.joint,
                "sum_of_singles": self.singles, "interaction": self.interaction}


@attrs.frozen
class Sensitivity:
    """``metricdiff sensitivity``'s answer for one metric: the paper's score,
    each single change's effect (largest first; values of one axis that give the
    same score share a row), the axes that moved nothing on this corpus, and the
    interacting pairs (largest interaction first, grouped alike).
    ``pairs_scored``: the pairs of changes scored together."""

    metric: str
    report: str | None
    paper_score: float
    tolerance: float
    effects: tuple[Effect, ...]
    unmoved: tuple[str, ...]
    interactions: tuple[Interaction, ...]
    pairs_scored: int
    pairs_interacting: int

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "report": self.report, "paper_score": self.paper_score,
                "tolerance": self.tolerance, "effects": [e.to_dict() for e in self.effects],
                "unmoved_axes": list(self.unmoved),
                "interactions": [i.to_dict() for i in self.interactions],
                "pairs_scored": self.pairs_scored, "pairs_interacting": self.pairs_interacting}


def varied_axes(options: Options) -> list[str]:
    """The axes ``options``' metric depends on, in signature order."""
    variant = getattr(options, "variant", None)
    return [axis for axis in profile_of(options)
            if axis not in NOT_VARIED and affects(axis, variant)]


def sensitivity_of(sample: Sample, metric: str, report: str = DEFAULT_REPORT
                   ) -> Sensitivity:
    """Every value of every axis ``metric`` depends on, from the paper's profile,
    and every interacting pair, on ``sample`` (see the module's docstring)."""
    paper = paper_options(metric)
    rouge = family(metric) == "rouge"
    if rouge:
        paper = with_overrides(paper, {"report": report})
    reference = ReferenceScorer(metric, sample)
    base = reference(paper)
    noise = get_adapter(REFERENCE, metric).declared.tolerance
    tolerance = noise.absolute + noise.relative * abs(base)
    written = profile_of(paper)
    singles = []
    for axis in varied_axes(paper):
        values = dict.fromkeys([*candidate_values(axis, paper), *EXTRA_VALUES.get(axis, ())])
        for value in values:
            options = changed(paper, [(axis, AXES[axis].format(AXES[axis].parse(value)))])
            if options is not None and profile_of(options)[axis] != written[axis]:
                singles.append((axis, profile_of(options)[axis], options))
    scores = scored_profiles(reference, [options for _, _, options in singles])
    each = [Effect(axis, value, written[axis], scores[options], scores[options] - base)
            for axis, value, options in singles if options in scores]
    moved = [e for e in each if abs(e.effect) > tolerance]
    effects = grouped(each)
    unmoved = tuple(axis for axis in varied_axes(paper)
                    if axis not in {e.axis for e in moved})
    interactions, scored = _interactions(paper, moved, reference, base, tolerance)
    return Sensitivity(metric, report if rouge else None, base, tolerance, tuple(effects),
                       unmoved, tuple(_grouped_pairs(interactions)), scored,
                       len(interactions))


def _interactions(paper: Options, moved: Sequence[Effect], reference: ReferenceScorer,
                  base: float, tolerance: float) -> tuple[list[Interaction], int]:
    wanted = []
    for first, second in itertools.combinations(moved, 2):
        if first.axis == second.axis:
            continue
        options = changed(paper, [(first.axis, first.value), (second.axis, second.value)])
        if options is not None:
            wanted.append((first, second, options))
    scores = scored_profiles(reference, [options for _, _, options in wanted])
    found = [Interaction((a.axis, a.value), (b.axis, b.value), scores[o] - base,
                         a.effect + b.effect)
             for a, b, o in wanted if o in scores]
    return [i for i in found if abs(i.interaction) > tolerance], len(scores)


def grouped(effects: Sequence[Effect]) -> list[Effect]:
    """Values of one axis that give the same score, as one row (``tokenize none →
    13a, intl, zh``: tokenizers that cut this text alike), largest effect first."""
    rows: dict[tuple[str, float], list[Effect]] = {}
    for effect in effects:
        rows.setdefault((effect.axis, round(effect.score, 9)), []).append(effect)
    merged = [attrs.evolve(same[0], value=", ".join(e.value for e in same))
              for same in rows.values()]
    return sorted(merged, key=lambda e: -abs(e.effect))


def _grouped_pairs(found: Sequence[Interaction]) -> list[Interaction]:
    """Pairs that differ only in values giving the same numbers, as one row."""
    rows: dict[tuple[str, str, float, float], list[Interaction]] = {}
    for pair in found:
        key = (pair.first[0], pair.second[0], round(pair.joint, 9), round(pair.singles, 9))
        rows.setdefault(key, []).append(pair)
    merged = []
    for same in rows.values():
        firsts = ", ".join(dict.fromkeys(p.first[1] for p in same))
        seconds = ", ".join(dict.fromkeys(p.second[1] for p in same))
        merged.append(attrs.evolve(same[0], first=(same[0].first[0], firsts),
                                   second=(same[0].second[0], seconds)))
    return sorted(merged, key=lambda i: -abs(i.interaction))


__all__ = ["Effect", "Interaction", "Sensitivity", "grouped", "sensitivity_of", "varied_axes"]

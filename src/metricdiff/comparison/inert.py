"""Axes that cannot change the score on a given corpus: null players of the
attribution (``attribution.attribute``), given 0 without being scored.

Each rule follows from the definitions in ``spec/*.md``, not from the data
happening to agree; ``tests/comparison/test_attribution.py`` checks every rule against
the reference on generated corpora.  An axis on which two profiles differ
is inert when:

- ``multi_ref`` (ROUGE-MULTI-REF), ``ref_length`` and ``closest_tie`` (BLEU-REFLEN),
  ``empty_reference`` (BLEU-EMPTY): every segment has exactly one
  reference, a non-empty one.  Every rule for several references returns that
  one's score and length;
- ``closest_tie``: neither profile takes the closest length;
- ``lowercase_stage``: neither profile folds case;
- ``truncate_side``: neither profile truncates;
- ``stem_min_length``: neither profile stems;
- ``bootstrap_seed``, ``bootstrap_samples``: neither profile averages by bootstrap.
"""

from __future__ import annotations

from collections.abc import Callable

from metricdiff.cases.case import References
from metricdiff.profiles import profile_of
from metricdiff.profiles.metrics import Options

#: Axes that matter only when the segments have several (or empty) references.
_REFERENCE_COUNT_AXES = ("multi_ref", "ref_length", "closest_tie", "empty_reference")

#: Axis -> when it can matter, judged on the two profiles' values.
_MATTERS_ONLY_IF: dict[str, Callable[[dict[str, str], dict[str, str]], bool]] = {
    "closest_tie": lambda a, b: "closest" in (a["ref_length"], b["ref_length"]),
    "lowercase_stage": lambda a, b: (a["lowercase"], b["lowercase"]) != ("none", "none"),
    "truncate_side": lambda a, b: (a["truncate"], b["truncate"]) != ("none", "none"),
    "stem_min_length": lambda a, b: (a["stemmer"], b["stemmer"]) != ("none", "none"),
    "bootstrap_seed": lambda a, b: any(
        p["corpus_average"].startswith("bootstrap") for p in (a, b)),
    "bootstrap_samples": lambda a, b: any(
        p["corpus_average"].startswith("bootstrap") for p in (a, b)),
}


def one_reference_each(refs: References) -> bool:
    """Whether every segment has exactly one reference, and it is not empty."""
    return all(len(seg) == 1 and seg[0] for seg in refs)


def inert_axes(a: Options, b: Options, refs: References) -> frozenset[str]:
    """The axes on which ``a`` and ``b`` differ that cannot change the score of a
    corpus with these references (see the module's docstring)."""
    before, after = profile_of(a), profile_of(b)
    differing = {axis for axis in before if before[axis] != after[axis]}
    inert = {axis for axis, matters in _MATTERS_ONLY_IF.items()
             if axis in differing and not matters(before, after)}
    if one_reference_each(refs):
        inert |= differing.intersection(_REFERENCE_COUNT_AXES)
    return frozenset(inert)


__all__ = ["inert_axes", "one_reference_each"]

"""ROUGE's conventions as one typed value: the reference's parameters and every
adapter's declared profile.  Defaults follow Lin (2004)."""

from __future__ import annotations

import attrs

from metricdiff.profiles.bleu import _choice

#: The ROUGE variants, by the metric names that select them.
VARIANTS = ("n", "l", "lsum", "w", "s", "su")


@attrs.frozen
class RougeOptions:
    """Every ROUGE convention, named as in docs/conventions.md.

    ``variant`` and ``n`` come from the metric name (``rouge-2`` is variant ``n``
    with n = 2); ``weight`` matters to ROUGE-W and ``skip`` to ROUGE-S/SU only.
    """

    variant: str = attrs.field(default="n", validator=attrs.validators.in_(VARIANTS))
    n: int = attrs.field(default=1)
    weight: float = attrs.field(default=1.2)
    skip: int = attrs.field(default=-1)
    tokenize: str = _choice("tokenize")
    lowercase: str = _choice("lowercase")
    lowercase_stage: str = _choice("lowercase_stage")
    sentence_split: str = _choice("sentence_split")
    stemmer: str = _choice("stemmer")
    stem_min_length: int = attrs.field(default=3)
    stopwords: str = _choice("stopwords")
    counts: str = _choice("counts")
    multi_ref: str = _choice("multi_ref")
    f_measure: str = attrs.field(default="alpha=0.5")
    report: str = _choice("report")
    rounding: str = _choice("rounding")
    corpus_average: str = _choice("corpus_average")
    wlcs: str = _choice("wlcs")
    su_unigrams: str = _choice("su_unigrams")
    truncate: str = attrs.field(default="none")
    truncate_side: str = _choice("truncate_side")
    empty_policy: str = _choice("empty_policy")
    bootstrap_seed: int = attrs.field(default=0)
    bootstrap_samples: int = attrs.field(default=1000)

"""Who takes part in the audit of one metric: every available implementation under
its declared profile, under each of its named variants and, for ROUGE, with its
own stemmer on; the reference under the paper's profile."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from metricdiff.errors import UnsupportedOption
from metricdiff.findings.witness import REFERENCE, Participant
from metricdiff.impls import AnyAdapter, computes, resolve
from metricdiff.impls.base import Tolerance
from metricdiff.profiles.metrics import Options, family

#: The stemmer the reference's "stemmed" profile uses: Porter's own algorithm.
REFERENCE_STEMMER = "porter-original"


def _stemmed_value(adapter: AnyAdapter, declared: Options) -> str | None:
    """The implementation's own stemmer, if it has one and it is off by default."""
    if getattr(declared, "stemmer", "none") != "none":
        return None
    if adapter.name == REFERENCE:
        return REFERENCE_STEMMER
    return adapter.declared.own_stemmer


def participants(
    metric: str, impls: Sequence[str], user_profile: Mapping[str, str] | None = None,
    strict: bool = False,
) -> tuple[list[Participant], list[str]]:
    """Who takes part in ``metric``, and why the others cannot.  ``user_profile``
    is the profile the user declares (``-o``) for their own implementations
    (``python:``, ``cmd:``); without one (or settings), theirs take part as
    ``unknown``.  An implementation named with settings (``rouge-score[stemmer=
    porter-nltk]``) takes part under them alone: without its variants and its
    own stemmer, which are settings too.  ``strict``: every participant is held
    to float noise alone, not to what its tolerance says it can state
    (``--strict``)."""
    chosen: list[Participant] = []
    skipped: list[str] = []
    for name in impls:
        if not computes(name, metric):
            continue
        try:
            adapter = resolve(name, metric)
        except UnsupportedOption as error:  # e.g. a peer that needs a model not here
            skipped.append(str(error))
            continue
        reason = adapter.unavailable_reason()
        if reason is not None:
            skipped.append(reason)
            continue
        claimed = dict(user_profile or {}) if adapter.declared.user_profile else {}
        declared = adapter.options(metric, claimed)
        label = "paper" if adapter.display_name == REFERENCE else "declared"
        if adapter.declared.user_profile and not (claimed or adapter.settings):
            label = "unknown"
        tolerance = Tolerance() if strict else adapter.declared.tolerance
        chosen.append(_participant(adapter, metric, label, declared, tolerance))
        if adapter.settings:  # it takes part as configured, and only so
            continue
        for variant, overrides in sorted(adapter.declared.variants.items()):
            chosen.append(_participant(adapter, metric, variant,
                                       adapter.options(metric, dict(overrides)), tolerance))
        stemmer = _stemmed_value(adapter, declared) if family(metric) == "rouge" else None
        if stemmer is not None:
            try:
                stemmed = adapter.options(metric, {"stemmer": stemmer})
            except Exception:  # the stemmer cannot be switched on here
                continue
            chosen.append(_participant(adapter, metric, "stemmed", stemmed, tolerance))
    return chosen, skipped


def _participant(adapter: AnyAdapter, metric: str, label: str, options: Options,
                 tolerance: Tolerance) -> Participant:
    return Participant(
        adapter.display_name, label, metric, options, tolerance,
        adapter.signature(metric, options),
    )

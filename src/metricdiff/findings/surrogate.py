"""Shrinking a finding's example with the reference standing in for both sides.

A finding with an explained cause says: the reference under one profile (``base``,
the left side's, or what the implementation declared) and under the same profile
with the cause's axes changed (``reproduce``) give the two sides' results.  So a
smaller case still shows the cause when those two reference runs still differ as
the finding's sides did: for an agreement, in their headline numbers; for a
conformance finding, first in the same statistic.  That judgement runs in this
process, on the reference the explainer already remembers (``reference_score``),
with no implementation started: thousands of candidates cost what a handful of
judgements by the implementations themselves cost, and every finding with the
same profiles and cause, whichever pair it is about, reaches the same example.

The example found is only a candidate: ``minimise.py`` shows it once the two
implementations themselves, scored on it, still show the finding (one judgement
for every finding of the metric); otherwise it shrinks again with each candidate
judged by the stand-in first and, if it passes, by the implementations
(``filtered``): where the stand-in is wrong, the implementations have the last word.
"""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.cases.case import Sample, size
from metricdiff.comparison.stages import first_difference, headlines_differ
from metricdiff.findings import shrink
from metricdiff.findings.explain import reference_score
from metricdiff.findings.finding import COMPARED
from metricdiff.findings.witness import Witness, pair_tolerance, stage_of

#: The first batch of each greedy round: judged here, a candidate costs one or two
#: reference runs, so small batches waste least once a reduction holds.
FIRST_BATCH = 4


def stands_in(witness: Witness) -> bool:
    """Whether the reference can stand in for both sides of ``witness``: a
    conformance or agreement finding whose cause is explained."""
    return (witness.kind in COMPARED and witness.reproduce is not None
            and witness.base is not None)


def reference_holds(metric: str, witness: Witness, origin: Sample | None = None) -> shrink.Holds:
    """The test a smaller case must pass, with the reference under ``base`` and
    under ``reproduce`` in place of the two sides (see the module's docstring);
    and, where a side may refuse a text without words (``refuses_textless``) and
    ``origin``, the case shrunk from, has none, no such text."""
    assert witness.base is not None and witness.reproduce is not None
    base, reproduce = witness.base, witness.reproduce
    tolerance = pair_tolerance(witness.left, witness.right)
    wordless_refused = (origin is not None and refuses_textless(witness)
                        and not has_textless(origin))

    def one(sample: Sample) -> bool:
        hyps, refs = sample
        if wordless_refused and has_textless(sample):
            return False
        if witness.kind == "conformance":
            # The implementation is the reference under the explaining profile,
            # the reference as it claims to be is the reference under its declared one.
            mine = reference_score(metric, reproduce, hyps, refs)
            claimed = reference_score(metric, base, hyps, refs)
            if mine is None or claimed is None:
                return False
            difference = first_difference(mine, claimed, tolerance)
            return difference is not None and stage_of(str(difference)) == witness.stage
        left = reference_score(metric, base, hyps, refs)
        right = reference_score(metric, reproduce, hyps, refs)
        return left is not None and right is not None and headlines_differ(left, right,
                                                                           tolerance)

    def holds(samples: Sequence[Sample]) -> list[bool]:
        return [one(sample) for sample in samples]

    return holds


def refuses_textless(witness: Witness) -> bool:
    """Whether a side declares ``empty_policy=error`` while the cause is not about
    that axis.  The reference refuses only a pair with no token on either side,
    but such implementations die on less (pyrouge and ROUGE-1.5.5.pl's ROUGE-W on
    any reference without tokens): a case the stand-in shrinks to an empty text
    would be refused by them, and the finding shrunk again with them judging every
    candidate.  The stand-in keeps clear of such texts instead."""
    assert witness.base is not None and witness.reproduce is not None
    if getattr(witness.base, "empty_policy", None) != getattr(witness.reproduce,
                                                                "empty_policy", None):
        return False
    sides = [witness.left] + ([witness.right] if witness.right is not None else [])
    return any(getattr(side.options, "empty_policy", None) == "error" for side in sides)


def has_textless(sample: Sample) -> bool:
    """Whether a hypothesis or reference of ``sample`` has no letter or digit (no
    token under any tokenizer the implementations use)."""
    hyps, refs = sample
    texts = [*hyps, *(ref for group in refs for ref in group if ref is not None)]
    return any(not any(char.isalnum() for char in text) for text in texts)


def filtered(first: shrink.Holds, then: shrink.Holds) -> shrink.Holds:
    """Judged by ``first``, and those it passes by ``then`` as well, in one call (none
    if it passes none): the implementations judge only what the reference's stand-in
    already accepts."""

    def holds(samples: Sequence[Sample]) -> list[bool]:
        passed = [sample for sample, ok in zip(samples, first(samples), strict=True) if ok]
        verdicts = dict(zip(passed, then(passed), strict=True)) if passed else {}
        return [verdicts.get(sample, False) for sample in samples]

    return holds


def shared_origin(metric: str, witness: Witness, start: Sample,
                  known: Sequence[Sample] = ()) -> Sample | None:
    """The smallest of ``known`` (examples already shown), smaller than
    ``start``, under which the reference alone (``reference_holds``) shows the
    cause: where findings with one cause share their example."""
    holds = reference_holds(metric, witness, start)
    smaller = sorted({s for s in known if size(s) < size(start)},
                     key=lambda s: (size(s), repr(s)))
    return next((s for s in smaller if holds([s])[0]), None)


def reference_trail(metric: str, witness: Witness, origin: Sample) -> list[Sample]:
    """The cases greedy reduction from ``origin``, judged by the reference alone
    (``reference_holds``), went through: ``origin`` first, the smallest it reached
    last; empty if the cause does not hold on ``origin``.

    The steps before the last are what ``minimise.py`` falls back on when the
    implementations do not confirm the last: the stand-in is right on most of the
    way down and wrong, if anywhere, at its end (an empty reference, one odd
    character), where a quirk the profile does not model takes over."""
    holds = reference_holds(metric, witness, origin)
    return _trail(origin, holds) if holds([origin])[0] else []


def _trail(origin: Sample, holds: shrink.Holds) -> list[Sample]:
    trail = [origin]

    def recorded(samples: Sequence[Sample]) -> list[bool]:
        verdicts = holds(samples)
        winners = [sample for sample, ok in zip(samples, verdicts, strict=True) if ok]
        if winners:  # the one shrink.minimise keeps
            trail.append(min(winners, key=size))
        return verdicts

    shrink.minimise(origin, recorded, FIRST_BATCH)
    return trail

"""An example too big to show whole -- a corpus the shrinking budget left as it
was -- shown by its most telling segments and how many it has.

The segments chosen are those on which the finding's two sides differ most:
for a finding whose cause is explained, the reference under the two profiles
of its ``Witness`` (in this process, as the shrinker's stand-in judges); else
the sides' own results on that segment where the audit scored it alone (a
line of the user's files); else the shortest.  The whole example's results
stay those of the whole case."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from metricdiff.cases.case import Sample, size
from metricdiff.findings.explain import reference_score
from metricdiff.findings.finding import Example, Finding
from metricdiff.findings.witness import Witness
from metricdiff.profiles.metrics import Result

#: How many segments an excerpt shows.
TELLING = 3
#: An example of more than ``TELLING`` segments and more characters than this
#: (``cases.case.size``) is shown as an excerpt.
EXCERPT_SIZE = 300

#: The two sides' results on one segment scored alone by the audit, if it was.
SidesOn = Callable[[Sample], tuple[Result | None, Result | None] | None]


def excerpted(metric: str, finding: Finding, witness: Witness, sides_on: SidesOn) -> Finding:
    """``finding`` with its example cut to its ``TELLING`` most telling segments,
    if it is too big to show whole (see the module's docstring)."""
    example = finding.example
    sample: Sample = (example.hyps, example.refs)
    if len(example.hyps) <= TELLING or size(sample) <= EXCERPT_SIZE or example.segments:
        return finding
    segments = [((hyp,), (refs,)) for hyp, refs in zip(example.hyps, example.refs, strict=True)]
    telling = [(_difference(metric, witness, segment, sides_on), -size(segment), place)
               for place, segment in enumerate(segments)]
    chosen = sorted(place for _, _, place in sorted(telling, reverse=True)[:TELLING])
    shown = attrs.evolve(
        example, hyps=tuple(example.hyps[i] for i in chosen),
        refs=tuple(example.refs[i] for i in chosen), segments=len(segments),
        shown=tuple(i + 1 for i in chosen))
    return attrs.evolve(finding, example=shown)


def _difference(metric: str, witness: Witness, segment: Sample, sides_on: SidesOn) -> float:
    """How much the finding's sides differ on ``segment`` alone (0 if unknown)."""
    hyps, refs = segment
    if witness.base is not None and witness.reproduce is not None:
        pair = (reference_score(metric, witness.base, hyps, refs),
                reference_score(metric, witness.reproduce, hyps, refs))
    else:
        pair = sides_on(segment) or (None, None)
    a, b = pair
    if a is None or b is None:
        return 0.0
    return abs(a.headline - b.headline)


__all__ = ["EXCERPT_SIZE", "TELLING", "Example", "excerpted"]

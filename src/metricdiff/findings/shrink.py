"""Shrinking a disagreement to a minimal case.

A case is reduced greedily, as delta debugging does: drop runs of whole segments
(halves, quarters, … single segments), then whole references, then runs of
tokens (halves, quarters, … single tokens), then single characters of short
texts — keeping each reduction under which the disagreement still holds *with
the same cause*.  Candidates are judged in batches,
so an implementation that runs as one process per batch (the Perl script) costs one
process per round, not one per candidate.  A round's batches may start small and
double (``first_batch``): the first candidates are the biggest reductions, and when
one of them holds the round ends after judging a few candidates, not ``BATCH``
copies of a long case.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Sequence

from metricdiff.cases.case import Sample, size

#: Judges a batch of candidate cases: True where the disagreement still holds.
Holds = Callable[[Sequence[Sample]], list[bool]]

BATCH = 64
MAX_CANDIDATES = 1500
_PIECES = re.compile(r"\S+\s*|\s+")


def _texts(sample: Sample) -> list[tuple[int, int, str]]:
    """Every text of the sample as (segment, position, text); position -1 is the
    hypothesis, 0.. the references."""
    hyps, refs = sample
    found = []
    for segment, hyp in enumerate(hyps):
        found.append((segment, -1, hyp))
        found += [(segment, index, ref) for index, ref in enumerate(refs[segment])
                  if ref is not None]
    return found


def _replace(sample: Sample, segment: int, position: int, text: str) -> Sample:
    hyps, refs = sample
    if position < 0:
        return (*hyps[:segment], text, *hyps[segment + 1:]), refs
    seg = (*refs[segment][:position], text, *refs[segment][position + 1:])
    return hyps, (*refs[:segment], seg, *refs[segment + 1:])


def _structural(sample: Sample) -> Iterator[Sample]:
    hyps, refs = sample
    # Runs of segments, halves first: a corpus of hundreds of segments whose finding
    # needs two of them takes a few rounds, not one round per segment dropped.
    count = len(hyps)
    width = count // 2
    while width >= 1 and count > 1:
        for start in range(0, count, width):
            kept = [i for i in range(count) if not start <= i < start + width]
            yield tuple(hyps[i] for i in kept), tuple(refs[i] for i in kept)
        if width == 1:
            break
        width //= 2
    for segment, seg_refs in enumerate(refs):
        if len(seg_refs) > 1:
            for index in range(len(seg_refs)):
                smaller = seg_refs[:index] + seg_refs[index + 1:]
                yield hyps, (*refs[:segment], smaller, *refs[segment + 1:])


def _token_runs(sample: Sample) -> Iterator[Sample]:
    for segment, position, text in _texts(sample):
        pieces = _PIECES.findall(text)
        width = len(pieces) // 2 or 1
        while width >= 1 and pieces:
            for start in range(0, len(pieces), width):
                shorter = "".join(pieces[:start] + pieces[start + width:])
                yield _replace(sample, segment, position, shorter)
            if width == 1:
                break
            width //= 2


def _characters(sample: Sample) -> Iterator[Sample]:
    for segment, position, text in _texts(sample):
        if len(text) <= 24:
            for index in range(len(text)):
                yield _replace(sample, segment, position, text[:index] + text[index + 1:])


def candidates(sample: Sample) -> Iterator[Sample]:
    """Smaller variants of ``sample``, the biggest reductions first, made as they
    are asked for: a round usually ends within its first batches, and a corpus of
    hundreds of segments has tens of thousands of variants, each as long as it."""
    seen = {sample}
    limit = size(sample)
    for variant in itertools.chain(_structural(sample), _token_runs(sample),
                                   _characters(sample)):
        if variant not in seen and size(variant) < limit:
            seen.add(variant)
            yield variant


def minimise(sample: Sample, holds: Holds, first_batch: int = BATCH) -> Sample:
    """The smallest sample reached by greedy reduction under which ``holds``;
    each round judges its candidates in batches of ``first_batch``, doubling up
    to ``BATCH``, until one holds or ``MAX_CANDIDATES`` have been judged."""
    budget = MAX_CANDIDATES
    improved = True
    while improved and budget > 0:
        improved = False
        pending = candidates(sample)
        width = max(1, min(first_batch, BATCH))
        while budget > 0 and (batch := list(itertools.islice(pending, min(width, budget)))):
            budget -= len(batch)
            verdicts = holds(batch)
            winners = [cand for cand, ok in zip(batch, verdicts, strict=True) if ok]
            if winners:
                sample = min(winners, key=size)
                improved = True
                break
            width = min(2 * width, BATCH)
    return sample

"""The cause of a difference between two profiles on one case: the axis (or the
fewest axes) on which they part that turns the reference configured as one into
the other's result.  The audit asks it of each implementation against the
paper's profile (its departures), of a pair with an inferred side (checked
directly), and of any pair on demand (derived from the two profiles)."""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.cases.case import Case
from metricdiff.findings.explain import Reproducer, changed, explain
from metricdiff.findings.finding import Finding
from metricdiff.impls.base import Tolerance
from metricdiff.profiles import BleuOptions, profile_of, with_overrides
from metricdiff.profiles.clauses import clause_of_statistic
from metricdiff.profiles.metrics import Options, Result, paper_options

#: A cause: the axes (comma-separated, or ``unexplained``) and their two values.
Cause = tuple[str, tuple[str, str]]
#: The causes found before on the same pair: tried first on the next case.
Tried = list[tuple[tuple[str, str], ...]]

UNEXPLAINED: Cause = ("unexplained", ("", ""))


def cause_between(
    metric: str,
    left: Options,
    right: Options,
    case: Case,
    target: Result,
    tolerance: Tolerance,
    tried: Tried,
) -> Cause:
    """The axis (or pair) on which two effective profiles part that turns the
    reference as ``left`` into ``right``'s result on ``case``."""
    a, b = profile_of(left), profile_of(right)
    differing = [(axis, b[axis]) for axis in a if a[axis] != b[axis] and axis != "n"]
    reproducer = Reproducer(metric, [case.sample], [target], tolerance)
    # Causes seen before on this pair usually hold again.
    seen = [(changes, options) for changes in tried
            if (options := changed(left, changes)) is not None]
    again = next(reproducer.reproducing([options for _, options in seen]), None)
    if again is not None:
        return named(a, seen[again][0])
    explanation = explain(metric, left, [case.sample], [target], tolerance, differing)
    if explanation.explained and explanation.axis:
        changes = tuple(zip(explanation.axis.split(","), explanation.values[1].split(","),
                            strict=True))
        tried.append(changes)
        return named(a, changes)
    # No one or two axes do it; all the axes on which the profiles part may.  Then
    # drop, one by one, every axis the reproduction does not need: the cause named
    # is a minimal set, not the whole difference of the two profiles.
    needed = list(differing)
    if len(needed) <= 2 or not reproducer.reproduces(with_overrides(left, dict(needed))):
        return UNEXPLAINED
    for change in list(needed):
        fewer = [c for c in needed if c != change]
        candidate = changed(left, fewer)
        if candidate is not None and reproducer.reproduces(candidate):
            needed = fewer
    found = tuple(needed)
    tried.append(found)
    return named(a, found)


def named(before: dict[str, str], changes: Sequence[tuple[str, str]]) -> Cause:
    return (
        ",".join(axis for axis, _ in changes),
        (",".join(before[axis] for axis, _ in changes), ",".join(v for _, v in changes)),
    )


def reproducing(left: Options | None, cause: Cause) -> Options | None:
    """The left profile with the cause's axes set to the right's values."""
    axis, (_, new) = cause
    if left is None or axis in ("", "unexplained"):
        return None
    try:
        return with_overrides(left, dict(zip(axis.split(","), new.split(","), strict=True)))
    except Exception:
        return None


def unexplained_cause(finding: Finding, options: Options | None) -> str:
    """An unexplained difference named by the clause of ``spec/`` where it starts,
    for an implementation of profile ``options``: ``counts[0] differs where the
    hypothesis repeats a word more often than the reference: clipping
    (BLEU-CLIP)``.  The ``where`` part is said when the finding's example shows
    the situation the clause governs (a repeated n-gram, for clipping)."""
    paper = profile_of(paper_options(finding.metric))
    profile = paper if options is None else profile_of(options)
    field = finding.first_difference.split(":")[0].strip() or "the score"
    clause = clause_of_statistic(finding.metric, field, profile, paper)
    name = clause.member(profile) if clause.named_by else clause.id
    where = ""
    if clause.id == "BLEU-CLIP" and isinstance(options, BleuOptions):
        order = _order(field)
        if order is not None and _repeats(finding.example.hyps, finding.example.refs,
                                          options, order):
            gram = "a word" if order == 1 else f"a {order}-gram"
            where = f" where the hypothesis repeats {gram} more often than the reference"
    about = f"{clause.about} " if clause.about else ""
    return f"{field} differs{where}: {about}({name})"


def _order(field: str) -> int | None:
    """The n-gram order of ``counts[i]`` (i + 1), or None."""
    _, _, index = field.partition("[")
    return int(index.rstrip("]")) + 1 if index.rstrip("]").isdigit() else None


def _repeats(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], options: BleuOptions,
             order: int) -> bool:
    """Whether some hypothesis holds an n-gram of ``order`` more often than any of
    its references does, though one does (where clipping bites: BLEU-CLIP)."""
    from metricdiff.impls.reference.bleu import max_ref_counts, ngram_counts, segment_tokens

    for hyp, segment in zip(hyps, refs, strict=False):
        mine = ngram_counts(segment_tokens(hyp, options), order)
        most = max_ref_counts([ngram_counts(segment_tokens(ref, options), order)
                               for ref in segment if ref is not None])
        if any(len(gram) == order and 0 < most[gram] < count for gram, count in mine.items()):
            return True
    return False

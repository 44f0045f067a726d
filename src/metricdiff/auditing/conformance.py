"""Conformance: each participant against the reference configured as it claims to
be.  A difference is a defect or an undeclared convention; the explainer names the
axis that reproduces it, and the disagreements it reproduces are grouped under it.
Crashes, timeouts and invalid output are grouped by kind and error type."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import attrs

from metricdiff.auditing.scores import Scores
from metricdiff.cases.case import Case
from metricdiff.comparison.stages import first_difference, headline_delta
from metricdiff.findings.explain import Explanation, Reproducer, explain
from metricdiff.findings.finding import Example, Finding
from metricdiff.findings.witness import REFERENCE, Found, Participant, Witness, stage_of
from metricdiff.impls import get_adapter
from metricdiff.profiles.metrics import Options
from metricdiff.scoring.jobs import CaseResult

#: At most this many explainer searches per implementation and metric; the
#: rest of its disagreements are grouped by their first differing statistic.
MAX_SEARCHES = 24


@attrs.frozen
class Disagreement:
    case: int
    difference: str
    delta: float


def failure_findings(
    metric: str, person: Participant, cases: Sequence[Case], results: Sequence[CaseResult]
) -> Found:
    """crash / timeout / invalid-output, grouped by kind and error type."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, outcome in enumerate(results):
        # A case the implementation cannot take (say, three references where it
        # takes one) is not applicable to it, not a failure.
        if outcome.status != "ok" and not outcome.error.startswith("UnsupportedOption"):
            groups[(outcome.status, outcome.error.split(":")[0])].append(index)
    findings: Found = []
    for (kind, error_type), indices in groups.items():
        smallest = min(indices, key=lambda i: cases[i].size())
        case = cases[smallest]
        findings.append((Finding(
            metric, person.name, "", kind, "", ("", ""), "", len(indices), 0.0,
            Example(case.id, case.hyps, case.refs, None, None, results[smallest].error),
            {person.name: person.signature}, tuple(cases[i].id for i in indices), False,
        ), Witness(kind, person, None, None, error_type)))
    return findings


def conformance(
    metric: str, person: Participant, cases: Sequence[Case], scores: Scores
) -> tuple[Found, list[Options | None]]:
    """The participant against the reference configured as it; also, per case,
    the profile that reproduces it (its declared one, an explained one, or None)."""
    own = scores.own[person.name]
    ref = scores.reference[person.name]
    # A list, not a dict by case: a large corpus has hundreds of thousands of cases.
    effective: list[Options | None] = [None] * len(own)
    open_cases: list[Disagreement] = []
    for index, (mine, theirs) in enumerate(zip(own, ref, strict=True)):
        if mine.result is None:
            effective[index] = None
            continue
        if theirs.result is None:
            effective[index] = None
            continue
        difference = first_difference(mine.result, theirs.result, person.tolerance)
        if difference is None:
            effective[index] = person.options
        else:
            open_cases.append(Disagreement(
                index, str(difference), headline_delta(mine.result, theirs.result)
            ))
    findings = failure_findings(metric, person, cases, own)
    groups = _explain_groups(metric, person, cases, own, open_cases)
    for explanation, members in groups:
        for member in members:
            effective[member.case] = explanation.options
        finding = _conformance_finding(metric, person, cases, scores, explanation, members)
        witness = Witness("conformance", person, None, explanation.options,
                          stage_of(finding.first_difference), person.options)
        findings.append((finding, witness))
    return findings, effective


def _explain_groups(
    metric: str,
    person: Participant,
    cases: Sequence[Case],
    own: Sequence[CaseResult],
    open_cases: Sequence[Disagreement],
) -> list[tuple[Explanation, list[Disagreement]]]:
    """Explain the smallest open disagreement, claim every other one that the same
    explanation reproduces, and repeat."""
    remaining = sorted(open_cases, key=lambda d: cases[d.case].size())
    groups: list[tuple[Explanation, list[Disagreement]]] = []
    searches = 0
    while remaining:
        seed = remaining[0]
        if searches >= MAX_SEARCHES:
            groups.append((Explanation("unexplained", ("", ""), None, None), remaining))
            break
        searches += 1
        target = own[seed.case].result
        assert target is not None
        case = cases[seed.case]
        explanation = explain(metric, person.options, [case.sample], [target],
                              person.tolerance, most=_changes_at_most(metric, person, case))
        claimed = [seed] + [
            d for d in remaining[1:]
            if explanation.options is not None
            and _reproduces(metric, explanation.options, cases[d.case], own[d.case], person)
        ]
        if explanation.options is None:
            claimed = [seed] + [d for d in remaining[1:] if _same_stage(d, seed)]
        groups.append((explanation, claimed))
        taken = {d.case for d in claimed}
        remaining = [d for d in remaining if d.case not in taken]
    return groups


def _changes_at_most(metric: str, person: Participant, case: Case) -> int:
    """How many changes of its profile the explainer tries at once on ``case``:
    two, but one where the implementation's corpus score differs from run to run
    (``Declared.reproducible``: jury's bootstrap median) and the case has several
    segments.  A random score is matched by chance the more candidates are
    tried, and the pairs are most of them: on a user's corpus of 300 lines,
    about 800 profiles, nine seconds for each of jury's ROUGE metrics, to find
    nothing.  One change still finds what such an implementation does on a
    small corpus (jury's bootstrap median is the mean there: ``corpus_average=macro``)."""
    if len(case.hyps) < 2:
        return 2
    try:
        return 2 if get_adapter(person.impl, metric).declared.reproducible else 1
    except Exception:  # no adapter by that name: nothing declared
        return 2


def _same_stage(a: Disagreement, b: Disagreement) -> bool:
    return stage_of(a.difference) == stage_of(b.difference)


def _reproduces(
    metric: str, options: Options, case: Case, outcome: CaseResult, person: Participant
) -> bool:
    if outcome.result is None:
        return False
    return Reproducer(metric, [case.sample], [outcome.result], person.tolerance).reproduces(
        options
    )


def _conformance_finding(
    metric: str,
    person: Participant,
    cases: Sequence[Case],
    scores: Scores,
    explanation: Explanation,
    members: Sequence[Disagreement],
) -> Finding:
    smallest = min(members, key=lambda d: cases[d.case].size())
    case = cases[smallest.case]
    return Finding(
        metric,
        person.name,
        REFERENCE,
        "conformance",
        explanation.axis,
        explanation.values,
        smallest.difference,
        len(members),
        max(d.delta for d in members),
        Example(case.id, case.hyps, case.refs, scores.own[person.name][smallest.case].result,
                scores.reference[person.name][smallest.case].result),
        {person.name: person.signature, f"{REFERENCE}-as-{person.name}": person.signature},
        tuple(cases[d.case].id for d in members),
        explanation.explained,
    )

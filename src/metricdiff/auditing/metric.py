"""The differential audit: every implementation on shared cases, every
disagreement explained by the convention that causes it.

For each metric, each available implementation runs under its declared profile
(and, for ROUGE, with its own stemmer switched on), and the reference runs under
each of those profiles plus the paper's.  The audit is a star, with the paper's
profile at its centre: each implementation is explained once, so the work grows
with the number of implementations, not with the number of pairs.

- **conformance**: an implementation against the reference configured as the
  implementation claims to be; a difference is a defect or an undeclared
  convention, and the explainer names the axis that reproduces it.  It also
  says, case by case, under which profile the reference reproduces it;
- **departures**: an implementation against the paper's profile, where the
  reference reproduces it: each difference is one of its conventions at work,
  grouped by cause (the fewest axes that account for it);
- **pairs**: derived, not searched.  Where the reference reproduces both sides
  of a pair, their difference is the reference's under the two profiles; its
  cause is found on the reference alone, only for the pairs asked for
  (``--pair``) and the largest gaps.  Where a side is not reproduced, that is
  its conformance finding.  A pair with an inferred side (``python:``,
  ``cmd:`` without ``-o``) is checked directly: an inferred profile can fit a
  defect.

Disagreements are grouped by cause, each group shown with a minimal example.

The steps have a module each: ``participants.py`` (who takes part), ``scores.py``
(running them), ``conformance.py``, ``agreement.py`` (departures, and the pairs
checked directly) and ``pairs.py`` (the pairs derived);
``findings/minimise.py`` shows each finding on its smallest example.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TextIO

import attrs

from metricdiff.auditing.agreement import Side, agreement, departures
from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.conformance import conformance, failure_findings
from metricdiff.auditing.pairs import derive_pair, largest_gaps
from metricdiff.auditing.participants import participants
from metricdiff.auditing.scores import Scores, paper_participant, score_everything
from metricdiff.cases.case import Case, Sample
from metricdiff.findings.excerpt import excerpted
from metricdiff.findings.finding import Finding, sort_findings
from metricdiff.findings.infer import Inference, infer
from metricdiff.findings.minimise import SHRINK_BUDGET, Budget, minimise_findings
from metricdiff.findings.pairs import ASKED, LARGEST, DerivedPair
from metricdiff.findings.witness import REFERENCE, Found, Participant, Witness
from metricdiff.impls import adapter_names
from metricdiff.profiles.metrics import Options, Result
from metricdiff.progress import Progress
from metricdiff.scoring.jobs import CaseResult
from metricdiff.scoring.memos import trim_memos
from metricdiff.wording import plural


@attrs.frozen
class MetricAudit:
    """Everything the audit found for one metric."""

    metric: str
    participants: list[Participant]
    skipped: list[str]
    cases: list[Case]
    scores: Scores
    findings: list[Finding]
    #: For each finding, in the same order, how it was established.
    witnesses: list[Witness]
    #: The inferred profile of each participant that declares none.
    inferred: list[Inference] = attrs.field(factory=list)
    #: How many findings' examples the shrinking budget left unfinished.
    unshrunk: int = 0
    #: The pairs derived from the star (``pairs.py``).
    pairs: list[DerivedPair] = attrs.field(factory=list)

    def without_results(self) -> MetricAudit:
        """This audit without its per-case outcomes, once ``results.jsonl`` has
        them: on a large corpus they are most of what it holds (millions of
        results), and what comes after (the next metric, the reports, which read
        the files) needs none of them.  ``unscored`` needs them: ask it first."""
        return attrs.evolve(self, scores=attrs.evolve(self.scores, own={}, reference={}))

    def unscored(self) -> list[str]:
        """Participants that gave no result on any case, and failed on some: their
        silence is no agreement, so the audit says it could not score them."""
        return [p.name for p in self.participants
                if self.cases and all(r.status != "ok" for r in self.scores.own[p.name])
                and not all(_refused(r) for r in self.scores.own[p.name])]

    def not_applicable(self) -> list[str]:
        """Participants that refused every case by a documented inability
        (``UnsupportedOption``: it takes one reference, say): no failure."""
        return [p.name for p in self.participants
                if self.cases and all(_refused(r) for r in self.scores.own[p.name])]


def _refused(outcome: CaseResult) -> bool:
    """A refusal by a documented inability, not a failure."""
    return outcome.raised is not None and outcome.raised.unsupported


@attrs.frozen
class Scored:
    """One metric's participants and their results on the cases, before any
    comparison: what ``score_metric`` gives ``explain_metric``."""

    metric: str
    participants: list[Participant]
    skipped: list[str]
    cases: list[Case]
    scores: Scores


@attrs.frozen
class Explained:
    """What the two comparisons found for one metric, each finding still on the
    case it was found on (``finish_metric`` shows it on its smallest example)."""

    found: Found
    #: The inferred profile of each participant that declares none.
    inferred: list[Inference]
    #: The pairs derived from the star: those asked for, and the largest gaps.
    pairs: list[DerivedPair] = attrs.field(factory=list)


def audit_metric(
    metric: str,
    cases: Sequence[Case],
    config: AuditConfig,
    chosen: tuple[list[Participant], list[str]] | None = None,
) -> MetricAudit:
    """Run, compare, explain, group and shrink, for one metric, as ``config`` says.
    ``chosen``: what ``participants`` returned for ``metric``, when the caller has
    already asked (to refuse a metric nobody can run before scoring anything)."""
    scored = score_metric(metric, cases, config, chosen)
    return finish_metric(scored, explain_metric(scored, config.progress, config.pairs), config)


def score_metric(
    metric: str,
    cases: Sequence[Case],
    config: AuditConfig,
    chosen: tuple[list[Participant], list[str]] | None = None,
) -> Scored:
    """Every participant, and the reference configured as each, on ``cases``."""
    impls = list(config.impls or adapter_names())
    people, skipped = chosen or participants(metric, impls, config.user_profile, config.strict)
    config.progress(f"{metric}: {plural(len(people), 'participant')} on "
                    f"{plural(len(cases), 'case')}")
    scores = score_everything(metric, cases, people, config)
    return Scored(metric, people, skipped, list(cases), scores)


def explain_metric(scored: Scored, progress: Callable[[str], None],
                   asked: Sequence[tuple[str, str]] = (),
                   stream: TextIO | None = None,
                   step: Callable[[], None] | None = None) -> Explained:
    """The star: each participant's conformance (against the reference configured
    as it) and departures (against the paper's profile, where it is reproduced);
    a pair with an inferred side checked directly; the pairs ``asked`` for and
    the largest gaps derived from the star.  ``stream``: where a progress line
    is drawn; ``step``: called at each of its ``2 * len(participants)`` steps
    (a forked child's count, which the parent draws: ``run.py``)."""
    metric, people, cases, scores = scored.metric, scored.participants, scored.cases, scored.scores
    line = None if stream is None else Progress(metric, stream)
    if line is not None:
        line.start("explaining", 2 * len(people), unit="step")
    found: Found = []
    sides: dict[str, Side] = {}
    # A participant that declares no profile has none to conform to: once the
    # profile inferred from its results reproduces every case, that profile is
    # its own, as the paper's is the reference's; else it is held to the paper's.
    inferred = [_inferred(metric, p, cases, scores) for p in people if p.label == "unknown"]
    settled = {inference.impl: inference.options for inference in inferred if inference.found}
    for person in people:
        own = scores.own[person.name]
        if person.impl == REFERENCE or person.name in settled:
            profile = settled.get(person.name, person.options)
            found += failure_findings(metric, person, cases, own)
            profiles: list[Options | None] = [profile if r.result is not None else None
                                              for r in own]
        else:
            conforming, profiles = conformance(metric, person, cases, scores)
            found += conforming
        sides[person.name] = Side(person, own, profiles)
        if line is not None:
            line.advance("explaining")
        if step is not None:
            step()
    centre = _centre(metric, people, scores, sides)
    for person in people:
        if person.impl != REFERENCE:
            found += departures(metric, centre, sides[person.name], cases)
        if line is not None:
            line.advance("explaining")
        if step is not None:
            step()
    # An inferred profile can fit a defect: a pair with such a side is checked
    # directly.  Every other pair's differences follow from the star.
    # (Against the paper's profile, such a side's departures say it all.)
    direct = {p.name for p in people if p.label == "unknown"}
    for index, left in enumerate(people):
        for right in people[index + 1:]:
            if (left.name in direct or right.name in direct) and (
                    (left.label == "stemmed") == (right.label == "stemmed")) and (
                    centre.person not in (left, right)):
                found += agreement(metric, sides[left.name], sides[right.name], cases)
    pairs = _derived(metric, [p for p in people if p.name not in direct], sides, cases, asked)
    if line is not None:
        line.finish()
    progress(f"{metric}: {plural(len(found), 'finding')}")
    return Explained(found, inferred, pairs)


def _centre(metric: str, people: Sequence[Participant], scores: Scores,
            sides: dict[str, Side]) -> Side:
    """The reference under the paper's profile: the centre of the star."""
    paper = paper_participant(metric, people)
    if paper.name in sides and paper in people:
        return sides[paper.name]
    assert scores.paper is not None  # scored for the purpose (``score_everything``)
    return Side(paper, scores.paper,
                [paper.options if r.result is not None else None for r in scores.paper])


def _derived(metric: str, people: Sequence[Participant], sides: dict[str, Side],
             cases: Sequence[Case], asked: Sequence[tuple[str, str]]) -> list[DerivedPair]:
    """The pairs ``asked`` for that both take part in ``metric``, then the
    largest gaps among ``people`` (the reference aside: its differences from a
    participant are that participant's departures; and those with an inferred
    profile, whose pairs are checked directly)."""
    chosen = [(sides[a], sides[b], ASKED) for a, b in asked if a in sides and b in sides]
    # (``sides`` has every participant: a pair asked for may have an inferred side.)
    named = {frozenset((a.person.name, b.person.name)) for a, b, _ in chosen}
    others = [sides[p.name] for p in people if p.impl != REFERENCE]
    chosen += [(a, b, LARGEST) for a, b in largest_gaps(others, cases)
               if frozenset((a.person.name, b.person.name)) not in named]
    return [derive_pair(metric, a, b, cases, why) for a, b, why in chosen]


def finish_metric(scored: Scored, explained: Explained, config: AuditConfig) -> MetricAudit:
    """Each finding shown on its smallest example (unless ``config`` says not
    to), the findings in their order: the metric's audit."""
    metric, cases = scored.metric, scored.cases
    budget = Budget()
    found = explained.found
    line = None
    if config.progress_stream is not None and config.minimise and found:
        line = Progress(metric, config.progress_stream)
        line.start("shrinking", len(found), unit="example")
    pairs = (minimise_findings(metric, found, cases, config.timeout, budget, config.workers,
                               step=None if line is None else lambda: line.advance("shrinking"))
             if config.minimise else list(found))
    if line is not None:
        line.finish()
    sides_on = _sides_on(scored)
    pairs = [(excerpted(metric, finding, witness, functools.partial(sides_on, witness)),
              witness) for finding, witness in pairs]
    if budget.cut:
        config.progress(f"{metric}: the shrinking budget ({SHRINK_BUDGET} judgements) ran "
                        f"out: {plural(len(budget.cut), 'example')} not fully minimised")
    order = {id(f): i for i, f in enumerate(sort_findings([f for f, _ in pairs]))}
    pairs.sort(key=lambda pair: order[id(pair[0])])
    trim_memos()
    return MetricAudit(
        metric, scored.participants, [*scored.skipped, *scored.scores.capped], cases,
        scored.scores, [f for f, _ in pairs], [w for _, w in pairs], explained.inferred,
        len(budget.cut), explained.pairs,
    )


def _sides_on(scored: Scored) -> Callable[[Witness, Sample],
                                         tuple[Result | None, Result | None] | None]:
    """The two sides' results of a witness on a segment the audit scored alone
    (a line of the user's files), for ``excerpted``."""
    scores = scored.scores
    alone = {case.sample: index for index, case in enumerate(scored.cases)
             if len(case.hyps) == 1}

    def results(name: str, reference: bool) -> Sequence[CaseResult] | None:
        if reference:
            return scores.reference.get(name)
        return scores.own.get(name, scores.paper if name == REFERENCE else None)

    def sides(witness: Witness, segment: Sample) -> tuple[Result | None, Result | None] | None:
        index = alone.get(segment)
        right = witness.right
        left = results(witness.left.name, False)
        other = results(witness.left.name, True) if right is None else results(right.name,
                                                                               False)
        if index is None or left is None or other is None:
            return None
        return left[index].result, other[index].result

    return sides


def _inferred(
    metric: str, person: Participant, cases: Sequence[Case], scores: Scores
) -> Inference:
    """The profile of a participant that declares none, from its results."""
    scored = [
        (case, outcome.result)
        for case, outcome in zip(cases, scores.own[person.name], strict=True)
        if outcome.result is not None
    ]
    fixtures = sum(1 for case, _ in scored if case.origin == "fixture")
    return infer(person.name, metric, person.options, [case.sample for case, _ in scored],
                 [result for _, result in scored], person.tolerance, fixtures)

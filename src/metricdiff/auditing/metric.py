"""The differential audit: every implementation on shared cases, every
disagreement explained by the convention that causes it.

For each metric, each available implementation runs under its declared profile
(and, for ROUGE, with its own stemmer switched on), and the reference runs under
each of those profiles plus the paper's.  Two comparisons follow:

- **conformance**: an implementation against the reference configured as the
  implementation claims to be; a difference is a defect or an undeclared
  convention, and the explainer names the axis that reproduces it;
- **agreement**: implementations against each other; a difference is what users
  trip over, and its cause is the axis on which their (explained) profiles part.

Disagreements are grouped by cause, each group shown with a minimal example.

The steps have a module each: ``participants.py`` (who takes part), ``scores.py``
(running them), ``conformance.py`` and ``agreement.py`` (the two comparisons);
``findings/minimise.py`` shows each finding on its smallest example.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from metricdiff.auditing.agreement import agreement
from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.conformance import conformance, failure_findings
from metricdiff.auditing.participants import participants
from metricdiff.auditing.scores import Scores, score_everything
from metricdiff.cases.case import Case
from metricdiff.findings.finding import Finding, sort_findings
from metricdiff.findings.infer import Inference, infer
from metricdiff.findings.minimise import SHRINK_BUDGET, Budget, minimise_findings
from metricdiff.findings.witness import REFERENCE, Found, Participant, Witness
from metricdiff.impls import adapter_names
from metricdiff.profiles.metrics import Options
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

    def without_results(self) -> MetricAudit:
        """This audit without its per-case outcomes, once ``results.jsonl`` has
        them: on a large corpus they are most of what it holds (millions of
        results), and what comes after (the next metric, the reports, which read
        the files) needs none of them.  ``unscored`` needs them: ask it first."""
        return attrs.evolve(self, scores=attrs.evolve(self.scores, own={}, reference={}))

    def unscored(self) -> list[str]:
        """Participants that gave no result on any case: their silence is no
        agreement, so the audit says it could not score them."""
        return [p.name for p in self.participants
                if self.cases and all(r.status != "ok" for r in self.scores.own[p.name])]


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
    return finish_metric(scored, explain_metric(scored, config.progress), config)


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


def explain_metric(scored: Scored, progress: Callable[[str], None]) -> Explained:
    """Conformance of each participant, then agreement of each pair, every
    difference explained by the convention that causes it."""
    metric, people, cases, scores = scored.metric, scored.participants, scored.cases, scored.scores
    found: Found = []
    effective: dict[str, list[Options | None]] = {}
    # A participant that declares no profile has none to conform to: once the
    # profile inferred from its results reproduces every case, that profile is
    # its own, as the paper's is the reference's; else it is held to the paper's.
    inferred = [_inferred(metric, p, cases, scores) for p in people if p.label == "unknown"]
    settled = {inference.impl: inference.options for inference in inferred if inference.found}
    for person in people:
        if person.impl == REFERENCE or person.name in settled:
            own = settled.get(person.name, person.options)
            found += failure_findings(metric, person, cases, scores.own[person.name])
            effective[person.name] = [own if r.result is not None else None
                                      for r in scores.own[person.name]]
            continue
        conforming, effective[person.name] = conformance(metric, person, cases, scores)
        found += conforming
    for index, left in enumerate(people):
        for right in people[index + 1:]:
            if (left.label == "stemmed") == (right.label == "stemmed"):
                found += agreement(metric, left, right, cases, scores, effective)
    progress(f"{metric}: {plural(len(found), 'finding')}")
    return Explained(found, inferred)


def finish_metric(scored: Scored, explained: Explained, config: AuditConfig) -> MetricAudit:
    """Each finding shown on its smallest example (unless ``config`` says not
    to), the findings in their order: the metric's audit."""
    metric, cases = scored.metric, scored.cases
    budget = Budget()
    found = explained.found
    pairs = (minimise_findings(metric, found, cases, config.timeout, budget, config.workers)
             if config.minimise else list(found))
    if budget.cut:
        config.progress(f"{metric}: the shrinking budget ({SHRINK_BUDGET} judgements) ran "
                        f"out: {plural(len(budget.cut), 'example')} not fully minimised")
    order = {id(f): i for i, f in enumerate(sort_findings([f for f, _ in pairs]))}
    pairs.sort(key=lambda pair: order[id(pair[0])])
    trim_memos()
    return MetricAudit(
        metric, scored.participants, [*scored.skipped, *scored.scores.capped], cases,
        scored.scores, [f for f, _ in pairs], [w for _, w in pairs], explained.inferred,
        len(budget.cut),
    )


def _inferred(
    metric: str, person: Participant, cases: Sequence[Case], scores: Scores
) -> Inference:
    """The profile of a participant that declares none, from its results."""
    scored = [
        (case.sample, outcome.result)
        for case, outcome in zip(cases, scores.own[person.name], strict=True)
        if outcome.result is not None
    ]
    return infer(person.name, metric, person.options, [sample for sample, _ in scored],
                 [result for _, result in scored], person.tolerance)

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
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

import attrs

from metricdiff.audit.journal import Journal, ProgressLine, job_case_key
from metricdiff.comparison.stages import first_difference, headline_delta, headlines_differ
from metricdiff.findings import shrink
from metricdiff.findings.explain import Explanation, Reproducer, changed, explain
from metricdiff.findings.finding import Example, Finding, sort_findings
from metricdiff.findings.infer import Inference, infer
from metricdiff.implementations import AnyAdapter, adapter_names, computes, resolve
from metricdiff.implementations.base import Tolerance
from metricdiff.profiles import profile_of, with_overrides
from metricdiff.profiles.metrics import Options, Result, family
from metricdiff.scoring.execution import CaseResult, Executor, Job, run_jobs
from metricdiff.wording import plural

REFERENCE = "reference"
#: The stemmer the reference's "stemmed" profile uses: Porter's own algorithm.
REFERENCE_STEMMER = "porter-original"
#: At most this many explainer searches per implementation and metric; the
#: rest of its disagreements are grouped by their first differing statistic.
MAX_SEARCHES = 24


@attrs.frozen
class AuditCase:
    """One input the audit scores: its hypotheses and each segment's references."""

    id: str
    hyps: tuple[str, ...]
    refs: tuple[tuple[str | None, ...], ...]
    source: str  # "fixture", "user" or "generated"
    klass: str = ""

    @property
    def sample(self) -> tuple[tuple[str, ...], tuple[tuple[str | None, ...], ...]]:
        return self.hyps, self.refs

    def size(self) -> int:
        """How big the case is, for picking the smallest example."""
        texts = [*self.hyps, *(r or "" for refs in self.refs for r in refs)]
        return sum(len(text) for text in texts) + 10 * len(texts)


@attrs.frozen
class Participant:
    """An implementation under one profile: ``declared``, ``stemmed``, ``paper``,
    ``unknown`` (a user's own without ``-o``), or one of the adapter's named
    ``variants``."""

    impl: str
    label: str
    metric: str
    options: Options
    tolerance: Tolerance
    signature: str

    @property
    def name(self) -> str:
        own = ("declared", "paper", "unknown")
        return self.impl if self.label in own else f"{self.impl}+{self.label}"


@attrs.frozen
class Scores:
    """Every participant's and every reference run's results on the cases."""

    own: dict[str, list[CaseResult]]  # participant name -> per case
    reference: dict[str, list[CaseResult]]  # participant name -> reference as it


def _stemmed_value(adapter: AnyAdapter, declared: Options) -> str | None:
    """The implementation's own stemmer, if it has one and it is off by default."""
    if getattr(declared, "stemmer", "none") != "none":
        return None
    if adapter.name == REFERENCE:
        return REFERENCE_STEMMER
    return adapter.own_stemmer


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
        adapter = resolve(name, metric)
        reason = adapter.unavailable_reason()
        if reason is not None:
            skipped.append(reason)
            continue
        claimed = dict(user_profile or {}) if adapter.user_profile else {}
        declared = adapter.options(metric, claimed)
        label = "paper" if adapter.display_name == REFERENCE else "declared"
        if adapter.user_profile and not (claimed or adapter.settings):
            label = "unknown"
        tolerance = Tolerance() if strict else adapter.tolerance
        chosen.append(_participant(adapter, metric, label, declared, tolerance))
        if adapter.settings:  # it takes part as configured, and only so
            continue
        for variant, overrides in sorted(adapter.variants.items()):
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


def score_everything(
    metric: str,
    cases: Sequence[AuditCase],
    people: Sequence[Participant],
    workers: int,
    timeout: float,
    journal: Journal | None = None,
    progress_stream: TextIO | None = None,
    executor: Executor | None = None,
) -> Scores:
    """One job per participant and one per reference-as-participant, run together.

    With a ``journal``, a job-case it already has is not scored again, and every
    case scored is recorded in it as soon as it has its outcome; with a
    ``progress_stream``, a progress line is drawn there; ``executor``: see
    ``run_jobs`` (None: this machine's worker processes)."""
    samples = tuple(case.sample for case in cases)
    jobs = [Job(p.impl, metric, p.options, samples, p.name) for p in people]
    jobs += [Job(REFERENCE, metric, p.options, samples, f"reference-as-{p.name}")
             for p in people if p.impl != REFERENCE]
    outcomes = _run_journalled(metric, jobs, workers, timeout, journal, progress_stream,
                               executor)
    own = {p.name: outcomes[i] for i, p in enumerate(people)}
    as_them = iter(outcomes[len(people):])
    reference = {p.name: next(as_them) for p in people if p.impl != REFERENCE}
    return Scores(own, reference)


def _run_journalled(
    metric: str,
    jobs: Sequence[Job],
    workers: int,
    timeout: float,
    journal: Journal | None,
    progress_stream: TextIO | None,
    executor: Executor | None = None,
) -> list[list[CaseResult]]:
    """``run_jobs`` on what the journal does not have yet, recording as it goes."""
    keys = [[job_case_key(job, case) for case in job.cases] for job in jobs] if journal else []
    known: list[list[CaseResult | None]] = []
    for number, job in enumerate(jobs):
        row: list[CaseResult | None] = [None] * len(job.cases)
        if journal is not None:
            row = [journal.get(key) for key in keys[number]]
        known.append(row)
    # The cases left to score, per job that has any: (job, indices in job.cases).
    todo = [(number, [i for i, r in enumerate(row) if r is None])
            for number, row in enumerate(known)]
    todo = [(number, indices) for number, indices in todo if indices]
    total = sum(len(job.cases) for job in jobs)
    meter = None
    if progress_stream is not None:
        left = sum(len(indices) for _, indices in todo)
        meter = ProgressLine(metric, total, total - left, progress_stream)

    def on_result(sub: int, index: int, outcome: CaseResult) -> None:
        number, indices = todo[sub]
        if journal is not None:
            journal.record(keys[number][indices[index]], outcome)
        if meter is not None:
            meter.advance()

    if todo:
        pending = [
            attrs.evolve(jobs[number], cases=tuple(jobs[number].cases[i] for i in indices))
            for number, indices in todo
        ]
        hooked = journal is not None or meter is not None
        try:
            results = run_jobs(pending, workers=workers, timeout=timeout,
                               on_result=on_result if hooked else None, executor=executor)
        except BaseException:  # Ctrl-C: what comes next on stderr starts a line of its own
            if meter is not None:
                meter.interrupted()
            raise
        for (number, indices), scored in zip(todo, results, strict=True):
            for index, outcome in zip(indices, scored, strict=True):
                known[number][index] = outcome
    if meter is not None:
        meter.finish()
    out: list[list[CaseResult]] = []
    for outcomes in known:
        out.append([r for r in outcomes if r is not None])
        assert len(out[-1]) == len(outcomes)
    return out


# ---------------------------------------------------------------- conformance


@attrs.frozen
class Disagreement:
    case: int
    difference: str
    delta: float


@attrs.frozen
class Witness:
    """How to tell whether a smaller case still shows a finding with the same
    cause: who is compared, and the configuration under which the reference must
    reproduce the right-hand side (None: only that they still differ)."""

    kind: str
    left: Participant
    right: Participant | None
    reproduce: Options | None
    stage: str
    #: The profile under which the reference reproduces the left-hand side.
    base: Options | None = None


def _stage(difference: str) -> str:
    return difference.split("[")[0].split(":")[0]


Found = list[tuple[Finding, Witness]]


def _failure_findings(
    metric: str, person: Participant, cases: Sequence[AuditCase], results: Sequence[CaseResult]
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
    metric: str, person: Participant, cases: Sequence[AuditCase], scores: Scores
) -> tuple[Found, dict[int, Options | None]]:
    """The participant against the reference configured as it; also, per case,
    the profile that reproduces it (its declared one, an explained one, or None)."""
    own = scores.own[person.name]
    ref = scores.reference[person.name]
    effective: dict[int, Options | None] = {}
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
    findings = _failure_findings(metric, person, cases, own)
    groups = _explain_groups(metric, person, cases, own, open_cases)
    for explanation, members in groups:
        for member in members:
            effective[member.case] = explanation.options
        finding = _conformance_finding(metric, person, cases, scores, explanation, members)
        witness = Witness("conformance", person, None, explanation.options,
                          _stage(finding.first_difference), person.options)
        findings.append((finding, witness))
    return findings, effective


def _explain_groups(
    metric: str,
    person: Participant,
    cases: Sequence[AuditCase],
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
        explanation = explain(
            metric, person.options, [cases[seed.case].sample], [target], person.tolerance
        )
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


def _same_stage(a: Disagreement, b: Disagreement) -> bool:
    return _stage(a.difference) == _stage(b.difference)


def _reproduces(
    metric: str, options: Options, case: AuditCase, outcome: CaseResult, person: Participant
) -> bool:
    if outcome.result is None:
        return False
    return Reproducer(metric, [case.sample], [outcome.result], person.tolerance).reproduces(
        options
    )


def _conformance_finding(
    metric: str,
    person: Participant,
    cases: Sequence[AuditCase],
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


# ------------------------------------------------------------------ agreement


def _cause(
    metric: str,
    left: Options,
    right: Options,
    case: AuditCase,
    target: Result,
    tolerance: Tolerance,
    tried: list[tuple[tuple[str, str], ...]],
) -> tuple[str, tuple[str, str]]:
    """The axis (or pair) on which two effective profiles part that turns the
    reference as ``left`` into ``right``'s result on ``case``."""
    a, b = profile_of(left), profile_of(right)
    differing = [(axis, b[axis]) for axis in a if a[axis] != b[axis] and axis != "n"]
    reproducer = Reproducer(metric, [case.sample], [target], tolerance)
    for changes in tried:  # causes seen before on this pair usually hold again
        seen = changed(left, changes)
        if seen is not None and reproducer.reproduces(seen):
            return _named(a, changes)
    explanation = explain(metric, left, [case.sample], [target], tolerance, differing)
    if explanation.explained and explanation.axis:
        changes = tuple(zip(explanation.axis.split(","), explanation.values[1].split(","),
                            strict=True))
        tried.append(changes)
        return _named(a, changes)
    # No one or two axes do it; all the axes on which the profiles part may.  Then
    # drop, one by one, every axis the reproduction does not need: the cause named
    # is a minimal set, not the whole difference of the two profiles.
    needed = list(differing)
    if len(needed) <= 2 or not reproducer.reproduces(with_overrides(left, dict(needed))):
        return "unexplained", ("", "")
    for change in list(needed):
        fewer = [c for c in needed if c != change]
        candidate = changed(left, fewer)
        if candidate is not None and reproducer.reproduces(candidate):
            needed = fewer
    found = tuple(needed)
    tried.append(found)
    return _named(a, found)


def _named(
    before: dict[str, str], changes: Sequence[tuple[str, str]]
) -> tuple[str, tuple[str, str]]:
    return (
        ",".join(axis for axis, _ in changes),
        (",".join(before[axis] for axis, _ in changes), ",".join(v for _, v in changes)),
    )


def agreement(
    metric: str,
    left: Participant,
    right: Participant,
    cases: Sequence[AuditCase],
    scores: Scores,
    effective: dict[str, dict[int, Options | None]],
) -> Found:
    """Two participants against each other, grouped by the axis that parts them."""
    tolerance = _pair_tolerance(left, right)
    groups: dict[tuple[str, tuple[str, str]], list[tuple[int, str, float]]] = defaultdict(list)
    reproduce: dict[tuple[str, tuple[str, str]], Options | None] = {}
    bases: dict[tuple[str, tuple[str, str]], Options | None] = {}
    tried: list[tuple[tuple[str, str], ...]] = []
    for index, case in enumerate(cases):
        a = scores.own[left.name][index].result
        b = scores.own[right.name][index].result
        if a is None or b is None or not headlines_differ(a, b, tolerance):
            continue
        difference = first_difference(a, b, tolerance)
        left_profile = effective[left.name].get(index)
        right_profile = effective[right.name].get(index)
        if left_profile is None or right_profile is None:
            cause: tuple[str, tuple[str, str]] = ("unexplained", ("", ""))
        else:
            cause = _cause(metric, left_profile, right_profile, case, b, tolerance, tried)
        groups[cause].append((index, str(difference or ""), headline_delta(a, b)))
        if cause not in reproduce:
            reproduce[cause] = _reproducing(left_profile, cause)
            bases[cause] = left_profile
    findings: Found = []
    for (axis, values), members in groups.items():
        smallest = min(members, key=lambda m: cases[m[0]].size())
        case = cases[smallest[0]]
        finding = Finding(
            metric, left.name, right.name, "agreement", axis, values, smallest[1],
            len(members), max(m[2] for m in members),
            Example(case.id, case.hyps, case.refs, scores.own[left.name][smallest[0]].result,
                    scores.own[right.name][smallest[0]].result),
            {left.name: left.signature, right.name: right.signature},
            tuple(cases[m[0]].id for m in members), axis != "unexplained",
        )
        witness = Witness("agreement", left, right, reproduce[(axis, values)],
                          _stage(smallest[1]), bases[(axis, values)])
        findings.append((finding, witness))
    return findings


def _reproducing(
    left: Options | None, cause: tuple[str, tuple[str, str]]
) -> Options | None:
    """The left profile with the cause's axes set to the right's values."""
    axis, (_, new) = cause
    if left is None or axis in ("", "unexplained"):
        return None
    try:
        return with_overrides(left, dict(zip(axis.split(","), new.split(","), strict=True)))
    except Exception:
        return None


# ----------------------------------------------------------------- the audit


@attrs.frozen
class MetricAudit:
    """Everything the audit found for one metric."""

    metric: str
    participants: list[Participant]
    skipped: list[str]
    cases: list[AuditCase]
    scores: Scores
    findings: list[Finding]
    #: For each finding, in the same order, how it was established.
    witnesses: list[Witness]
    #: The inferred profile of each participant that declares none.
    inferred: list[Inference] = attrs.field(factory=list)


def audit_metric(
    metric: str,
    cases: Sequence[AuditCase],
    impls: Sequence[str] | None = None,
    workers: int = 1,
    timeout: float = 60.0,
    minimise: bool = True,
    progress: Callable[[str], None] = lambda _message: None,
    journal: Journal | None = None,
    progress_stream: TextIO | None = None,
    executor: Executor | None = None,
    user_profile: Mapping[str, str] | None = None,
    chosen: tuple[list[Participant], list[str]] | None = None,
) -> MetricAudit:
    """Run, compare, explain, group and shrink, for one metric.  ``journal``,
    ``progress_stream`` and ``executor``: see ``score_everything`` (the
    shrinker's runs are neither journalled nor shown, and run on this machine:
    many small calls, each cheaper than a round trip to a cluster);
    ``user_profile``: see ``participants``; ``chosen``: what ``participants``
    returned, when the caller has already asked (to refuse a metric nobody can
    run before scoring anything)."""
    people, skipped = chosen or participants(metric, list(impls or adapter_names()),
                                             user_profile)
    progress(f"{metric}: {plural(len(people), 'participant')} on {plural(len(cases), 'case')}")
    scores = score_everything(metric, cases, people, workers, timeout, journal,
                              progress_stream, executor)
    found: Found = []
    effective: dict[str, dict[int, Options | None]] = {}
    # A participant that declares no profile has none to conform to: once the
    # profile inferred from its results reproduces every case, that profile is
    # its own, as the paper's is the reference's; else it is held to the paper's.
    inferred = [_inferred(metric, p, cases, scores) for p in people if p.label == "unknown"]
    settled = {inference.impl: inference.options for inference in inferred if inference.found}
    for person in people:
        if person.impl == REFERENCE or person.name in settled:
            own = settled.get(person.name, person.options)
            found += _failure_findings(metric, person, cases, scores.own[person.name])
            effective[person.name] = {
                i: (own if r.result is not None else None)
                for i, r in enumerate(scores.own[person.name])
            }
            continue
        conforming, effective[person.name] = conformance(metric, person, cases, scores)
        found += conforming
    for index, left in enumerate(people):
        for right in people[index + 1:]:
            if (left.label == "stemmed") == (right.label == "stemmed"):
                found += agreement(metric, left, right, cases, scores, effective)
    progress(f"{metric}: {plural(len(found), 'finding')}")
    by_id = {case.id: case for case in cases}
    budget = Budget()
    pairs = [
        (
            minimise_finding(metric, finding, witness, timeout,
                             by_id.get(finding.example.case_id), budget)
            if minimise
            else finding,
            witness,
        )
        for finding, witness in found
    ]
    order = {id(f): i for i, f in enumerate(sort_findings([f for f, _ in pairs]))}
    pairs.sort(key=lambda pair: order[id(pair[0])])
    return MetricAudit(
        metric, people, skipped, list(cases), scores,
        [f for f, _ in pairs], [w for _, w in pairs], inferred,
    )


def _inferred(
    metric: str, person: Participant, cases: Sequence[AuditCase], scores: Scores
) -> Inference:
    """The profile of a participant that declares none, from its results."""
    scored = [
        (case.sample, outcome.result)
        for case, outcome in zip(cases, scores.own[person.name], strict=True)
        if outcome.result is not None
    ]
    return infer(person.name, metric, person.options, [sample for sample, _ in scored],
                 [result for _, result in scored], person.tolerance)


# ------------------------------------------------------------------ shrinking


def _job(person: Participant, samples: Sequence[shrink.Sample], metric: str,
         impl: str | None = None) -> Job:
    return Job(impl or person.impl, metric, person.options, tuple(samples), person.name)


def _score_sides(witness: Witness, samples: Sequence[shrink.Sample], metric: str,
                 timeout: float) -> list[list[CaseResult]]:
    """Both sides of a witness on ``samples``, side by side (the slower sets the
    pace): the implementation, then the reference configured as it (conformance)
    or the other implementation (agreement); a crash has one side."""
    jobs = [_job(witness.left, samples, metric)]
    if witness.right is not None:
        jobs.append(_job(witness.right, samples, metric))
    elif witness.kind == "conformance":
        jobs.append(_job(witness.left, samples, metric, impl=REFERENCE))
    return run_jobs(jobs, workers=len(jobs), timeout=timeout)


#: An example this small (in characters, see ``shrink.size``) is shown as it is.
SMALL_ENOUGH = 60
#: How many batches of candidates the shrinker may have judged per metric: a count,
#: spent in the findings' fixed order, so that runs stay reproducible and an audit
#: with many findings against a slow implementation stays bounded.
SHRINK_BUDGET = 150


@attrs.define
class Budget:
    """Judgements left for shrinking."""

    left: int = SHRINK_BUDGET

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def holds_for(
    metric: str, witness: Witness, timeout: float, budget: Budget | None = None
) -> shrink.Holds:
    """The test a smaller case must pass to still show the finding."""
    budget = budget or Budget()

    def holds(samples: Sequence[shrink.Sample]) -> list[bool]:
        if not budget.spend():
            return [False] * len(samples)
        sides = _score_sides(witness, samples, metric, timeout)
        mine = sides[0]
        if witness.kind in ("crash", "timeout", "invalid-output"):
            return [r.status == witness.kind and r.error.split(":")[0] == witness.stage
                    for r in mine]
        other = sides[1]
        verdicts = []
        for sample, a, b in zip(samples, mine, other, strict=True):
            verdicts.append(_still(metric, witness, sample, a.result, b.result))
        return verdicts

    return holds


def _still(metric: str, witness: Witness, sample: shrink.Sample,
           a: Result | None, b: Result | None) -> bool:
    if a is None or b is None:
        return False
    if witness.kind == "agreement":
        assert witness.right is not None
        tolerance = _pair_tolerance(witness.left, witness.right)
        if not headlines_differ(a, b, tolerance):
            return False
        if witness.reproduce is None:  # unexplained: keep at least where it shows
            return _stage(str(first_difference(a, b, tolerance))) == witness.stage
        target = b
    else:
        difference = first_difference(a, b, witness.left.tolerance)
        if difference is None or _stage(str(difference)) != witness.stage:
            return False
        target, tolerance = a, witness.left.tolerance
    if witness.reproduce is None:
        return True
    return Reproducer(metric, [sample], [target], tolerance).reproduces(witness.reproduce)


#: Generated classes whose cases are long: Hypothesis's shrinker takes minutes on
#: them (it redraws hundreds of tokens per step), so greedy reduction does it alone.
_SLOW_TO_SHRINK = frozenset({"long", "corpus"})

#: How many candidate cases Hypothesis may have judged for one finding.  A count,
#: not seconds, so that the same seed always gives the same minimal case.
HYPOTHESIS_BUDGET = 40


def hypothesis_minimum(
    metric: str, case: AuditCase, holds: shrink.Holds, seed: int = 0
) -> shrink.Sample | None:
    """A small case of the same generated class under which the finding still holds,
    found and shrunk by Hypothesis (bounded by HYPOTHESIS_BUDGET judgements)."""
    import random

    from hypothesis import HealthCheck, find, settings

    from metricdiff.cases.generate import strategy_for

    try:
        strategy = strategy_for(case.klass, family(metric))
    except ValueError:
        return None
    # Memoised, so that a case judged once is always judged the same: Hypothesis
    # replays what it found, and once the budget is spent new cases are refused.
    verdicts: dict[shrink.Sample, bool] = {}

    def still(generated: object) -> bool:
        sample = (generated.hyps, generated.refs)  # type: ignore[attr-defined]
        if sample not in verdicts:
            verdicts[sample] = len(verdicts) < HYPOTHESIS_BUDGET and holds([sample])[0]
        return verdicts[sample]

    config = settings(max_examples=40, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck))
    try:
        found = find(strategy, still, settings=config, random=random.Random(seed))
    except Exception:  # nothing found in time, or Hypothesis gave up: keep ours
        return None
    return found.hyps, found.refs


def minimise_finding(
    metric: str,
    finding: Finding,
    witness: Witness,
    timeout: float,
    case: AuditCase | None = None,
    budget: Budget | None = None,
) -> Finding:
    """The finding shown with the smallest example that still has its cause: a
    generated case is first shrunk by Hypothesis within its class, then every case
    by greedy reduction."""
    original: shrink.Sample = (finding.example.hyps, finding.example.refs)
    start = original
    if shrink.size(start) <= SMALL_ENOUGH:
        return finding
    holds = holds_for(metric, witness, timeout, budget)
    if (case is not None and case.source == "generated" and case.klass
            and case.klass not in _SLOW_TO_SHRINK):
        found = hypothesis_minimum(metric, case, holds)
        if found is not None and shrink.size(found) < shrink.size(start):
            start = found
    smallest = shrink.minimise(start, holds)
    if smallest == original:  # (a case Hypothesis found, even if no smaller, is kept)
        return finding
    hyps, refs = smallest
    sides = [results[0] for results in _score_sides(witness, [smallest], metric, timeout)]
    mine, other = sides[0], sides[-1]
    example = Example(
        f"{finding.example.case_id}~min", hyps, refs, mine.result,
        other.result if witness.kind != "crash" else None, mine.error,
    )
    # The group's first difference was that of its smallest case before shrinking;
    # shown next to the minimal example it must describe that example instead.
    difference = finding.first_difference
    if witness.kind in ("conformance", "agreement") and example.result_a is not None \
            and example.result_b is not None:
        now = first_difference(example.result_a, example.result_b,
                               _pair_tolerance(witness.left, witness.right))
        difference = "" if now is None else str(now)
    return attrs.evolve(finding, example=example, first_difference=difference)


def _pair_tolerance(left: Participant, right: Participant | None) -> Tolerance:
    """The tolerance two sides are compared within: a participant's own against
    the reference configured as it (``right`` None), the larger of the two's
    between two participants."""
    if right is None:
        return left.tolerance
    mine, theirs = left.tolerance, right.tolerance
    return Tolerance(max(mine.absolute, theirs.absolute), max(mine.relative, theirs.relative))

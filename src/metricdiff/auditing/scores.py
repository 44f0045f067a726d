"""Scoring the audit of one metric: every participant, and the reference
configured as each, on every case, as jobs run together; journalled, so that an
interrupted audit resumes, and shown on a progress line."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.journal import Key, ProgressLine, case_digest, job_key
from metricdiff.cases.case import Case, Sample
from metricdiff.errors import MetricdiffError
from metricdiff.findings.witness import REFERENCE, Participant
from metricdiff.impls import resolve
from metricdiff.impls.base import Tolerance
from metricdiff.profiles.metrics import Options
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import CRASH, CaseResult, Job, Raised
from metricdiff.scoring.outcomes import Outcomes


@attrs.frozen
class Scores:
    """Every participant's and every reference run's results on the cases."""

    own: dict[str, Sequence[CaseResult]]  # participant name -> per case
    reference: dict[str, Sequence[CaseResult]]  # participant name -> reference as it
    #: Which costly participants took only some of the generated cases.
    capped: tuple[str, ...] = ()
    #: The reference under the paper's profile, when it is no participant: the
    #: centre of the star every participant's departures are measured from.
    paper: Sequence[CaseResult] | None = None


def score_everything(
    metric: str, cases: Sequence[Case], people: Sequence[Participant], config: AuditConfig
) -> Scores:
    """One job per participant and one per profile of a participant's that the
    reference is run under, run together with the config's workers, timeout and
    executor (see ``run_jobs``).  Participants with the same profile
    (sacrebleu and jury, rouge-score and rouge-score-rs) share one run of the
    reference: it gives the same outcomes under the same profile.

    With a ``journal``, a job-case it already has is not scored again, and every
    case scored is recorded in it as soon as it has its outcome; with a
    ``progress_stream``, a progress line is drawn there."""
    samples = tuple(case.sample for case in cases)  # one copy, shared by every job
    runs = {p.name: _capped(p, cases, config) for p in people}
    jobs = [p.job(_samples(samples, runs[p.name])) for p in people]
    # The job of the reference under each profile: the first participant with it names it.
    under: dict[Options, int] = {}
    for p in people:
        if p.impl != REFERENCE and p.options not in under:
            under[p.options] = len(jobs)
            jobs.append(p.job(samples, REFERENCE, f"reference-as-{p.name}"))
    centre = paper_participant(metric, people)
    alone = centre not in people  # the paper's profile is run anyway, as no participant
    if alone and centre.options not in under:
        under[centre.options] = len(jobs)
        jobs.append(centre.job(samples))
    outcomes = _run_journalled(metric, jobs, config)
    paper = outcomes[under[centre.options]] if alone else None
    own = {p.name: _expanded(outcomes[i], runs[p.name], len(cases))
           for i, p in enumerate(people)}
    reference: dict[str, Sequence[CaseResult]] = {
        p.name: outcomes[under[p.options]] for p in people if p.impl != REFERENCE}
    capped = tuple(cap.not_run.raised.message for cap in runs.values()
                   if cap is not None and cap.not_run.raised is not None)
    return Scores(own, reference, capped, paper)


def paper_participant(metric: str, people: Sequence[Participant]) -> Participant:
    """The reference under the paper's profile: the participant that is it, or
    one made for the purpose when the audit names no such participant."""
    found = next((p for p in people if p.impl == REFERENCE and p.label == "paper"), None)
    if found is not None:
        return found
    adapter = resolve(REFERENCE, metric)
    options = adapter.options(metric, {})
    return Participant(REFERENCE, "paper", metric, options, Tolerance(),
                       adapter.signature(metric, options))


@attrs.frozen
class _Cap:
    """The cases a costly participant runs (``Cost.audit_generated_cases``),
    and what the others say in its place."""

    indices: tuple[int, ...]
    not_run: CaseResult


def _capped(person: Participant, cases: Sequence[Case], config: AuditConfig) -> _Cap | None:
    """Every fixture and user case and the first generated ones, for a participant
    whose adapter caps the generated cases it takes (None: every case).  The rest
    are not applicable to it (``UnsupportedOption``), as a case it refuses is:
    no finding, no agreement either."""
    if config.all_cases or person.impl == REFERENCE:
        return None
    try:
        adapter = resolve(person.impl, person.metric)
    except MetricdiffError:  # a user's own: never capped
        return None
    cap = adapter.cost.audit_generated_cases
    generated = [i for i, case in enumerate(cases) if case.origin == "generated"]
    if cap is None or len(generated) <= cap:
        return None
    left_out = set(generated[cap:])
    why = (f"{person.name} takes the first {cap} of {len(generated)} generated cases "
           f"({adapter.cost.audit_reason}); --all-cases runs it on every one")
    config.progress(f"{person.metric}: {why}")
    error = f"UnsupportedOption: not run: {why}"
    return _Cap(tuple(i for i in range(len(cases)) if i not in left_out),
                CaseResult(CRASH, error=error, raised=Raised("UnsupportedOption", why, True)))


def _samples(samples: tuple[Sample, ...], cap: _Cap | None) -> tuple[Sample, ...]:
    return samples if cap is None else tuple(samples[i] for i in cap.indices)


def _expanded(
    outcomes: Sequence[CaseResult], cap: _Cap | None, count: int
) -> Sequence[CaseResult]:
    """A capped participant's outcomes put back in the places of every case."""
    if cap is None:
        return outcomes
    every = [cap.not_run] * count
    for index, outcome in zip(cap.indices, outcomes, strict=True):
        every[index] = outcome
    return every


def _run_journalled(
    metric: str, jobs: Sequence[Job], config: AuditConfig
) -> list[Outcomes]:
    """``run_jobs`` on what the journal does not have yet, recording as it goes."""
    journal, progress_stream = config.journal, config.progress_stream
    keys = _Keys(jobs) if journal is not None else None
    # Compact rows (``Outcomes``): a large corpus has millions of job-cases, held
    # until results.jsonl is written.
    known = [Outcomes(len(job.cases)) for job in jobs]
    if journal is not None and keys is not None and journal.recorded:
        for number, row in enumerate(known):
            for i in range(len(row)):
                found = journal.get(keys.key(number, i))
                if found is not None:
                    row.set(i, found)
    # The cases left to score, per job that has any: (job, indices in job.cases).
    todo = [(number, [i for i in range(len(row)) if row.get(i) is None])
            for number, row in enumerate(known)]
    todo = [(number, indices) for number, indices in todo if indices]
    total = sum(len(job.cases) for job in jobs)
    meter = None
    if progress_stream is not None:
        left = sum(len(indices) for _, indices in todo)
        meter = ProgressLine(metric, total, total - left, progress_stream)

    def on_result(sub: int, index: int, outcome: CaseResult) -> None:
        number, indices = todo[sub]
        if journal is not None and keys is not None and keys.first(number, indices[index]):
            journal.record(keys.key(number, indices[index]), outcome, known=False)
        if meter is not None:
            meter.advance()

    if todo:
        pending = [
            attrs.evolve(jobs[number], cases=tuple(jobs[number].cases[i] for i in indices))
            for number, indices in todo
        ]
        hooked = journal is not None or meter is not None
        try:
            results = run_jobs(pending, workers=config.workers, timeout=config.timeout,
                               on_result=on_result if hooked else None,
                               executor=config.executor, compact=True)
        except BaseException:  # Ctrl-C: what comes next on stderr starts a line of its own
            if meter is not None:
                meter.interrupted()
            raise
        for (number, indices), scored in zip(todo, results, strict=True):
            if len(indices) == len(known[number]) and isinstance(scored, Outcomes):
                known[number] = scored  # nothing came from the journal: the row as it is
                continue
            for index, outcome in zip(indices, scored, strict=True):
                known[number].set(index, outcome)
    if meter is not None:
        meter.finish()
    assert all(row.complete() for row in known)
    return known


class _Keys:
    """The journal's key of each job-case, made when needed from one digest per
    case and one per job, rather than kept for every job-case: an audit of a
    large corpus has millions of them.  A case whose texts an earlier case of
    its job has too (a repeated line) has that case's key: ``first`` says
    whether it is the first, so that each key is recorded once without the
    journal remembering every key.  (The audit's jobs share one list of cases,
    whose digests are made once.)"""

    def __init__(self, jobs: Sequence[Job]) -> None:
        self.options = [job_key(job) for job in jobs]
        made: dict[int, tuple[list[str], list[bool]]] = {}
        for job in jobs:
            if id(job.cases) not in made:
                digests = [case_digest(*case) for case in job.cases]
                seen: dict[str, int] = {}
                made[id(job.cases)] = (digests, [seen.setdefault(digest, i) == i
                                                 for i, digest in enumerate(digests)])
        self.cases = [made[id(job.cases)] for job in jobs]

    def key(self, job: int, case: int) -> Key:
        return (*self.options[job], self.cases[job][0][case])

    def first(self, job: int, case: int) -> bool:
        return self.cases[job][1][case]

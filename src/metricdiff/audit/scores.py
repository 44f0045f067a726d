"""Scoring the audit of one metric: every participant, and the reference
configured as each, on every case, as jobs run together; journalled, so that an
interrupted audit resumes, and shown on a progress line."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from metricdiff.audit.config import AuditConfig
from metricdiff.audit.journal import Key, ProgressLine, case_digest, job_key
from metricdiff.cases.case import Case
from metricdiff.findings.witness import REFERENCE, Participant
from metricdiff.scoring.execution import CaseResult, Job, run_jobs


@attrs.frozen
class Scores:
    """Every participant's and every reference run's results on the cases."""

    own: dict[str, list[CaseResult]]  # participant name -> per case
    reference: dict[str, list[CaseResult]]  # participant name -> reference as it


def score_everything(
    metric: str, cases: Sequence[Case], people: Sequence[Participant], config: AuditConfig
) -> Scores:
    """One job per participant and one per reference-as-participant, run together
    with the config's workers, timeout and executor (see ``run_jobs``).

    With a ``journal``, a job-case it already has is not scored again, and every
    case scored is recorded in it as soon as it has its outcome; with a
    ``progress_stream``, a progress line is drawn there."""
    samples = tuple(case.sample for case in cases)  # one copy, shared by every job
    jobs = [p.job(samples) for p in people]
    jobs += [p.job(samples, REFERENCE, f"reference-as-{p.name}")
             for p in people if p.impl != REFERENCE]
    outcomes = _run_journalled(metric, jobs, config)
    own = {p.name: outcomes[i] for i, p in enumerate(people)}
    as_them = iter(outcomes[len(people):])
    reference = {p.name: next(as_them) for p in people if p.impl != REFERENCE}
    return Scores(own, reference)


def _run_journalled(
    metric: str, jobs: Sequence[Job], config: AuditConfig
) -> list[list[CaseResult]]:
    """``run_jobs`` on what the journal does not have yet, recording as it goes."""
    journal, progress_stream = config.journal, config.progress_stream
    keys = _Keys(jobs) if journal is not None else None
    known: list[list[CaseResult | None]] = []
    for number, job in enumerate(jobs):
        row: list[CaseResult | None] = [None] * len(job.cases)
        if journal is not None and keys is not None and journal.recorded:
            row = [journal.get(keys.key(number, i)) for i in range(len(job.cases))]
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
                               executor=config.executor)
        except BaseException:  # Ctrl-C: what comes next on stderr starts a line of its own
            if meter is not None:
                meter.interrupted()
            raise
        # Equal outcomes (the reference as a participant mostly gives what the
        # participant gives) are kept once: a large corpus has millions of them,
        # and they are held until the reports are written.
        shared: dict[CaseResult, CaseResult] = {}
        for (number, indices), scored in zip(todo, results, strict=True):
            for index, outcome in zip(indices, scored, strict=True):
                known[number][index] = shared.setdefault(outcome, outcome)
    if meter is not None:
        meter.finish()
    out: list[list[CaseResult]] = []
    for outcomes in known:
        out.append([r for r in outcomes if r is not None])
        assert len(out[-1]) == len(outcomes)
    return out


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

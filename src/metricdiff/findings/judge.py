"""Judging a smaller case: both sides of a finding's ``Witness`` scored on it, and
whether it still shows the finding (the same kind, stage and cause).  Used by
``minimise.py`` for every candidate the shrinker proposes and for the examples
the stand-in proposes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from metricdiff.cases.case import Sample
from metricdiff.comparison.stages import first_difference, headlines_differ
from metricdiff.findings.explain import Reproducer
from metricdiff.findings.witness import REFERENCE, Witness, pair_tolerance, stage_of
from metricdiff.impls import AnyAdapter, get_adapter
from metricdiff.profiles.metrics import Result
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import CaseResult, Job


def side_jobs(witness: Witness, samples: Sequence[Sample]) -> list[Job]:
    """The jobs that score both sides of a witness on ``samples``: the
    implementation, then the reference configured as it (conformance) or the other
    implementation (agreement); a crash has one side."""
    jobs = [witness.left.job(samples)]
    if witness.right is not None:
        jobs.append(witness.right.job(samples))
    elif witness.kind == "conformance":
        jobs.append(witness.left.job(samples, REFERENCE))
    return jobs


def score_sides(witness: Witness, samples: Sequence[Sample],
                 timeout: float) -> list[list[CaseResult]]:
    """Both sides of a witness on ``samples`` (``side_jobs``), side by side (the
    slower sets the pace)."""
    jobs = side_jobs(witness, samples)
    return run_jobs(jobs, workers=len(jobs), timeout=timeout)


def process_per_call(metric: str, witness: Witness) -> bool:
    """Whether a side starts a process per call (its adapter declares
    ``process_per_call``, as the Perl script's): there a call costs about the same
    for one candidate as for 64, so candidates go in full batches, and Hypothesis,
    which judges one at a time, is not used."""
    return _a_side(metric, witness, lambda adapter: adapter.cost.process_per_call)


def process_per_case(metric: str, witness: Witness) -> bool:
    """Whether a side starts a process for every case it scores (its adapter
    declares ``process_per_case``: pyrouge, multi-bleu.perl, a ``cmd:`` program):
    every candidate judged costs a process, so as few are judged as may be, and
    not by Hypothesis, which judges one per call."""
    return _a_side(metric, witness, lambda adapter: adapter.cost.process_per_case)


def unrepeatable(metric: str, witness: Witness) -> bool:
    """Whether a side's corpus results differ from one run to the next (its adapter
    declares ``reproducible = False``, as jury's ROUGE): judged on a smaller corpus
    it may show a finding by chance, and not again."""
    return _a_side(metric, witness, lambda adapter: not adapter.declared.reproducible)


def _a_side(metric: str, witness: Witness, test: Callable[[AnyAdapter], bool]) -> bool:
    sides = [witness.left] + ([witness.right] if witness.right is not None else [])
    for person in sides:
        try:
            adapter = get_adapter(person.impl, metric)
        except Exception:  # the shrinker's own judgement will report why
            continue
        if test(adapter):
            return True
    return False


def verdicts(metric: str, witness: Witness, samples: Sequence[Sample],
              sides: Sequence[Sequence[CaseResult]]) -> list[bool]:
    """Whether each sample, given each side's outcome on it, still shows the finding."""
    mine = sides[0]
    if witness.kind in ("crash", "timeout", "invalid-output"):
        return [r.status == witness.kind and r.error.split(":")[0] == witness.stage
                for r in mine]
    return [still_shows(metric, witness, sample, a.result, b.result)
            for sample, a, b in zip(samples, mine, sides[1], strict=True)]


def still_shows(metric: str, witness: Witness, sample: Sample,
           a: Result | None, b: Result | None) -> bool:
    if a is None or b is None:
        return False
    if witness.kind != "conformance":  # two sides: departure or agreement
        assert witness.right is not None
        tolerance = pair_tolerance(witness.left, witness.right)
        if not headlines_differ(a, b, tolerance):
            return False
        if witness.reproduce is None:  # unexplained: keep at least where it shows
            return stage_of(str(first_difference(a, b, tolerance))) == witness.stage
        target = b
    else:
        difference = first_difference(a, b, witness.left.tolerance)
        if difference is None or stage_of(str(difference)) != witness.stage:
            return False
        target, tolerance = a, witness.left.tolerance
    if witness.reproduce is None:
        return True
    return Reproducer(metric, [sample], [target], tolerance).reproduces(witness.reproduce)

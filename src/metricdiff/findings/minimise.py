"""A finding shown on the smallest example that still has its cause: the policy
around ``shrink.py``.  A generated case is first shrunk by Hypothesis within its
class, then every case by greedy reduction; each candidate is judged by scoring
both sides of the finding's ``Witness`` again, within fixed budgets of judgements
so that the same inputs always give the same minimal case."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from metricdiff.cases.case import Case, Sample, size
from metricdiff.comparison.stages import first_difference, headlines_differ
from metricdiff.findings import shrink
from metricdiff.findings.explain import Reproducer
from metricdiff.findings.finding import Example, Finding
from metricdiff.findings.witness import REFERENCE, Witness, pair_tolerance, stage_of
from metricdiff.profiles.metrics import Result, family
from metricdiff.scoring.execution import CaseResult, run_jobs


def _score_sides(witness: Witness, samples: Sequence[Sample],
                 timeout: float) -> list[list[CaseResult]]:
    """Both sides of a witness on ``samples``, side by side (the slower sets the
    pace): the implementation, then the reference configured as it (conformance)
    or the other implementation (agreement); a crash has one side."""
    jobs = [witness.left.job(samples)]
    if witness.right is not None:
        jobs.append(witness.right.job(samples))
    elif witness.kind == "conformance":
        jobs.append(witness.left.job(samples, REFERENCE))
    return run_jobs(jobs, workers=len(jobs), timeout=timeout)


#: An example this small (in characters, see ``cases.case.size``) is shown as it is.
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

    def holds(samples: Sequence[Sample]) -> list[bool]:
        if not budget.spend():
            return [False] * len(samples)
        sides = _score_sides(witness, samples, timeout)
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


def _still(metric: str, witness: Witness, sample: Sample,
           a: Result | None, b: Result | None) -> bool:
    if a is None or b is None:
        return False
    if witness.kind == "agreement":
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


#: Generated classes whose cases are long: Hypothesis's shrinker takes minutes on
#: them (it redraws hundreds of tokens per step), so greedy reduction does it alone.
_SLOW_TO_SHRINK = frozenset({"long", "corpus"})

#: How many candidate cases Hypothesis may have judged for one finding.  A count,
#: not seconds, so that the same seed always gives the same minimal case.
HYPOTHESIS_BUDGET = 40


def hypothesis_minimum(
    metric: str, case: Case, holds: shrink.Holds, seed: int = 0
) -> Sample | None:
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
    verdicts: dict[Sample, bool] = {}

    def still(generated: Case) -> bool:
        sample = generated.sample
        if sample not in verdicts:
            verdicts[sample] = len(verdicts) < HYPOTHESIS_BUDGET and holds([sample])[0]
        return verdicts[sample]

    config = settings(max_examples=40, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck))
    try:
        found = find(strategy, still, settings=config, random=random.Random(seed))
    except Exception:  # nothing found in time, or Hypothesis gave up: keep ours
        return None
    return found.sample


def minimise_finding(
    metric: str,
    finding: Finding,
    witness: Witness,
    timeout: float,
    case: Case | None = None,
    budget: Budget | None = None,
) -> Finding:
    """The finding shown with the smallest example that still has its cause: a
    generated case is first shrunk by Hypothesis within its class, then every case
    by greedy reduction."""
    original: Sample = (finding.example.hyps, finding.example.refs)
    start = original
    if size(start) <= SMALL_ENOUGH:
        return finding
    holds = holds_for(metric, witness, timeout, budget)
    if (case is not None and case.origin == "generated" and case.klass
            and case.klass not in _SLOW_TO_SHRINK):
        found = hypothesis_minimum(metric, case, holds)
        if found is not None and size(found) < size(start):
            start = found
    smallest = shrink.minimise(start, holds)
    if smallest == original:  # (a case Hypothesis found, even if no smaller, is kept)
        return finding
    hyps, refs = smallest
    sides = [results[0] for results in _score_sides(witness, [smallest], timeout)]
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
                               pair_tolerance(witness.left, witness.right))
        difference = "" if now is None else str(now)
    return attrs.evolve(finding, example=example, first_difference=difference)

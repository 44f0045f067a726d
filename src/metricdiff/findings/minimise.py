"""A finding shown on the smallest example that still has its cause: the policy
around ``shrink.py``.  A finding with an explained cause is first shrunk with the
reference standing in for both sides (``surrogate.py``, in this process), and the
result is shown once both sides themselves confirm it, in one judgement.  Else a
generated case is first shrunk by Hypothesis within its class, then every case by
greedy reduction; each candidate is judged by scoring both sides of the finding's
``Witness`` again, within fixed budgets of judgements so that the same inputs
always give the same minimal case.

The findings of an audit are shrunk smallest first, and every example already
found is tried first on each later finding, in one judgement: findings with one
cause share one example, and the judgements it cost."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from metricdiff.cases.case import Case, Sample, size
from metricdiff.comparison.stages import first_difference
from metricdiff.findings import judge, shrink, surrogate
from metricdiff.findings.finding import COMPARED, Example, Finding
from metricdiff.findings.witness import Found, Witness, pair_tolerance
from metricdiff.profiles.metrics import family
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import CaseResult, Job

#: An example this small (in characters, see ``cases.case.size``) is shown as it is.
SMALL_ENOUGH = 60
#: How many batches of candidates the shrinker may have judged per metric: a count,
#: spent in the findings' fixed order, so that runs stay reproducible and an audit
#: with many findings against a slow implementation stays bounded.  Where a side
#: starts a process per case (``judge.process_per_case``), each candidate of a
#: batch counts as one: pyrouge shrinking a user's whole file (an unexplained
#: finding on the corpus case) ran the Perl script hundreds of times.
SHRINK_BUDGET = 40
#: The first batch of each greedy round (``shrink.minimise``): a long case's round
#: usually ends at its first few candidates, the biggest reductions.
FIRST_BATCH = 8
#: A finding whose shared example (another finding's) shrinks to this size or less
#: keeps it; a bigger one is shrunk from its own example as well, the smaller kept.
SHARED_IS_ENOUGH = SMALL_ENOUGH


@attrs.define
class Budget:
    """Judgements left for shrinking, and the findings it refused one to."""

    left: int = SHRINK_BUDGET
    #: The finding being shrunk (its index), and those that were refused a judgement.
    finding: int = 0
    cut: set[int] = attrs.field(factory=set)

    def spend(self, judgements: int = 1) -> bool:
        self.left -= judgements
        if self.left < 0:
            self.cut.add(self.finding)
        return self.left >= 0

    def spent(self) -> bool:
        """Whether no judgement is left (the finding being shrunk is then cut)."""
        if self.left <= 0:
            self.cut.add(self.finding)
        return self.left <= 0


def rationed(budget: Budget, holds: shrink.Holds) -> shrink.Holds:
    """``holds`` while the budget lasts, then a refusal that costs nothing: once no
    judgement is left every candidate is refused anyway, and the reference standing
    in for the sides (``surrogate.filtered``) need not judge it first."""

    def judge(samples: Sequence[Sample]) -> list[bool]:
        return [False] * len(samples) if budget.spent() else holds(samples)

    return judge


def minimise_findings(metric: str, found: Found, cases: Sequence[Case], timeout: float,
                      budget: Budget, workers: int = 2,
                      step: Callable[[], None] | None = None) -> Found:
    """Every finding with its minimal example, the smallest examples shrunk first
    (see the module's docstring); the order of ``found`` is kept.

    First the reference, standing in for both sides, proposes an example for every
    finding whose cause is explained (``surrogate.py``); then both sides of every
    finding judge a few steps of its way down, all in one run of ``workers``
    processes (one judgement of the budget; a second for the findings whose way
    down from another's example they all refuse); the findings left are shrunk one
    by one with their sides judging every candidate.  ``step`` is called as each
    finding is done (a progress line)."""
    by_id = {case.id: case for case in cases}
    pairs = list(found)
    order = sorted(range(len(pairs)), key=lambda i: _example_size(pairs[i][0]))
    proposed: dict[int, list[Sample]] = {}
    shared: set[int] = set()  # the findings whose proposal came from another's example
    known: list[Sample] = []
    for number in order:
        finding, witness = pairs[number]
        start = _sample(finding)
        if size(start) > SMALL_ENOUGH and surrogate.stands_in(witness):
            origin = surrogate.shared_origin(metric, witness, start, known)
            if origin is not None:
                shared.add(number)
            steps = _steps(metric, witness, origin or start, start)
            if steps:
                proposed[number] = steps
                start = steps[0]
        known.append(start)
    confirmed = _confirmed(metric, pairs, proposed, timeout, budget, workers)
    # Where the implementations refuse every step down from another finding's
    # example, the steps down from the finding's own are judged, in one more batch.
    again = {number: steps for number in sorted(shared - set(confirmed))
             if (steps := _steps(metric, pairs[number][1], _sample(pairs[number][0])))}
    confirmed.update(_confirmed(metric, pairs, again, timeout, budget, workers))
    shown: list[Sample] = []
    for number in order:
        finding, witness = pairs[number]
        budget.finding = number
        if number in confirmed:
            finding = _shown_on(finding, witness, *confirmed[number])
        elif _example_size(finding) > SMALL_ENOUGH and budget.spent():
            pass  # every candidate would be refused: not even Hypothesis need draw them
        elif (witness.reproduce is None and len(finding.example.hyps) > 1
                and _example_size(finding) > SMALL_ENOUGH and judge.unrepeatable(metric, witness)):
            budget.cut.add(number)  # shown as found: a smaller corpus cannot be judged
        else:
            finding = minimise_finding(metric, finding, witness, timeout,
                                       by_id.get(finding.example.case_id), budget, shown)
        shown.append(_sample(finding))
        pairs[number] = (finding, witness)
        if step is not None:
            step()
    return pairs


#: Which steps of the stand-in's trail (``surrogate.reference_trail``) the
#: implementations judge, counted back from its smallest: most of its way down
#: near the end, where the stand-in may have strayed, a few further back.  Also
#: where a side starts a process per case (pyrouge): a few more cases in this one
#: judgement cost less than shrinking again with the sides judging every
#: candidate, which a refusal of the last steps alone leads to (a rounding of
#: the Perl script's that the profile does not model, on a shrunk case's small
#: scores).
CONFIRMED_STEPS = (0, 1, 2, 4, 8, 16)


def _steps(metric: str, witness: Witness, origin: Sample,
           start: Sample | None = None) -> list[Sample]:
    """The steps of the stand-in's way down from ``origin``
    (``surrogate.reference_trail``) that the implementations judge, the smallest
    first, each smaller than ``start`` (default: ``origin``)."""
    trail = surrogate.reference_trail(metric, witness, origin)[::-1]
    limit = size(start or origin)
    return [step for step in dict.fromkeys(trail[back] for back in CONFIRMED_STEPS
                                           if back < len(trail)) if size(step) < limit]


def _sample(finding: Finding) -> Sample:
    return finding.example.hyps, finding.example.refs


def _confirmed(metric: str, pairs: Found, proposed: dict[int, list[Sample]], timeout: float,
               budget: Budget, workers: int) -> dict[int, tuple[Sample, list[CaseResult]]]:
    """For each finding, the smallest of its proposals that both sides themselves
    still show it on, with each side's outcome: every side of every proposal in
    one ``run_jobs`` call, the proposals of one implementation under one profile
    as one job (so the Perl script starts once per profile, not once per finding)."""
    if not proposed or not budget.spend():
        return {}
    # job without cases -> each sample it scores -> who asked: (finding, side);
    # findings that share an example and a side have it scored once.
    jobs: dict[Job, dict[Sample, list[tuple[int, int]]]] = {}
    for number, steps in proposed.items():
        for sample in steps:
            for side, job in enumerate(judge.side_jobs(pairs[number][1], [sample])):
                scored = jobs.setdefault(attrs.evolve(job, cases=()), {})
                scored.setdefault(sample, []).append((number, side))
    merged = [attrs.evolve(job, cases=tuple(scored)) for job, scored in jobs.items()]
    results = run_jobs(merged, workers=workers, timeout=timeout)
    sides: dict[tuple[int, Sample], dict[int, CaseResult]] = {}
    for by_sample, outcomes in zip(jobs.values(), results, strict=True):
        for (sample, askers), outcome in zip(by_sample.items(), outcomes, strict=True):
            for number, side in askers:
                sides.setdefault((number, sample), {})[side] = outcome
    confirmed = {}
    for number, steps in proposed.items():
        witness = pairs[number][1]
        for sample in steps:
            outcomes = [sides[number, sample][side] for side in sorted(sides[number, sample])]
            if judge.verdicts(metric, witness, [sample], [[o] for o in outcomes])[0]:
                confirmed[number] = (sample, outcomes)
                break
    return confirmed


def _example_size(finding: Finding) -> int:
    return size(_sample(finding))


def holds_for(
    metric: str, witness: Witness, timeout: float, budget: Budget | None = None,
    scored: dict[Sample, list[CaseResult]] | None = None,
) -> shrink.Holds:
    """The test a smaller case must pass to still show the finding; each side's
    outcome on every sample judged is kept in ``scored``, if given (so the example
    finally shown is not scored again)."""
    budget = budget or Budget()
    per_case = judge.process_per_case(metric, witness)

    def holds(samples: Sequence[Sample]) -> list[bool]:
        if not budget.spend(len(samples) if per_case else 1):
            return [False] * len(samples)
        sides = judge.score_sides(witness, samples, timeout)
        if scored is not None:
            scored.update((sample, [side[i] for side in sides])
                          for i, sample in enumerate(samples))
        return judge.verdicts(metric, witness, samples, sides)

    return holds


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
    known: Sequence[Sample] = (),
) -> Finding:
    """The finding shown with the smallest example that still has its cause, its
    sides judging every candidate (``_judged_minimum``) that the reference standing
    in for them accepts, if it can (``surrogate.filtered``)."""
    original = _sample(finding)
    start = original
    if size(start) <= SMALL_ENOUGH:
        return finding
    scored: dict[Sample, list[CaseResult]] = {}
    budget = budget or Budget()
    holds = holds_for(metric, witness, timeout, budget, scored)
    if surrogate.stands_in(witness):  # Hypothesis (one case at a time) is not needed
        holds = surrogate.filtered(surrogate.reference_holds(metric, witness, start), holds)
        case = None
    holds = rationed(budget, holds)
    smallest = _judged_minimum(metric, start, case, witness, holds, known)
    if smallest == original:  # (a case Hypothesis found, even if no smaller, is kept)
        return finding
    sides = scored.get(smallest) or [
        results[0] for results in judge.score_sides(witness, [smallest], timeout)
    ]
    return _shown_on(finding, witness, smallest, sides)


def _shown_on(finding: Finding, witness: Witness, smallest: Sample,
              sides: Sequence[CaseResult]) -> Finding:
    """``finding`` shown on ``smallest``, with each side's outcome there."""
    hyps, refs = smallest
    mine, other = sides[0], sides[-1]
    example = Example(
        f"{finding.example.case_id}~min", hyps, refs, mine.result,
        other.result if witness.kind != "crash" else None, mine.error,
    )
    # The group's first difference was that of its smallest case before shrinking;
    # shown next to the minimal example it must describe that example instead.
    difference = finding.first_difference
    if witness.kind in COMPARED and example.result_a is not None \
            and example.result_b is not None:
        now = first_difference(example.result_a, example.result_b,
                               pair_tolerance(witness.left, witness.right))
        difference = "" if now is None else str(now)
    return attrs.evolve(finding, example=example, first_difference=difference)


def _judged_minimum(metric: str, start: Sample, case: Case | None, witness: Witness,
                    holds: shrink.Holds, known: Sequence[Sample]) -> Sample:
    """``start`` shrunk with every candidate judged by the two sides themselves: the
    smallest of the ``known`` examples that shows the finding, reduced greedily;
    unless that ends at most SHARED_IS_ENOUGH, also its own example, shrunk
    (``_own_minimum``), whichever is smaller."""
    first_batch = shrink.BATCH if judge.process_per_call(metric, witness) else FIRST_BATCH
    smallest: Sample | None = None
    shared = smallest_holding(known, start, holds)
    if shared is not None:
        # Greedy reduction from it too: it is minimal for the finding it came from,
        # not necessarily for this one.
        smallest = shrink.minimise(shared, holds, first_batch)
    if smallest is None or size(smallest) > SHARED_IS_ENOUGH:
        # Greedy reduction is not optimal: a shared example that stays bigger than
        # this may be a dead end that the finding's own example avoids.
        own = _own_minimum(metric, start, case, witness, holds, first_batch)
        if smallest is None or size(own) < size(smallest):
            smallest = own
    return smallest


def _own_minimum(metric: str, start: Sample, case: Case | None, witness: Witness,
                 holds: shrink.Holds, first_batch: int) -> Sample:
    """``start`` shrunk: a generated case first by Hypothesis within its class
    (not where a side starts processes), then by greedy reduction."""
    if (case is not None and case.origin == "generated" and case.klass
            and case.klass not in _SLOW_TO_SHRINK and not judge.process_per_call(metric, witness)
            and not judge.process_per_case(metric, witness)):
        found = hypothesis_minimum(metric, case, holds)
        if found is not None and size(found) < size(start):
            start = found
    return shrink.minimise(start, holds, first_batch)


def smallest_holding(known: Sequence[Sample], start: Sample,
                     holds: shrink.Holds) -> Sample | None:
    """The smallest of ``known`` (at most ``shrink.BATCH`` of them, each smaller
    than ``start``) under which the finding holds, judged as one batch."""
    smaller = sorted({s for s in known if size(s) < size(start)},
                     key=lambda s: (size(s), repr(s)))[:shrink.BATCH]
    if not smaller:
        return None
    return next((s for s, ok in zip(smaller, holds(smaller), strict=True) if ok), None)

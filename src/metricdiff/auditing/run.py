"""The audit of several metrics, one after another: each scored
(``score_metric``), explained (``explain_metric``, and the table of the user's
corpus, ``corpus_table``) and finished (``finish_metric``), handed to the
caller as it is done, in the order of the plan.

Explaining one metric is the reference's work in one process, while the worker
processes that score sit idle; so, with two workers or more, a metric is
explained in a forked process (``background.py``) while the next ones are
scored, at most ``FORKS_PER_WORKER`` times ``workers`` metrics at once; each is
finished (shown on its smallest examples, ``finish_metric``) here as soon as it
is explained, and handed over in the order of the plan.  The answers are the
same as one metric at a time gives.  Not with a Ray executor (its threads do
not survive a fork), nor for a metric of more than ``FORK_CASES_AT_MOST`` cases,
whose copy of the scores would count twice against the machine's memory.

The progress line (``config.progress_stream``) does not go quiet while a metric
is explained: explained here, it draws its own steps; explained in a forked
child, the child counts its steps in shared memory (``background.Steps``) and
this process draws them while it waits for it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from typing import TextIO

from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.metric import (
    Explained,
    MetricAudit,
    Scored,
    explain_metric,
    finish_metric,
    score_metric,
)
from metricdiff.cases.case import Case
from metricdiff.comparison.gaps import MetricComparison
from metricdiff.findings.infer import Inference
from metricdiff.findings.witness import Participant
from metricdiff.progress import Progress
from metricdiff.scoring.background import Background, Steps, wait_for_any

#: The table of the user's corpus for one metric, from its scores and the
#: profiles inferred for the participants that declare none (``corpus_table``).
Table = Callable[[Scored, Sequence[Inference]], MetricComparison]

#: Who takes part in each metric, and who was left out and why
#: (``participants``), when the caller has asked already.
Chosen = Mapping[str, tuple[list[Participant], list[str]]]

#: Up to this many cases a metric is explained in a forked process.
FORK_CASES_AT_MOST = 20_000
#: How many metrics may be explained in forked processes at once, per worker.
#: More than one: with one per worker, the next metric's scoring waited for an
#: explaining child to end while the workers sat idle (7 s of the main job's
#: 290); children beyond the cores only share them, and each holds a copy of
#: at most ``FORK_CASES_AT_MOST`` cases' scores.
FORKS_PER_WORKER = 2

_Explaining = tuple[Scored, Background[tuple[Explained, MetricComparison | None]], Steps]


def audit_metrics(
    plan: Mapping[str, Sequence[Case]],
    config: AuditConfig,
    table: Table | None = None,
    chosen: Chosen | None = None,
) -> Iterator[tuple[MetricAudit, MetricComparison | None]]:
    """Each metric of ``plan`` audited on its cases, with its ``table`` if one
    is asked for, in the order of ``plan``."""
    explaining: dict[int, _Explaining] = {}  # by place in the plan, oldest first
    finished: dict[int, tuple[MetricAudit, MetricComparison | None]] = {}
    metrics = enumerate(plan.items())
    scoring, shown = True, 0
    waiting = _Waiting(config.progress_stream)
    try:
        while scoring or explaining or finished:
            if shown in finished:
                waiting.end()  # the metric's lines start lines of their own
                shown = yield from _in_order(finished, shown)
                continue
            # A metric explained is finished before the next is scored, not only
            # the next in the plan's order: its shrinking and its writing go
            # beside the children still explaining, rather than all at the end
            # with one core (27 s of the main job's last 50), and one slow to
            # explain does not hold up the others.  (One explained here, without
            # a fork, is done at once.)
            ready = next((place for place, (_, b, _) in explaining.items() if b.done()), None)
            if ready is not None:
                if waiting.line is not None:  # its last counts, then the line ends
                    waiting.show(explaining.values())
                waiting.end()
                finished[ready] = _finish(explaining.pop(ready), config)
                continue
            running = [b for _, b, _ in explaining.values()]  # none is done (above)
            at_once = FORKS_PER_WORKER * max(config.workers, 1)
            if scoring and len(running) < at_once:
                waiting.end()  # the next metric's scoring draws its own line
                step = next(metrics, None)
                if step is None:
                    scoring = False
                    continue
                place, (metric, cases) = step
                try:
                    explaining[place] = _begin(metric, cases, config, table, chosen)
                except KeyboardInterrupt:
                    # Ctrl-C while scoring: the metrics scored before are
                    # finished (a second Ctrl-C stops them too), as one metric
                    # at a time would have finished them by now.
                    if explaining:
                        config.progress("interrupted: finishing the metrics scored so far; "
                                        "Ctrl-C again stops at once")
                    for earlier in sorted(explaining):
                        finished[earlier] = _finish(explaining.pop(earlier), config)
                    yield from _in_order(finished, shown)
                    raise
                continue
            waiting.show(explaining.values())
            wait_for_any(running, waiting.interval)
    finally:
        waiting.end()
        for _, background, _ in explaining.values():
            background.cancel()


def _in_order(finished: dict[int, tuple[MetricAudit, MetricComparison | None]], shown: int
              ) -> Generator[tuple[MetricAudit, MetricComparison | None], None, int]:
    """The finished metrics from place ``shown`` on, as long as none is missing,
    taken out of ``finished``; returns the place of the next to hand over."""
    while shown in finished:
        yield finished.pop(shown)
        shown += 1
    return shown


def _begin(metric: str, cases: Sequence[Case], config: AuditConfig, table: Table | None,
           chosen: Chosen | None) -> _Explaining:
    """``metric`` scored, and its explaining begun."""
    scored = score_metric(metric, cases, config, (chosen or {}).get(metric))
    fork = config.workers > 1 and config.executor is None and len(cases) <= FORK_CASES_AT_MOST
    steps = Steps(2 * len(scored.participants))
    background = Background(functools.partial(_explain, scored, config, table, steps, fork),
                            fork)
    return scored, background, steps


def _explain(scored: Scored, config: AuditConfig, table: Table | None, steps: Steps,
             forked: bool) -> tuple[Explained, MetricComparison | None]:
    # Explained here, the metric draws its steps on the progress line; in a
    # forked child it only counts them (its line would be drawn over this
    # process's), and the parent draws them while it waits (``_Waiting``).
    stream = None if forked else config.progress_stream
    explained = explain_metric(scored, config.progress, config.pairs, stream, steps.step)
    return explained, None if table is None else table(scored, explained.inferred)


def _finish(explaining: _Explaining, config: AuditConfig
            ) -> tuple[MetricAudit, MetricComparison | None]:
    scored, background, _ = explaining
    explained, made = background.result()
    return finish_metric(scored, explained, config), made


class _Waiting:
    """The progress line while this process waits for metrics explained in
    forked children: each one's steps, as the child counts them."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.line: Progress | None = None

    @property
    def interval(self) -> float | None:
        """How long to wait before drawing again (None: there is no line)."""
        return None if self.line is None else self.line.interval

    def show(self, explaining: Iterable[_Explaining]) -> None:
        if self.stream is None:
            return
        for scored, background, steps in explaining:
            name = f"explaining {scored.metric}"
            if not background.forked:
                continue
            if self.line is None:
                self.line = Progress("audit", self.stream)
            if name not in self.line.phases:
                self.line.start(name, steps.total, steps.done, unit="step")
            behind = steps.done - self.line.phases[name].done
            if behind > 0:
                self.line.advance(name, behind)

    def end(self) -> None:
        """The line ended, so that what comes next starts a line of its own."""
        if self.line is not None:
            self.line.finish()
            self.line = None

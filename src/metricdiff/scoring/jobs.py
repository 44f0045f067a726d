"""What ``run_jobs`` (``execution.py``) is given and gives back: a ``Job`` (one
implementation, one metric, one profile, many cases) and each case's
``CaseResult`` with its status; and the ``Executor`` interface another place to
run jobs implements (``executors.RayExecutor``).

The machinery that runs them (``execution.py``, ``chunks.py``, ``pool.py``,
``worker.py``) builds on these types, so they live apart from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import attrs

from metricdiff.cases.case import Sample
from metricdiff.errors import ImplementationFailed
from metricdiff.profiles.metrics import Options, Result
from metricdiff.scoring.validate import MAX_ERROR

#: Case statuses.
OK, CRASH, TIMEOUT, INVALID = "ok", "crash", "timeout", "invalid-output"
STATUSES = (OK, CRASH, TIMEOUT, INVALID)

#: Seconds allowed for building an adapter in a worker (booting the worker,
#: importing the library) when the per-call timeout is shorter.
SETUP_TIMEOUT = 60.0

def _freeze_cases(cases: Iterable[tuple[Iterable[str], Iterable[Iterable[str | None]]]]
                  ) -> tuple[Sample, ...]:
    """The cases as tuples; a tuple of frozen cases is kept as it is, so that the
    audit's jobs share one copy of a large corpus instead of one each."""
    if isinstance(cases, tuple) and all(map(_frozen, cases)):
        return cases
    return tuple(
        (tuple(hyps), tuple(tuple(seg) for seg in refs)) for hyps, refs in cases
    )


def _frozen(case: object) -> bool:
    return (type(case) is tuple and len(case) == 2 and type(case[0]) is tuple
            and type(case[1]) is tuple and all(type(seg) is tuple for seg in case[1]))


@attrs.frozen
class Job:
    """Cases to score with one implementation, one metric and one profile.

    ``label`` names the profile for the report ("declared", "stemmed", ...);
    ``adapter_path`` ("package.module:Class") replaces the registry lookup of
    ``impl`` and must be importable in a fresh interpreter.
    """

    impl: str
    metric: str
    options: Options
    cases: tuple[Sample, ...] = attrs.field(converter=_freeze_cases)
    label: str = "declared"
    adapter_path: str | None = None


@attrs.frozen
class Raised:
    """The exception an implementation raised on a case, as the parent process
    can hold it whatever the exception's class: its type's name, its message
    whole, and whether it says the implementation cannot honour the case's
    configuration (``UnsupportedOption``, ``AdapterUnavailable``: the case does
    not apply to it, nothing went wrong)."""

    type: str
    message: str
    unsupported: bool = False


@attrs.frozen
class CaseResult:
    """What one case gave: ``status`` is ``ok`` (``result`` is set and valid),
    ``crash`` (the implementation raised, or its process died), ``timeout`` or
    ``invalid-output`` (it returned something ``validate`` rejects).  ``result``
    is set only when the status is ``ok``; ``error`` says what went wrong, in one
    line of at most ``MAX_ERROR`` characters ("" when ok).  ``raised`` is set when
    the implementation raised an exception on this very case (a crash that is
    an answer: it refuses the input), not when its process died, hung, or
    raised out of a whole chunk."""

    status: str = attrs.field(validator=attrs.validators.in_(STATUSES))
    result: Result | None = None
    error: str = ""
    raised: Raised | None = None

    @property
    def ok(self) -> bool:
        return self.status == OK

    def result_or_raise(self, what: str) -> Result:
        """The result, or ``ImplementationFailed`` naming ``what`` failed and why
        (it raised, its process died, it hung, or what it returned is invalid)."""
        if self.result is None:
            raise ImplementationFailed(f"{what}: {self.reason}")
        return self.result

    @property
    def reason(self) -> str:
        """What went wrong, on one line, as every command words it: the exception
        (``ValueError: bad input``), or the status and what happened
        (``timeout: no result within 5 s``, ``crash: process killed by signal
        SIGSEGV``, ``invalid-output: recall is NaN``); "" when ok."""
        if self.ok:
            return ""
        return self.error if self.raised is not None else f"{self.status}: {self.error}"


#: ``run_jobs``'s ``on_result(job_index, case_index, result)``.
OnResult = Callable[[int, int, CaseResult], None]


class Executor(Protocol):
    """Somewhere other than this machine's worker processes to run jobs
    (``executors.RayExecutor``).  ``run`` keeps ``run_jobs``'s contract, which
    has already checked the arguments: one ``CaseResult`` per case in input
    order, ``on_result`` in this process once per case, misbehaviour recorded,
    never raised."""

    def run(
        self,
        jobs: Sequence[Job],
        workers: int,
        timeout: float | None,
        on_result: OnResult | None,
    ) -> list[list[CaseResult]]: ...


__all__ = [
    "CRASH",
    "INVALID",
    "MAX_ERROR",
    "OK",
    "SETUP_TIMEOUT",
    "STATUSES",
    "TIMEOUT",
    "CaseResult",
    "Executor",
    "Job",
    "OnResult",
    "Raised",
]

"""A job's per-case outcomes, stored compactly: what a large audit holds.

An audit of a 100,000-line corpus scores millions of job-cases, and a
``CaseResult`` with its ``BleuResult`` is about a dozen Python objects (0.6-1.2
KB).  ``Outcomes`` keeps an ordinary outcome -- ``ok``, a result of the job's
shape that reports every statistic -- as its numbers in one array of doubles
(8 bytes each) and a bit per number saying it was an ``int``, and builds the
``CaseResult`` again when it is read: equal to the one stored, its ints still
ints and its floats the same floats, so ``results.jsonl`` is written the same
bytes.  Anything else (a failure, a statistic not reported, a NaN, an int too
large for a double, a result of another shape) is kept as the object itself.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator, Sequence
from typing import Any, overload

from metricdiff.scoring.jobs import OK, CaseResult
from metricdiff.statistics import BleuResult, RougeResult

#: An int a double holds exactly (and so gives back as the same int).
_EXACT_INT = 2**53
#: Slot states: no outcome yet, an outcome in the arrays, an outcome kept whole.
_EMPTY, _PACKED, _WHOLE = 0, 1, 2


def _bleu_numbers(result: BleuResult) -> tuple[Any, ...]:
    return (result.score, *result.precisions, result.bp, result.sys_len, result.ref_len,
            *result.counts, *result.totals)


def _rouge_numbers(result: RougeResult) -> tuple[Any, ...]:
    return (result.recall, result.precision, result.fmeasure, result.matches,
            result.hyp_total, result.ref_total)


def _shape(result: object) -> tuple[type, int] | None:
    """The result's type and its number of n-gram orders (0 for ROUGE)."""
    if type(result) is BleuResult:
        return BleuResult, len(result.precisions)
    if type(result) is RougeResult:
        return RougeResult, 0
    return None


def _packable(outcome: CaseResult) -> tuple[Any, ...] | None:
    """The numbers of an ordinary outcome, or None if it must be kept whole."""
    if outcome.status != OK or outcome.error or outcome.raised is not None:
        return None
    result = outcome.result
    if type(result) is BleuResult:
        if not len(result.precisions) == len(result.counts) == len(result.totals):
            return None
        numbers = _bleu_numbers(result)
    elif type(result) is RougeResult:
        numbers = _rouge_numbers(result)
    else:
        return None
    if result.unknown or result.resolution:
        return None
    for number in numbers:
        if type(number) is int:
            if not -_EXACT_INT <= number <= _EXACT_INT:
                return None
        elif type(number) is not float or math.isnan(number):
            return None
    return numbers


class Outcomes(Sequence[CaseResult]):
    """``size`` outcomes, each set once (``run_jobs`` sets them in the order its
    chunks finish; ``get`` is None until then).  The first packable outcome
    fixes the shape that the others must have to be packed."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._state = bytearray(size)
        self._shape: tuple[type, int] | None = None
        self._width = 0
        self._head = 0  # where the headline is among the numbers
        self._values = array("d")
        self._ints = array("Q")
        self._whole: dict[int, CaseResult] = {}
        # Equal failures kept once (a job that cannot run fails every case alike).
        self._failures: dict[CaseResult, CaseResult] = {}

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> CaseResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[CaseResult]: ...

    def __getitem__(self, index: int | slice) -> CaseResult | list[CaseResult]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        outcome = self.get(index)
        if outcome is None:
            raise LookupError(f"case {index} has no outcome yet")
        return outcome

    def __iter__(self) -> Iterator[CaseResult]:
        return (self[i] for i in range(self._size))

    def get(self, index: int) -> CaseResult | None:
        """The outcome of case ``index``, or None if it has none yet."""
        index = range(self._size)[index]
        state = self._state[index]
        if state == _PACKED:
            return self._unpack(index)
        return self._whole[index] if state == _WHOLE else None

    def set(self, index: int, outcome: CaseResult) -> None:
        index = range(self._size)[index]
        self._whole.pop(index, None)
        numbers = _packable(outcome)
        if numbers is not None and self._fits(outcome.result, len(numbers)):
            start = index * self._width
            self._values[start:start + self._width] = array("d", numbers)
            self._ints[index] = sum(1 << i for i, n in enumerate(numbers) if type(n) is int)
            self._state[index] = _PACKED
        else:
            if outcome.status != OK:
                outcome = self._failures.setdefault(outcome, outcome)
            self._whole[index] = outcome
            self._state[index] = _WHOLE

    def complete(self) -> bool:
        """Whether every case has its outcome."""
        return _EMPTY not in self._state

    def headline(self, index: int) -> float | None:
        """``self[index].result.headline`` (None without a result), read
        without building the outcome: what comparing two participants needs
        for every case."""
        if self._state[index] == _PACKED:
            value = self._values[index * self._width + self._head]
            return int(value) if self._ints[index] >> self._head & 1 else value
        outcome = self[index]
        return None if outcome.result is None else outcome.result.headline

    def _fits(self, result: object, width: int) -> bool:
        """Whether ``result`` has the packed shape, fixing it on the first one."""
        shape = _shape(result)
        if self._shape is None:
            if shape is None or width > 64:  # one bit per number in ``_ints``
                return False
            self._shape, self._width = shape, width
            self._head = 0 if shape[0] is BleuResult else 2  # score; fmeasure
            self._values = array("d", bytes(8 * width * self._size))
            self._ints = array("Q", bytes(8 * self._size))
        return shape == self._shape

    def _unpack(self, index: int) -> CaseResult:
        start = index * self._width
        bits = self._ints[index]
        numbers: list[Any] = [int(value) if bits >> i & 1 else value
                   for i, value in enumerate(self._values[start:start + self._width])]
        assert self._shape is not None
        orders = self._shape[1]
        if self._shape[0] is RougeResult:
            return CaseResult(OK, RougeResult(*numbers))
        return CaseResult(OK, BleuResult(
            numbers[0], tuple(numbers[1:1 + orders]), numbers[1 + orders],
            numbers[2 + orders], numbers[3 + orders],
            tuple(numbers[4 + orders:4 + 2 * orders]), tuple(numbers[4 + 2 * orders:]),
        ))


def headlines(outcomes: Sequence[CaseResult]) -> list[float | None]:
    """Each outcome's headline (None without a result), read straight from the
    arrays when ``outcomes`` is an ``Outcomes``."""
    if isinstance(outcomes, Outcomes):
        return [outcomes.headline(i) for i in range(len(outcomes))]
    return [None if o.result is None else o.result.headline for o in outcomes]

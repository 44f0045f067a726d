"""Bootstrap resampling for corpus ROUGE (ROUGE-CORPUS-AVERAGE).

The draws are those of ``numpy.random.seed(seed)`` followed by
``numpy.random.choice(N, size=N)`` per resample, which is what rouge-score's
``BootstrapAggregator._bootstrap_resample`` draws from numpy's global generator.
They are reproduced here in pure Python: numpy's legacy seeding of MT19937 is
the reference ``init_genrand`` (which ``random.Random`` can be put into with
``setstate``), and its legacy ``randint`` takes 32-bit outputs masked to the
smallest covering power of two, rejecting those above N - 1.  So with the same
seed the reference resamples exactly the rows rouge-score resamples, for the
first score type that rouge-score aggregates.

``bootstrap-sacrebleu`` draws as sacrebleu's significance tests draw
(``significance.py``: ``numpy.random.default_rng(seed).choice(N, size=(samples,
N))``, PCG64) and sums the drawn rows as float32, as sacrebleu sums its
statistics; those draws come from numpy itself (``sacrebleu_draws``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

import numpy

_MT_WORDS = 624
_MT_MULTIPLIER = 1812433253
_WORD = 0xFFFFFFFF

#: Draws remembered (per number of rows, resamples and seed) up to this many
#: indices: the explainer scores one corpus under every profile it tries, and
#: every profile that resamples draws the same rows.  About 4 MB.
REMEMBERED_DRAWS = 1_000_000


def numpy_legacy_generator(seed: int) -> random.Random:
    """A ``random.Random`` whose 32-bit outputs are those of
    ``numpy.random.RandomState(seed)`` (MT19937 ``init_genrand``)."""
    if not 0 <= seed <= _WORD:
        raise ValueError(f"bootstrap seed must be between 0 and 2**32 - 1, got {seed}")
    state = [seed]
    for i in range(1, _MT_WORDS):
        previous = state[-1]
        state.append((_MT_MULTIPLIER * (previous ^ (previous >> 30)) + i) & _WORD)
    generator = random.Random()
    generator.setstate((3, (*state, _MT_WORDS), None))
    return generator


def resample_indices(generator: random.Random, size: int) -> list[int]:
    """``size`` indices drawn with replacement from range(size), as numpy's legacy
    ``choice(size, size=size)`` draws them (masked rejection sampling)."""
    if size <= 1:
        return [0] * size
    top = size - 1
    mask = (1 << top.bit_length()) - 1
    indices = []
    draw = generator.getrandbits
    for _ in range(size):
        value = draw(32) & mask
        while value > top:
            value = draw(32) & mask
        indices.append(value)
    return indices


def _sequential_mean(values: Sequence[float]) -> float:
    """The mean with left-to-right summation, as numpy's axis-0 reduction sums
    (and independent of Python's own ``sum`` rounding)."""
    total = 0.0
    for value in values:
        total += value
    return total / len(values)


def bootstrap_means(
    rows: Sequence[Sequence[float]], samples: int, seed: int
) -> list[list[float]]:
    """The column means of ``samples`` resamples of ``rows`` (ROUGE-CORPUS-AVERAGE):
    each resample draws len(rows) rows with replacement, the same rows for every
    column.

    One row is every resample's only draw, and ``resample_indices`` draws no
    random numbers for it: the resamples are that row, without drawing them."""
    return _drawn_means(rows, samples, seed)


def _drawn_means(rows: Sequence[Sequence[float]], samples: int, seed: int) -> list[list[float]]:
    return _means_matrix(_frozen(rows), "bootstrap-median", samples, seed).tolist()  # type: ignore[no-any-return]


def _frozen(rows: Sequence[Sequence[float]]) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(row) for row in rows)


def bootstrap_average(rows: Sequence[Sequence[float]], average: str, samples: int, seed: int
                      ) -> tuple[float, ...]:
    """Each column's corpus average under a bootstrap ``average`` (a value of the
    ``corpus_average`` axis) of ``samples`` resamples of ``rows`` (seeded with
    ``seed``): the mean of the resample means (``bootstrap-mean``; sacrebleu's
    scheme, ``bootstrap-sacrebleu``), their median (rouge-score's ``mid``,
    ``bootstrap-median``), or their mean summed in ascending order
    (ROUGE-1.5.5's "Average", ``bootstrap-rouge155``, whose draws take no seed)."""
    return _remembered_average(_frozen(rows), average, samples, seed)


# Remembered: the audit's explainer and ``rank``'s stability score one corpus
# under many profiles whose per-segment results are the same rows, and the draws
# depend only on the rows' number and the seed.
@lru_cache(maxsize=256)
def _remembered_average(rows: tuple[tuple[float, ...], ...], average: str, samples: int,
                        seed: int) -> tuple[float, ...]:
    if len(rows) == 1 and average != "bootstrap-sacrebleu":
        # every resample is the one row: its median is the row, its mean (in
        # any order) the row's value added ``samples`` times, divided back
        return tuple(value if average == "bootstrap-median"
                     else _array_mean(numpy.full(samples, value)) for value in rows[0])
    means = _means_matrix(rows, average, samples, seed)
    if average == "bootstrap-median":
        return tuple(median(column.tolist()) for column in means.T)
    if average == "bootstrap-rouge155":
        return tuple(_array_mean(numpy.sort(column)) for column in means.T)
    return tuple(_array_mean(column) for column in means.T)


def _array_mean(values: Any) -> float:
    """``_sequential_mean`` of a numpy vector: ``cumsum`` adds left to right."""
    return float(numpy.cumsum(values)[-1] / len(values))


@lru_cache(maxsize=16)
def _means_matrix(rows: tuple[tuple[float, ...], ...], average: str, samples: int,
                  seed: int) -> Any:
    """The resamples' column means, a read-only ``samples`` x columns array, drawn
    as ``average`` draws them."""
    if average == "bootstrap-sacrebleu":
        means = numpy.asarray(sacrebleu_bootstrap_means(rows, samples, seed))
    elif len(rows) == 1:  # every draw is the one row, which is its own mean
        once = [_sequential_mean([value]) for value in rows[0]]
        means = numpy.tile(numpy.array(once, dtype=numpy.float64), (samples, 1))
    elif average == "bootstrap-rouge155":
        means = _column_means(rows, _rouge155_draws(len(rows), samples))
    else:
        means = _column_means(rows, _numpy_draws(len(rows), samples, seed))
    means.setflags(write=False)
    return means


def _numpy_draws(size: int, samples: int, seed: int) -> Any:
    """The rows each of ``samples`` resamples draws (``resample_indices``), a
    ``samples`` x ``size`` array."""
    if size * samples <= REMEMBERED_DRAWS:
        return _remembered_numpy_draws(size, samples, seed)
    generator = numpy_legacy_generator(seed)
    return numpy.array([resample_indices(generator, size) for _ in range(samples)],
                       dtype=numpy.intp).reshape(samples, size)


@lru_cache(maxsize=4)
def _remembered_numpy_draws(size: int, samples: int, seed: int) -> Any:
    generator = numpy_legacy_generator(seed)
    return _frozen_matrix([resample_indices(generator, size) for _ in range(samples)])


def _frozen_matrix(draws: list[list[int]]) -> Any:
    """Remembered draws as one read-only array of indices (resamples x rows)."""
    matrix = numpy.array(draws, dtype=numpy.intp)
    matrix.flags.writeable = False
    return matrix


#: Drawn values gathered at once by ``_column_means`` (positions x resamples of
#: one column): about 8 MB.
GATHERED_AT_ONCE = 1_000_000


def _column_means(rows: Sequence[Sequence[float]], draws: Any) -> Any:
    """For each resample (the rows it draws), each column's mean, a resamples x
    columns array: the column's drawn values added left to right, starting from
    0.0 (``_sequential_mean``), and divided by their number.  The sums run for
    every resample at once, one draw position after the other: each step adds
    the value every resample drew at that position, so each resample's sum is
    the same float as the sum written out (never a pairwise sum, which numpy's
    ``sum`` may be); the values have 0.0 added first, as the sum written out
    adds them to 0.0 (which makes a -0.0 a 0.0).  A step is a vector addition,
    where adding along each resample's own draws took four times as long
    (ROUGE-1.5.5's 1,000 resamples of 500 segments: 19 ms against 5)."""
    values = numpy.asarray(rows, dtype=numpy.float64) + 0.0
    drawn = numpy.asarray(draws, dtype=numpy.intp)
    samples, size = drawn.shape
    by_position = drawn.T  # row i: the row that each resample draws i-th
    step = max(1, GATHERED_AT_ONCE // max(1, samples))
    means = numpy.empty((samples, values.shape[1]))
    for column in range(values.shape[1]):
        cells = values[:, column]
        total = numpy.zeros(samples)
        for start in range(0, size, step):
            for at_position in cells[by_position[start:start + step]]:
                total += at_position
        means[:, column] = total / size
    return means


def sacrebleu_draws(size: int, samples: int, seed: int) -> Any:
    """The rows each of ``samples`` resamples draws under sacrebleu's scheme: a
    ``samples`` x ``size`` array from ``numpy.random.default_rng(seed)``, as
    ``significance._bootstrap_resample`` and ``_paired_bs_test`` draw them."""
    generator = numpy.random.default_rng(seed)
    return generator.choice(size, size=(samples, size), replace=True)


def sacrebleu_bootstrap_means(rows: Sequence[Sequence[float]], samples: int, seed: int
                              ) -> list[list[float]]:
    """The column means of ``samples`` resamples drawn by ``sacrebleu_draws``
    (ROUGE-CORPUS-AVERAGE): each resample's rows summed as float32 (sacrebleu's
    ``stats_np[idxs]``, ``_s.sum(0)``), then divided by the number of rows."""
    matrix = numpy.asarray(rows, dtype=numpy.float32)
    draws = sacrebleu_draws(len(rows), samples, seed)
    sums = numpy.stack([matrix[drawn].sum(axis=0) for drawn in draws])
    return (sums.astype(numpy.float64) / len(rows)).tolist()  # type: ignore[no-any-return]


#: drand48's multiplier, increment and modulus (``perl_rand``).
_DRAND48 = (0x5DEECE66D, 0xB, (1 << 48) - 1)


def perl_rand(seed: int) -> Iterator[float]:
    """Perl's ``rand()`` after ``srand(seed)``: since Perl 5.20 its own drand48 on
    every platform, the 48-bit generator x' = (0x5DEECE66D x + 0xB) mod 2^48
    started at x = (seed << 16) + 0x330E, each number x' / 2^48.  The
    definition, one seed at a time; ``_perl_draws`` steps it for every seed at
    once."""
    multiplier, increment, mask = _DRAND48
    state = ((seed & _WORD) << 16) + 0x330E
    while True:
        state = (multiplier * state + increment) & mask
        yield state / (1 << 48)


def rouge155_bootstrap_means(rows: Sequence[Sequence[float]], samples: int) -> list[list[float]]:
    """ROUGE-1.5.5's resamples (ROUGE-CORPUS-AVERAGE; ``bootstrapResampling``,
    ROUGE-1.5.5.pl l. 693-760): resample i calls ``srand(i)`` and draws
    ``int(rand(N))`` N times; each gives the column means of the rows drawn
    (one row: int(rand(1)) is 0 on every draw, each resample is that row)."""
    return _drawn_rouge155_means(rows, samples)


def _drawn_rouge155_means(rows: Sequence[Sequence[float]], samples: int) -> list[list[float]]:
    return _means_matrix(_frozen(rows), "bootstrap-rouge155", samples, 0).tolist()  # type: ignore[no-any-return]


def _rouge155_draws(size: int, samples: int) -> Any:
    """The rows each resample draws, a ``samples`` x ``size`` array: ``srand(i)``,
    then ``int(rand(N))`` N times."""
    if size * samples <= REMEMBERED_DRAWS:
        return _remembered_rouge155_draws(size, samples)
    return _perl_draws(samples, size)


@lru_cache(maxsize=4)
def _remembered_rouge155_draws(size: int, samples: int) -> Any:
    draws = _perl_draws(samples, size)
    draws.flags.writeable = False
    return draws


def _perl_draws(samples: int, size: int) -> Any:
    """``int(rand(size))`` drawn ``size`` times after ``srand(i)``, for each
    resample i < ``samples``: ``perl_rand``'s generator stepped for every seed at
    once (a ``samples`` x ``size`` array).  In 64-bit unsigned arithmetic the
    product wraps modulo 2^64, a multiple of 2^48, so the masked state is
    drand48's; the state is below 2^53, so as a float it is exact, and the
    number and its product with ``size`` are the floats ``perl_rand`` gives."""
    multiplier, increment, mask = (numpy.uint64(value) for value in _DRAND48)
    state = (numpy.arange(samples, dtype=numpy.uint64) << numpy.uint64(16)) + numpy.uint64(
        0x330E)
    draws = numpy.empty((samples, size), dtype=numpy.intp)
    for position in range(size):
        state = (multiplier * state + increment) & mask
        draws[:, position] = state.astype(numpy.float64) / float(1 << 48) * size
    return draws


def sorted_mean(values: Sequence[float]) -> float:
    """The mean summed in ascending order, as ROUGE-1.5.5 sums its sorted
    resample means (l. 901-920)."""
    return _sequential_mean(sorted(values))


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (left-to-right summation)."""
    return _sequential_mean(values)


def median(values: Sequence[float]) -> float:
    """The 50th percentile with linear interpolation, computed as
    ``numpy.percentile(values, 50)`` computes it (for a weight t >= 0.5 numpy
    interpolates from the upper neighbour: b - (b - a)(1 - t))."""
    ordered = sorted(values)
    position = 0.5 * (len(ordered) - 1)
    low = int(position)
    weight = position - low
    if weight == 0:
        return ordered[low]
    a, b = ordered[low], ordered[low + 1]
    return b - (b - a) * (1 - weight)

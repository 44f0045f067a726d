"""Resampling as a convention: how bootstrap resamples and approximate
randomization trials are drawn, and what an interval and a p-value are made of.

A scheme is a bootstrap value of the ``corpus_average`` axis, with the
``bootstrap_seed`` and ``bootstrap_samples`` axes (docs/conventions.md): the
same words that say how a corpus average resamples say how ``rank`` resamples.

* ``bootstrap-sacrebleu`` -- sacrebleu 2.6's ``significance.py``: a new
  ``numpy.random.default_rng(seed)`` per system, so every system draws the same
  ``samples`` x N indices; the statistics cast to float32 before they are summed;
  the interval is the resamples' mean ± half the distance between the resamples
  at index n//40 and n - n//40 - 1 of their sorted scores (not a percentile
  interval).  Approximate randomization draws its ``trials`` x N swaps from
  ``default_rng(seed)`` first, then its bootstrap indices from the same generator,
  and works on the statistics as they are (integers for BLEU).
* ``bootstrap-median`` -- rouge-score's ``BootstrapAggregator``: numpy's legacy
  generator seeded with ``seed`` (the adapter's ``numpy.random.seed``), one
  ``choice(N, size=N)`` per resample; low, mid and high are the 2.5th, 50th and
  97.5th percentiles of the resample means (``mid`` is their median).
* ``bootstrap-mean`` -- the same draws, the mean in the middle.
* ``bootstrap-rouge155`` -- ROUGE-1.5.5.pl: resample i draws with Perl's
  drand48 after ``srand(i)``; the mean summed in sorted order, the interval read
  from the sorted resamples with the script's interpolation (l. 929-960).

rouge-score and the Perl script give intervals only.  The paired tests are
sacrebleu's for every scheme: the paired bootstrap's p-value is
(c + 1) / (n + 1), c the resamples whose mean-centred |Δ| exceeds the observed
|Δ|, on the scheme's draws; approximate randomization swaps each segment's two
systems with probability 1/2 (``default_rng(seed)``) and counts the trials whose
|Δ| exceeds the observed one, the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import attrs
import numpy

from metricdiff.errors import ConventionError
from metricdiff.impls.reference import resample
from metricdiff.profiles.axes import AXES

#: Scores from summed statistics: a (k, d) array in, k scores (points) out.
ScoreRows = Callable[[Any], Any]

#: The schemes: the bootstrap values of the ``corpus_average`` axis.
SCHEMES: tuple[str, ...] = tuple(value for value in AXES["corpus_average"].values
                                 if value.startswith("bootstrap"))
#: sacrebleu's and rouge-score's defaults.
DEFAULT_TRIALS = 10_000
SACREBLEU_SEED = 12345
#: A difference is significant below this p-value (sacrebleu marks p < 0.05).
ALPHA = 0.05
#: Resamples summed at once: a block of them is (block, N, d) numbers.
BLOCK = 200


def _scheme(value: str) -> str:
    if value not in SCHEMES:
        raise ConventionError(f"unknown resampling scheme {value!r} (known: {', '.join(SCHEMES)})")
    return value


@attrs.frozen
class Resampling:
    """A resampling convention: ``scheme`` (a bootstrap value of
    ``corpus_average``), ``seed`` (``bootstrap_seed``), ``samples``
    (``bootstrap_samples``) and the approximate randomization's ``trials``."""

    scheme: str = attrs.field(converter=_scheme)
    seed: int = 0
    samples: int = 1000
    trials: int = DEFAULT_TRIALS

    @classmethod
    def parse(cls, scheme: str, seed: str | int, samples: str | int,
              trials: int = DEFAULT_TRIALS) -> Resampling:
        """From the words users write, checked by the axes (a ConventionError
        naming the axis for a bad value)."""
        AXES["corpus_average"].parse(scheme)
        return cls(_scheme(scheme), int(AXES["bootstrap_seed"].parse(str(seed))),  # type: ignore[arg-type]
                   int(AXES["bootstrap_samples"].parse(str(samples))), trials)  # type: ignore[arg-type]

    def signature(self) -> str:
        """``avg:bootstrap-sacrebleu|seed:12345|samples:1000``: the axes' own keys."""
        return (f"{AXES['corpus_average'].short}:{self.scheme}|"
                f"{AXES['bootstrap_seed'].short}:{self.seed}|"
                f"{AXES['bootstrap_samples'].short}:{self.samples}")

    @property
    def float32(self) -> bool:
        """Whether resampled statistics are float32 (sacrebleu's)."""
        return self.scheme == "bootstrap-sacrebleu"


#: Each family's default: what its de facto tool does (sacrebleu for BLEU,
#: rouge-score for ROUGE, whose adapter seeds numpy with bootstrap_seed = 0).
DEFAULTS = {"bleu": Resampling("bootstrap-sacrebleu", SACREBLEU_SEED),
            "rouge": Resampling("bootstrap-median", 0)}


# ---------------------------------------------------------------- draws


@lru_cache(maxsize=8)
def draws(resampling: Resampling, size: int) -> Any:
    """The rows each resample draws, a ``samples`` x ``size`` array: the same for
    every system (the paired bootstrap needs that, and each scheme's generator
    is seeded afresh per system, as sacrebleu's and rouge-score's are)."""
    if resampling.scheme == "bootstrap-sacrebleu":
        return resample.sacrebleu_draws(size, resampling.samples, resampling.seed)
    if resampling.scheme == "bootstrap-rouge155":
        return numpy.array(resample._rouge155_draws(size, resampling.samples), dtype=numpy.intp)
    legacy = numpy.random.RandomState(resampling.seed)
    return numpy.stack([legacy.choice(size, size=size) for _ in range(resampling.samples)])


@lru_cache(maxsize=8)
def swaps(resampling: Resampling, size: int) -> Any:
    """Approximate randomization's trials: a ``trials`` x ``size`` boolean array,
    True where a segment's two systems trade places (sacrebleu's ``pos_sel``,
    drawn first from ``default_rng(seed)``)."""
    generator = numpy.random.default_rng(resampling.seed)
    return generator.integers(2, size=(resampling.trials, size), dtype=bool)


def resampled_sums(rows: Any, drawn: Any, float32: bool) -> Any:
    """Each resample's statistics: the drawn rows summed (as float32 when
    ``float32``, as sacrebleu sums them), a (samples, d) array."""
    matrix = numpy.asarray(rows, dtype=numpy.float32 if float32 else numpy.float64)
    blocks = [matrix[drawn[start:start + BLOCK]].sum(axis=1)
              for start in range(0, len(drawn), BLOCK)]
    return numpy.concatenate(blocks) if blocks else numpy.zeros((0, matrix.shape[1]))


def bootstrap_scores(rows: Any, score: ScoreRows, resampling: Resampling) -> Any:
    """Each resample's score (points), from the rows (one per segment) of one
    system: never the implementation run again, only ``score`` of the sums."""
    drawn = draws(resampling, len(rows))
    return numpy.asarray(score(resampled_sums(rows, drawn, resampling.float32)),
                         dtype=numpy.float64)


# ---------------------------------------------------------------- intervals


@attrs.frozen
class Interval:
    """A 95% interval: ``low`` and ``high``, and ``center``: the scheme's middle
    (sacrebleu's μ, rouge-score's mid, the Perl script's average)."""

    low: float
    center: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, float]:
        return {"low": self.low, "center": self.center, "high": self.high,
                "half_width": self.half_width}


def interval(scores: Any, scheme: str) -> Interval:
    """The scheme's 95% interval of resampled ``scores``."""
    ordered = numpy.sort(numpy.asarray(scores, dtype=numpy.float64))
    count = len(ordered)
    if scheme == "bootstrap-sacrebleu":  # significance.estimate_ci
        lower = count // 40
        mean = float(ordered.mean())
        half = float(0.5 * (ordered[count - lower - 1] - ordered[lower]))
        return Interval(mean - half, mean, mean + half)
    if scheme == "bootstrap-rouge155":
        return _perl_interval(ordered.tolist())
    low, mid, high = numpy.percentile(ordered, [2.5, 50.0, 97.5])
    center = float(mid) if scheme == "bootstrap-median" else float(ordered.mean())
    return Interval(float(low), center, float(high))


def _perl_interval(ordered: list[float]) -> Interval:
    """ROUGE-1.5.5.pl l. 929-960 at 95%: indices from delta = n x 2.5%, the bounds
    interpolated between neighbours by the same ratio; the mean summed in
    ascending order (``resample.sorted_mean``)."""
    count = len(ordered)
    delta = count * 2.5 / 100.0
    upper, lower = int(count - delta - 1), int(delta)
    ratio = count - delta - 1 - upper

    def at(index: int) -> float:
        after = ordered[min(index + 1, count - 1)]
        return ordered[index] + (after - ordered[index]) * ratio

    return Interval(at(lower), resample.sorted_mean(ordered), at(upper))


# ---------------------------------------------------------------- paired tests


def bootstrap_p_value(system: Any, baseline: Any, observed: float) -> float:
    """sacrebleu's paired bootstrap p-value: the resampled |Δ| centred on their
    mean, c of them above the observed |Δ|, p = (c + 1) / (n + 1)."""
    differences = numpy.abs(numpy.asarray(system) - numpy.asarray(baseline))
    centred = differences - differences.mean()
    return _p_value(centred, observed)


def _p_value(statistics: Any, observed: float) -> float:
    count = int(numpy.sum(statistics > observed))
    return (count + 1) / (len(statistics) + 1)


def randomization_p_value(system_rows: Any, baseline_rows: Any, score: ScoreRows,
                          resampling: Resampling, observed: float) -> float:
    """Approximate randomization (sacrebleu's ``_paired_ar_test``): in each trial
    each segment's two rows trade places with probability 1/2; p counts the trials
    whose |Δ| exceeds the observed one, as ``bootstrap_p_value`` does."""
    system = numpy.asarray(system_rows, dtype=numpy.float64)
    baseline = numpy.asarray(baseline_rows, dtype=numpy.float64)
    chosen = swaps(resampling, len(system)).astype(numpy.float64)
    # pos @ baseline + neg @ system, as the sum of the system's rows plus the
    # swapped rows' difference (whole numbers stay exact in float64)
    moved = chosen @ (baseline - system)
    pseudo_a = system.sum(axis=0) + moved
    pseudo_b = baseline.sum(axis=0) - moved
    gaps = numpy.abs(numpy.asarray(score(pseudo_a)) - numpy.asarray(score(pseudo_b)))
    return _p_value(gaps, observed)


def significant(p_value: float | None) -> bool:
    return p_value is not None and not math.isnan(p_value) and p_value < ALPHA


__all__ = [
    "ALPHA",
    "DEFAULTS",
    "SCHEMES",
    "Interval",
    "Resampling",
    "ScoreRows",
    "bootstrap_p_value",
    "bootstrap_scores",
    "draws",
    "interval",
    "randomization_p_value",
    "resampled_sums",
    "significant",
    "swaps",
]

"""What a resample is made of: one row per segment, taken from the results an
implementation gave for each segment, and the function that makes a corpus score
(in points) of any sum of rows under the implementation's profile.

BLEU's rows are its sufficient statistics (c, r, then the clipped matches and the
totals of each order): a resample's corpus BLEU comes from their sum, as
corpus BLEU does (BLEU-STATS).  ROUGE's rows are what its ``corpus_average``
averages: the reported number for ``macro``, R and P for ``f-of-means``, the
counts for ``micro``.  An implementation that reports only a score (a
``python:``/``cmd:`` program printing a number) gives rows of its segment
scores, and its resamples are their mean: for ROUGE's macro average that is
exact, for BLEU it is not, since corpus BLEU is not the mean of sentence BLEUs
(``Rows.from_scores`` says so, and ``rank`` prints it).

The BLEU score of summed statistics is computed here for many sums at once (a
fast path of ``reference.bleu.bleu_from_statistics``, held equal to it by a
test), in sacrebleu's order of operations: percentages 100·m/t in the
statistics' own precision, then BP · exp(Σ w log p).  Under sacrebleu's scheme
the statistics are float32, as its ``significance.py`` makes them, and the
numbers are sacrebleu's own to the last bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy

from metricdiff.impls.reference.bleu import bleu_from_statistics
from metricdiff.impls.reference.bleu_smoothing import smooth_value
from metricdiff.impls.reference.rouge import f_score, headline, result_from_counts
from metricdiff.impls.reference.rouge_counts import PairCounts
from metricdiff.profiles.bleu import BleuOptions
from metricdiff.profiles.metrics import Options, Result
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import BleuResult, BleuStats, RougeResult

#: BLEU smoothing methods computed row by row by the reference itself.
_SCALAR_SMOOTHING = frozenset({"cc4", "cc5", "cc6", "cc7"})
#: pycocoevalcap's constants (``bleu_smoothing``).
_COCO_TINY, _COCO_SMALL = 1e-15, 1e-9
#: The statistics a BLEU row needs.
_BLEU_FIELDS = frozenset({"counts", "totals", "sys_len", "ref_len"})


@attrs.frozen
class Rows:
    """One row per segment (``matrix``, n x d) and ``score``: a (k, d) array of
    summed rows to k corpus scores in points (BLEU 0-100, ROUGE x 100).
    ``from_scores``: the rows are segment scores, not statistics (see the
    module's docstring); ``exact``: a resample's score is what the implementation
    would give for that corpus (False for BLEU from scores)."""

    matrix: Any
    score: Callable[[Any], Any]
    from_scores: bool = False
    exact: bool = True
    #: The statistics were recovered from precisions and lengths (``_recovered``).
    recovered: bool = False

    @property
    def corpus(self) -> float:
        """The score of the whole corpus: the sum of every row."""
        return float(self.score(self.matrix.sum(axis=0, keepdims=True))[0])


def rows_of(results: Sequence[Result], options: Options) -> Rows:
    """The rows of one system's per-segment ``results`` under ``options``."""
    if isinstance(options, BleuOptions):
        return _bleu_rows(results, options)
    assert isinstance(options, RougeOptions)
    return _rouge_rows(results, options)


# ---------------------------------------------------------------- BLEU


def _bleu_rows(results: Sequence[Result], options: BleuOptions) -> Rows:
    bleu = [r for r in results if isinstance(r, BleuResult)]
    size = len(bleu)
    recovered = options.level != "sentence-mean" and any(_BLEU_FIELDS & r.unknown for r in bleu)
    if recovered:
        bleu = [_recovered(r, options) for r in bleu]
    reported = all(not (_BLEU_FIELDS & r.unknown) for r in bleu)
    if options.level == "sentence-mean" or not reported:
        matrix = numpy.array([[r.score] for r in bleu], dtype=numpy.float64).reshape(size, 1)
        return Rows(matrix, _mean_of(size), from_scores=True,
                    exact=options.level == "sentence-mean")
    orders = options.max_order
    matrix = numpy.array([[r.sys_len, r.ref_len, *r.counts[:orders], *r.totals[:orders]]
                          for r in bleu], dtype=numpy.float64).reshape(size, 2 + 2 * orders)
    return Rows(matrix, lambda sums: bleu_scores(sums, options), recovered=recovered)


def _recovered(result: BleuResult, options: BleuOptions) -> BleuResult:
    """A segment's counts and totals recovered from its precisions and length,
    where it reports those but not these (multi-bleu.perl and bleuscore print
    precisions): t_n = max(c - n + 1, 0), m_n = p_n t_n / 100 rounded.  Only
    without smoothing (a smoothed precision hides its count), and only when the
    recovered statistics give the score reported (within its printed rounding);
    otherwise the result is returned as it was."""
    if result.unknown & {"precisions", "sys_len", "ref_len"} or options.smoothing != "none" \
            or options.empty_order not in ("zero", "effective-order"):
        return result
    orders = options.max_order
    if len(result.precisions) < orders:
        return result
    totals = tuple(max(result.sys_len - n, 0) for n in range(orders))
    counts = tuple(round(p * t / 100.0) for p, t in zip(result.precisions, totals, strict=False))
    stats = BleuStats(counts, totals, int(result.sys_len), float(result.ref_len))
    try:
        score = bleu_from_statistics(stats, options).score
    except Exception:  # an empty segment under empty_policy=error
        return result
    if abs(score - result.score) > 0.01 + 1e-6 * abs(result.score):
        return result
    return attrs.evolve(result, counts=counts, totals=totals,
                        unknown=result.unknown - {"counts", "totals"})


def _mean_of(size: int) -> Callable[[Any], Any]:
    return lambda sums: numpy.asarray(sums, dtype=numpy.float64)[:, 0] / max(size, 1)


def bleu_scores(sums: Any, options: BleuOptions) -> Any:
    """Corpus BLEU (0-100) of each row of ``sums`` (c, r, m_1..m_N, t_1..t_N),
    in the rows' precision (float32 or float64): ``bleu_from_statistics`` for many
    rows at once."""
    sums = numpy.asarray(sums)
    if options.smoothing in _SCALAR_SMOOTHING or options.empty_policy == "error":
        return numpy.array([_scalar_bleu(row, options) for row in sums.astype(numpy.float64)])
    dtype = sums.dtype.type
    orders = options.max_order
    hyp_len, ref_len = (sums[:, i].astype(numpy.float64) for i in (0, 1))
    matches = sums[:, 2:2 + orders].copy()
    totals = sums[:, 2 + orders:2 + 2 * orders].copy()
    if options.smoothing == "epsilon":
        hyp_len, ref_len = hyp_len + _COCO_TINY, ref_len + _COCO_SMALL
        matches, totals = matches + dtype(_COCO_TINY), totals + dtype(_COCO_SMALL)
    bp = _brevity_penalty(hyp_len, ref_len, options.empty_bp)
    no_match = sums[:, 2] == 0
    if options.smoothing == "add-k":
        first = 0 if options.smooth_orders == "all" else 1
        k = dtype(smooth_value(options))
        matches[:, first:] += k
        totals[:, first:] += k
    percents, dropped = _percent_precisions(matches, totals, hyp_len, options, dtype)
    scores = bp * _geometric_means(percents, dropped, options)
    empty = (hyp_len == 0) & (ref_len == 0)
    if options.all_zero == "zero":
        scores = numpy.where(no_match, 0.0, scores)
    return numpy.where(empty, 100.0 if options.empty_policy == "one" else 0.0, scores)


def _scalar_bleu(row: Any, options: BleuOptions) -> float:
    orders = options.max_order
    stats = BleuStats(tuple(row[2:2 + orders]), tuple(row[2 + orders:2 + 2 * orders]),
                      int(row[0]), float(row[1]))
    try:
        return bleu_from_statistics(stats, options).score
    except Exception:  # an empty resample under empty_policy=error: no score
        return math.nan


def _brevity_penalty(c: Any, r: Any, empty_bp: str) -> Any:
    """``bleu.brevity_penalty`` of each (c, r): math.exp, as the reference and
    sacrebleu take it (numpy's may differ in the last bit)."""
    short = c < r
    ratio = numpy.divide(r, c, out=numpy.zeros_like(r), where=c > 0)
    bp = numpy.ones_like(c)
    bp[short] = [math.exp(1.0 - value) for value in ratio[short].tolist()]
    zero = (c == 0) & ((r > 0) | (empty_bp == "zero"))
    bp[zero] = 0.0
    return bp


def _percent_precisions(matches: Any, totals: Any, hyp_len: Any, options: BleuOptions,
                        dtype: Any) -> tuple[Any, Any]:
    """100·p_n per row and order (BLEU-PN, the zero-match and empty-order rules,
    as ``bleu_smoothing.raw_precisions``), and where an order is dropped."""
    hundred = dtype(100.0)
    safe = numpy.where(totals > 0, totals, dtype(1.0))
    percents = hundred * matches / safe
    zero_orders = numpy.cumsum((matches == 0) & (totals > 0), axis=1)
    method = options.smoothing
    if method == "floor":
        rule = dtype(100.0 * smooth_value(options)) / safe
    elif method == "exp":
        rule = hundred / (numpy.power(dtype(2.0), zero_orders).astype(dtype) * safe)
    elif method == "float-min":
        rule = numpy.full_like(percents, 100.0 * numpy.finfo(numpy.float64).tiny)
    elif method == "skip":
        rule = numpy.full_like(percents, 100.0)
    else:
        rule = numpy.zeros_like(percents)
    percents = numpy.where(matches == 0, rule, percents)
    empty_order = {"ignore": 100.0, "effective-order": math.nan}.get(options.empty_order, 0.0)
    percents = numpy.where(totals == 0, dtype(empty_order), percents)
    return percents, totals == 0 if options.empty_order == "effective-order" else None


def _geometric_means(percents: Any, dropped: Any, options: BleuOptions) -> Any:
    """exp(Σ w_n log p_n) per row, the weights of dropped orders given to the rest
    (``bleu.geometric_mean``); uniform weights as sacrebleu sums them: Σ log p / N."""
    rows, orders = percents.shape
    weights = numpy.array(options.order_weights(), dtype=numpy.float64)
    kept = numpy.ones((rows, orders), dtype=bool) if dropped is None else ~dropped
    flat = percents.astype(numpy.float64)
    logs = numpy.zeros_like(flat)
    positive = kept & (flat > 0)
    logs[positive] = [math.log(value) for value in flat[positive].tolist()]
    uniform = options.weights is None
    total = numpy.zeros(rows)
    if uniform:
        for n in range(orders):
            total = total + numpy.where(kept[:, n], logs[:, n], 0.0)
        count = kept.sum(axis=1)
        mean = numpy.divide(total, count, out=numpy.zeros(rows), where=count > 0)
    else:
        share = (kept * weights).sum(axis=1)
        scale = numpy.divide(weights.sum(), share, out=numpy.zeros(rows), where=share > 0)
        for n in range(orders):
            total = total + numpy.where(kept[:, n], weights[n] * scale * logs[:, n], 0.0)
        mean = total
    zero = (kept & (weights > 0) & (flat <= 0)).any(axis=1) | ~kept.any(axis=1)
    means = numpy.array([math.exp(value) for value in mean.tolist()])
    return numpy.where(zero, 0.0, means)


# ---------------------------------------------------------------- ROUGE


def _rouge_rows(results: Sequence[Result], options: RougeOptions) -> Rows:
    rouge = [r for r in results if isinstance(r, RougeResult)]
    size = len(rouge)
    average = options.corpus_average
    counted = not ({"matches", "hyp_total", "ref_total"} & set().union(*(r.unknown for r in rouge)))
    if average == "micro" and counted:
        matrix = numpy.array([[r.matches, r.hyp_total, r.ref_total] for r in rouge],
                             dtype=numpy.float64).reshape(size, 3)
        return Rows(matrix, lambda sums: _pooled(sums, options))
    if average == "f-of-means":
        matrix = numpy.array([[r.recall, r.precision] for r in rouge],
                             dtype=numpy.float64).reshape(size, 2)
        return Rows(matrix, lambda sums: _f_of_means(sums, size, options))
    # macro, and the bootstrap averages, whose resamples are of the mean they estimate
    matrix = numpy.array([[headline(r, options)] for r in rouge],
                         dtype=numpy.float64).reshape(size, 1)
    mean = _mean_of(size)
    return Rows(matrix, lambda sums: 100.0 * mean(sums), from_scores=average == "micro")


def _pooled(sums: Any, options: RougeOptions) -> Any:
    """``micro``: R, P and F of the pooled counts (``result_from_counts``)."""
    scores = []
    for matches, hyp_total, ref_total in numpy.asarray(sums, dtype=numpy.float64).tolist():
        try:
            result = result_from_counts(PairCounts(matches, hyp_total, ref_total), options)
            scores.append(100.0 * headline(result, options))
        except Exception:  # every pair empty under empty_policy=error
            scores.append(math.nan)
    return numpy.array(scores)


def _f_of_means(sums: Any, size: int, options: RougeOptions) -> Any:
    """``f-of-means``: the mean R and mean P, F of those, ``report`` of the three."""
    scores = []
    for recall, precision in (numpy.asarray(sums, dtype=numpy.float64) / max(size, 1)).tolist():
        fmeasure = f_score(precision, recall, options.f_measure)
        scores.append(100.0 * headline(RougeResult(recall, precision, fmeasure), options))
    return numpy.array(scores)


__all__ = ["Rows", "bleu_scores", "rows_of"]

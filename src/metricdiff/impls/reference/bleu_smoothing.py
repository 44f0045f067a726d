"""The modified precisions p_n with every smoothing method (spec/bleu.md,
clauses BLEU-PN, BLEU-EMPTY-ORDER and BLEU-SMOOTH-*).

Each method is written as Chen & Cherry (2014) define it; ``epsilon`` and
``float-min`` are the constants pycocoevalcap and NLTK use, kept here so that those
libraries' behaviour is a configuration of the reference rather than a special case.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

from metricdiff.profiles import BleuOptions

#: Precision of an order that ``empty_order=effective-order`` drops.
DROPPED = None
Precisions = list[float | None]

# pycocoevalcap's BleuScorer adds these to every match count and total.
_COCO_TINY = 1e-15
_COCO_SMALL = 1e-9

_DEFAULT_SMOOTH_VALUE = {"floor": 0.1, "add-k": 1.0, "cc4": 5.0, "cc7": 5.0, "cc6": 5.0}


def smooth_value(options: BleuOptions) -> float:
    """The method's constant: ``smooth_value`` if given, else the method's default."""
    if options.smooth_value is not None:
        return options.smooth_value
    return _DEFAULT_SMOOTH_VALUE.get(options.smoothing, 0.0)


def transformed_counts(
    matches: list[float], totals: list[float], options: BleuOptions
) -> tuple[list[float], list[float]]:
    """Smoothing that changes the counts themselves (BLEU-SMOOTH-ADD-K, -EPSILON).

    add-k adds k to m_n and t_n (Lin & Och 2004; Chen & Cherry 2), for n > 1 or for
    all n as ``smooth_orders`` says; epsilon adds pycocoevalcap's tiny constants.
    """
    matches, totals = list(matches), list(totals)
    if options.smoothing == "add-k":
        first = 0 if options.smooth_orders == "all" else 1
        k = smooth_value(options)
        for n in range(first, len(matches)):
            matches[n] += k
            totals[n] += k
    elif options.smoothing == "epsilon":
        matches = [m + _COCO_TINY for m in matches]
        totals = [t + _COCO_SMALL for t in totals]
    return matches, totals


def smoothed_lengths(c: int, r: float, options: BleuOptions) -> tuple[float, float]:
    """The lengths c and r the brevity penalty compares (BLEU-BP,
    BLEU-SMOOTH-EPSILON): epsilon adds its constants to them as to every match
    count and total, so that no pair is ever empty; every other method leaves them."""
    if options.smoothing == "epsilon":
        return c + _COCO_TINY, r + _COCO_SMALL
    return float(c), r


def _zero_match_rule(options: BleuOptions, hyp_len: int) -> Callable[[int, float], float]:
    """p_n for an order with no matches, given how many zero orders came before
    (``k`` counts this one too) and the total t_n (BLEU-SMOOTH-FLOOR, -EXP, -CC4,
    -FLOAT-MIN, -SKIP)."""
    method = options.smoothing
    if method == "floor":
        epsilon = smooth_value(options)
        return lambda _k, total: epsilon / total
    if method == "exp":
        return lambda k, total: 1.0 / (2**k * total)
    if method in ("cc4", "cc7"):
        factor = smooth_value(options) / math.log(hyp_len) if hyp_len > 1 else math.inf
        return lambda k, total: 1.0 / (factor**k) / total
    if method == "float-min":
        return lambda _k, _total: sys.float_info.min
    if method == "skip":  # BLEU-SMOOTH-SKIP: log 1 = 0, the order adds nothing
        return lambda _k, _total: 1.0
    return lambda _k, _total: 0.0


def raw_precisions(
    matches: list[float], totals: list[float], options: BleuOptions, hyp_len: int
) -> Precisions:
    """p_n = m_n / t_n, with the empty-order and zero-match rules (BLEU-PN)."""
    zero_match = _zero_match_rule(options, hyp_len)
    precisions: Precisions = []
    zero_orders = 0
    for m, t in zip(matches, totals, strict=True):
        if t == 0:
            precisions.append(_empty_order_precision(options))
        elif m == 0:
            zero_orders += 1
            precisions.append(zero_match(zero_orders, t))
        else:
            precisions.append(m / t)
    return precisions


def _empty_order_precision(options: BleuOptions) -> float | None:
    """An order without any n-gram (BLEU-EMPTY-ORDER): ``ignore`` makes its log
    term 0, ``effective-order`` drops it, anything else makes it 0."""
    if options.empty_order == "ignore":
        return 1.0
    if options.empty_order == "effective-order":
        return DROPPED
    return 0.0


def neighbour_mean(
    precisions: Precisions, totals: list[float], next_matches: float
) -> Precisions:
    """Chen & Cherry smoothing 5 (BLEU-SMOOTH-CC5), on matched counts:
    m'_0 = m_1 + 1 and m'_n = (m'_{n-1} + m_n + m_{n+1}) / 3, then p_n = m'_n / t_n.

    ``precisions`` may already be smoothed (smoothing 7 runs smoothing 4 first), so
    the counts are recovered as m_n = p_n t_n; ``next_matches`` is m_{N+1}.  An order
    without n-grams keeps its empty-order precision.
    """
    counts = [
        p * t if p is not None and t else 0.0 for p, t in zip(precisions, totals, strict=True)
    ]
    counts.append(next_matches)
    previous = counts[0] + 1.0
    smoothed: Precisions = []
    for n, total in enumerate(totals):
        previous = (previous + counts[n] + counts[n + 1]) / 3.0
        smoothed.append(previous / total if total else precisions[n])
    return smoothed


def interpolated(
    precisions: Precisions, matches: list[float], totals: list[float], alpha: float
) -> Precisions:
    """Chen & Cherry smoothing 6 (BLEU-SMOOTH-CC6), for n >= 3:
    P_n = (m_n + alpha * P0_n) / (t_n + alpha), P0_n = P_{n-1}^2 / P_{n-2}."""
    smoothed = list(precisions)
    for n in range(2, len(smoothed)):
        before, last = smoothed[n - 2], smoothed[n - 1]
        if smoothed[n] is DROPPED or before is None or last is None:
            continue
        prior = 0.0 if before == 0 else last**2 / before
        smoothed[n] = (matches[n] + alpha * prior) / (totals[n] + alpha)
    return smoothed

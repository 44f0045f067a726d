"""Corpus averages, computed here from the per-segment scores (never the
script's bootstrap "Average")."""

from __future__ import annotations

import math
from collections.abc import Sequence

from metricdiff.impls.reference.rouge import f_score, perl_round
from metricdiff.profiles import RougeOptions
from metricdiff.statistics import RougeResult, summed_counts


def average(results: Sequence[RougeResult], options: RougeOptions) -> RougeResult:
    """The per-segment results combined by ``corpus_average``: ``macro`` (mean R,
    P and F, each rounded to 5 decimals as l. 830-835 would), ``f-of-means`` (F of
    the mean R and P), ``micro`` (R and P of the summed counts, then F from those
    rounded, as each segment's F is formed).  Counts are the sums."""
    if not results:
        return RougeResult(0.0, 0.0, 0.0)
    counts = summed_counts(results)
    matches, hyp_total, ref_total = counts
    if options.corpus_average == "micro":
        recall = perl_round(matches / ref_total if ref_total else 0.0)
        precision = perl_round(matches / hyp_total if hyp_total else 0.0)
        fmeasure = f_score(precision, recall, options.f_measure)
    else:
        size = len(results)
        recall = math.fsum(r.recall for r in results) / size
        precision = math.fsum(r.precision for r in results) / size
        if options.corpus_average == "f-of-means":
            fmeasure = f_score(precision, recall, options.f_measure)
        else:
            fmeasure = math.fsum(r.fmeasure for r in results) / size
    return RougeResult(perl_round(recall), perl_round(precision), perl_round(fmeasure), *counts)

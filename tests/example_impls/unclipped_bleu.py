"""A user's corpus BLEU that forgets to clip, written for
``tests/reports/test_conformance.py``: what a first attempt at BLEU often looks
like.  A hypothesis n-gram counts as a match every time it occurs, as long as it
occurs in some reference (Papineni et al. 2002 §2.1 clip it by its largest count
in a single reference: "the the the the" against "the cat" matches once, not
four times).

Everything else is the paper's profile: ``tokenize=none`` (``str.split()``), case
kept, no smoothing, the closest reference length (ties to the shorter), one
brevity penalty for the corpus, uniform weights, N = 4.  It reports the score,
the lengths and the (unclipped) counts and totals.
"""

from __future__ import annotations

import math
from collections import Counter

ORDER = 4


def _ngrams(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def bleu(hypotheses: list[str], references: list[list[str]], metric: str) -> dict[str, object]:
    counts, totals = [0] * ORDER, [0] * ORDER
    sys_len = ref_len = 0
    for hypothesis, refs in zip(hypotheses, references, strict=True):
        words = hypothesis.split()
        ref_words = [ref.split() for ref in refs]
        sys_len += len(words)
        ref_len += min((len(r) for r in ref_words), key=lambda r: (abs(r - len(words)), r))
        for n in range(1, ORDER + 1):
            mine = _ngrams(words, n)
            seen: set[tuple[str, ...]] = set()
            for ref in ref_words:
                seen |= set(_ngrams(ref, n))
            counts[n - 1] += sum(c for g, c in mine.items() if g in seen)  # no clipping
            totals[n - 1] += sum(mine.values())
    precisions = [m / t if t else 0.0 for m, t in zip(counts, totals, strict=True)]
    if sys_len == 0 or min(precisions) == 0:
        score = 0.0
    else:
        brevity = 1.0 if sys_len > ref_len else math.exp(1 - ref_len / sys_len)
        score = 100 * brevity * math.exp(sum(math.log(p) for p in precisions) / ORDER)
    return {"score": score, "sys_len": sys_len, "ref_len": ref_len, "counts": counts,
            "totals": totals}


bleu.metrics = ("bleu",)  # type: ignore[attr-defined]

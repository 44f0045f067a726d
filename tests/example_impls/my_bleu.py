"""A user's own corpus BLEU, written for ``tests/impls/user/test_user_impls.py`` without
looking at metricdiff's reference: what ``--impl python:...:bleu`` audits.

Its conventions, in metricdiff's vocabulary (what the audit must infer):

* ``lowercase=unicode``: ``str.lower()`` on the whole line, before splitting;
* ``tokenize=none``: ``str.split()``, nothing else;
* ``smoothing=add-k`` with k = 1 (``smooth_value`` default) on every order,
  unigrams included (``smooth_orders=all``);
* everything else as Papineni et al.: clipped counts, the closest reference
  length (ties to the shorter), pooled over the corpus, uniform weights, N = 4.

It reports the score, the lengths and the raw counts, but neither the
precisions nor the brevity penalty: those stay unknown to metricdiff.
"""

from __future__ import annotations

import math
from collections import Counter

ORDER = 4


def _ngrams(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _closest(length: int, ref_lengths: list[int]) -> int:
    return min(ref_lengths, key=lambda r: (abs(r - length), r))


def bleu(hypotheses: list[str], references: list[list[str]], metric: str) -> dict[str, object]:
    counts, totals = [0] * ORDER, [0] * ORDER
    sys_len = ref_len = 0
    for hypothesis, refs in zip(hypotheses, references, strict=True):
        words = hypothesis.lower().split()
        ref_words = [ref.lower().split() for ref in refs]
        sys_len += len(words)
        ref_len += _closest(len(words), [len(r) for r in ref_words]) if ref_words else 0
        for n in range(1, ORDER + 1):
            mine = _ngrams(words, n)
            best: Counter[tuple[str, ...]] = Counter()
            for ref in ref_words:
                best |= _ngrams(ref, n)
            counts[n - 1] += sum(min(c, best[g]) for g, c in mine.items())
            totals[n - 1] += sum(mine.values())
    if sys_len == 0:
        score = 0.0
    else:
        add_one = [(m + 1) / (t + 1) for m, t in zip(counts, totals, strict=True)]
        log_mean = sum(math.log(p) for p in add_one) / ORDER
        brevity = 1.0 if sys_len > ref_len else math.exp(1 - ref_len / sys_len)
        score = 100 * brevity * math.exp(log_mean)
    return {"score": score, "sys_len": sys_len, "ref_len": ref_len, "counts": counts,
            "totals": totals}


bleu.metrics = ("bleu",)  # type: ignore[attr-defined]

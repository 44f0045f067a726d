"""A user's own ROUGE-N, written for ``tests/impls/user/test_user_impls.py``: what
``--impl python:...:rouge_n`` audits.

Its conventions, in metricdiff's vocabulary (what the audit must infer):

* ``lowercase=unicode`` (``str.lower()``), ``tokenize=none`` (``str.split()``);
* clipped n-gram counts; R = matches / reference n-grams, P = matches /
  hypothesis n-grams, F = 2PR / (P + R) (``f_measure=alpha=0.5``);
* several references: the one with the best F (``multi_ref=best-f``);
* a corpus: the mean of the segments' R, P and F (``corpus_average=macro``).

It reports R, P and F, not the counts behind them (unknown to metricdiff).
"""

from __future__ import annotations

from collections import Counter


def _ngrams(text: str, n: int) -> Counter[tuple[str, ...]]:
    words = text.lower().split()
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def _pair(hypothesis: str, reference: str, n: int) -> tuple[float, float, float]:
    mine, theirs = _ngrams(hypothesis, n), _ngrams(reference, n)
    overlap = sum((mine & theirs).values())
    recall = overlap / sum(theirs.values()) if theirs else 0.0
    precision = overlap / sum(mine.values()) if mine else 0.0
    f = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return recall, precision, f


def rouge_n(hypotheses: list[str], references: list[list[str]], metric: str) -> dict[str, float]:
    n = int(metric.removeprefix("rouge-"))
    rows = []
    for hypothesis, refs in zip(hypotheses, references, strict=True):
        scores = [_pair(hypothesis, ref, n) for ref in refs] or [(0.0, 0.0, 0.0)]
        rows.append(max(scores, key=lambda row: row[2]))
    if not rows:
        return {"recall": 0.0, "precision": 0.0, "fmeasure": 0.0}
    recall, precision, f = (sum(column) / len(rows) for column in zip(*rows, strict=True))
    return {"recall": recall, "precision": precision, "fmeasure": f}


rouge_n.metrics = tuple(f"rouge-{n}" for n in range(1, 10))  # type: ignore[attr-defined]

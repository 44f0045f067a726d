"""pycocoevalcap's BLEU (``pycocoevalcap.bleu``: ``Bleu`` and its ``BleuScorer``).

pycocoevalcap splits each string on whitespace (``precook``: ``s.split()``).  In
the COCO caption pipeline its text first goes through ``PTBTokenizer``, which runs
Stanford CoreNLP in Java; that step is not driven here.  Instead every
``tokenize`` / ``lowercase`` / ``lowercase_stage`` value is applied by
``metricdiff.tokenizers.preprocess`` and the tokens are joined with single spaces,
which pycocoevalcap's split turns back into the same tokens.  The default is
``tokenize=none``: pycocoevalcap's own whitespace split.

Declared default profile, read from ``pycocoevalcap/bleu/bleu_scorer.py`` (1.2):

* ``smoothing=epsilon``: every precision is (matches + 1e-15) / (total + 1e-9),
  the ``tiny`` and ``small`` constants, on every order; there is no other method.
  Because of it no total is ever 0, so there is no empty-order rule at all
  (declared ``empty_order=zero``, the value that never acts here) and nothing
  returns early when nothing matches (``all_zero=smooth``).
* ``ref_length=closest`` (what ``Bleu.compute_score`` passes as ``option``; the
  ``BleuScorer`` default would be ``average`` for a single segment), ties to the
  shorter: ``min((abs(l - testlen), l) ...)``.  ``shortest`` and ``average`` are
  the scorer's other options.
* ``max_order=4`` (``Bleu(n=4)``), and 1 to 3 work too: BLEU-N is the uniform
  geometric mean of orders 1..n.  Orders above 4 are refused: ``cook_append``
  calls ``cook_refs``/``cook_test`` without ``n``, so they count up to 4-grams
  whatever ``n`` is, and ``compute_score`` then fails with ``IndexError``.  Only
  uniform weights exist.
* ``level=corpus`` (pooled ``correct``/``guess``), ``empty_reference=length-zero``
  (an empty string is a reference of length 0), ``empty_policy=zero``.

The brevity penalty uses ratio = (c + 1e-15) / (r + 1e-9) and applies
exp(1 - 1/ratio) when ratio < 1, so it is slightly below 1 even when c = r, and it
is 0 for an empty hypothesis against empty references.  Scores are multiplied by
100.  ``counts``/``totals`` are the scorer's pooled ``correct``/``guess``;
``precisions`` and ``bp`` are the scorer's own expressions evaluated on them.

A segment without any reference makes ``Bleu.compute_score`` assert
(``len(ref) >= 1``); the adapter raises ``MissingReferenceError`` instead of
letting ``BleuScorer`` fail somewhere inside ``min()``.  The scorer's ``print``
output is swallowed.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar

from metricdiff.adapters.base import ANY, Adapter, References
from metricdiff.conventions import BleuOptions
from metricdiff.results import BleuResult
from metricdiff.tokenizers import preprocess

# bleu_scorer.BleuScorer.compute_score's constants.
_TINY = 1e-15
_SMALL = 1e-9


class MissingReferenceError(ValueError):
    """pycocoevalcap refuses a segment that has no reference at all."""


class PycocoevalcapBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """The COCO caption evaluation BLEU (David Chiang's ``bleu_scorer``)."""

    name = "pycocoevalcap"
    distribution = "pycocoevalcap"
    modules = ("pycocoevalcap.bleu.bleu", "pycocoevalcap.bleu.bleu_scorer")
    settable: ClassVar[Mapping[str, Collection[str] | None]] = {
        "tokenize": ANY,
        "lowercase": ANY,
        "lowercase_stage": ANY,
        "max_order": ("1", "2", "3"),
        "ref_length": ("closest", "shortest", "average"),
        "empty_reference": ("length-zero", "dropped"),
    }

    def default_options(self, metric: str) -> BleuOptions:
        self.check_metric(metric)
        return BleuOptions(
            tokenize="none",
            lowercase="none",
            lowercase_stage="before-tokenize",
            max_order=4,
            weights=None,
            ref_length="closest",
            closest_tie="shorter",
            smoothing="epsilon",
            smooth_value=None,
            smooth_orders="n>1",
            empty_order="zero",
            all_zero="smooth",
            level="corpus",
            empty_reference="length-zero",
            empty_policy="zero",
        )

    def _run(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> tuple[Any, list[float], list[list[float]]]:
        """The filled ``BleuScorer`` and its ``compute_score`` output, as
        ``Bleu.compute_score`` produces them (with ``option`` = ref_length)."""
        self.check_metric(metric)
        self.ensure_available()
        self.check(self.default_options(metric), options)
        from pycocoevalcap.bleu.bleu_scorer import BleuScorer

        def text(segment: str) -> str:
            return " ".join(
                preprocess(segment, options.tokenize, options.lowercase, options.lowercase_stage)
            )

        keep_empty = options.empty_reference == "length-zero"
        hyps, refs = list(hyps), list(refs)
        if len(hyps) != len(refs):
            raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
        scorer = BleuScorer(n=options.max_order)
        for number, (hyp, seg) in enumerate(zip(hyps, refs, strict=True), start=1):
            usable = [text(r) for r in seg if r is not None and (keep_empty or r != "")]
            if not usable:
                raise MissingReferenceError(
                    f"pycocoevalcap needs at least one reference per segment; segment "
                    f"{number} has none (Bleu.compute_score asserts len(ref) >= 1)"
                )
            scorer += (text(hyp), usable)
        with contextlib.redirect_stdout(io.StringIO()):
            scores, per_segment = scorer.compute_score(option=options.ref_length, verbose=0)
        return scorer, scores, per_segment

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        scorer, scores, _ = self._run(metric, hyps, refs, options)
        orders = options.max_order
        correct, guess = [0] * orders, [0] * orders
        for comps in scorer.ctest:
            for k in range(orders):
                correct[k] += comps["correct"][k]
                guess[k] += comps["guess"][k]
        return _result(
            scores[orders - 1], correct, guess, scorer._testlen, scorer._reflen
        )

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> list[BleuResult]:
        """The scorer's per-segment scores (its second return value)."""
        scorer, _, per_segment = self._run(metric, hyps, refs, options)
        orders = options.max_order
        results = []
        for index, comps in enumerate(scorer.ctest):
            reflen = scorer._single_reflen(comps["reflen"], options.ref_length, comps["testlen"])
            results.append(
                _result(
                    per_segment[orders - 1][index],
                    comps["correct"][:orders],
                    comps["guess"][:orders],
                    comps["testlen"],
                    reflen,
                )
            )
        return results


def _result(
    score: float, correct: Sequence[int], guess: Sequence[int], testlen: int, reflen: float
) -> BleuResult:
    """A BleuResult from the scorer's statistics, using its own expressions."""
    precisions = tuple(
        100.0 * float(c + _TINY) / (g + _SMALL) for c, g in zip(correct, guess, strict=True)
    )
    ratio = (testlen + _TINY) / (reflen + _SMALL)
    bp = math.exp(1 - 1 / ratio) if ratio < 1 else 1.0
    return BleuResult(
        score=100.0 * float(score),
        precisions=precisions,
        bp=bp,
        sys_len=int(testlen),
        ref_len=float(reflen),
        counts=tuple(correct),
        totals=tuple(guess),
    )

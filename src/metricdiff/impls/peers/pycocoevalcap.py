"""pycocoevalcap's BLEU (``pycocoevalcap.bleu``: ``Bleu`` and its ``BleuScorer``)
and ROUGE-L (``pycocoevalcap.rouge``: ``Rouge``); one adapter class each.

BLEU
----

pycocoevalcap splits each string on whitespace (``precook``: ``s.split()``).  In
the COCO caption pipeline its text first goes through ``PTBTokenizer``, which runs
Stanford CoreNLP in Java; that step is not driven here.  Instead every
``tokenize`` / ``lowercase`` / ``lowercase_stage`` value is applied by
``metricdiff.impls.text.tokenizers.preprocess`` and the tokens are
joined with single spaces, which pycocoevalcap's split turns back into the same
tokens.  The default is
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
* ``max_order=4`` (``Bleu(n=4)``), and 1 to 3 work too: BLEU of order n is the
  uniform geometric mean of orders 1..n.  Orders above 4 are refused: ``cook_append``
  calls ``cook_refs``/``cook_test`` without ``n``, so they count up to 4-grams
  whatever ``n`` is, and ``compute_score`` then fails with ``IndexError``.  Only
  uniform weights exist.
* ``level=corpus`` (pooled ``correct``/``guess``), ``empty_reference=length-zero``
  (an empty string is a reference of length 0), ``empty_policy=zero``.

The brevity penalty uses ratio = (c + 1e-15) / (r + 1e-9) and applies
exp(1 - 1/ratio) when ratio < 1, so it is slightly below 1 even when c = r, and it
is 0 for an empty hypothesis against empty references: ``smoothing=epsilon`` adds
the constants to c and r too, so that no pair is empty (the precisions of an
empty pair are 1e-15 / 1e-9 each, not the 0 of ``empty_policy``).  Scores are multiplied by
100.  ``counts``/``totals`` are the scorer's pooled ``correct``/``guess``;
``precisions`` and ``bp`` are the scorer's own expressions evaluated on them.

A segment without any reference makes ``Bleu.compute_score`` assert
(``len(ref) >= 1``); the adapter raises ``MissingReferenceError`` instead of
letting ``BleuScorer`` fail somewhere inside ``min()``.  The scorer's ``print``
output is swallowed.

ROUGE-L
-------
``Rouge`` (1.2) has ROUGE-L only.  Declared default profile, from
``pycocoevalcap/rouge/rouge.py``:

* ``tokenize=whitespace-strict``: ``calc_score`` splits with ``str.split(" ")``, so
  two spaces make an empty token and ``""`` is one empty token -- an empty
  hypothesis against an empty reference scores 1.  A caption has no sentences:
  the lines of a segment (metricdiff's sentence marker ``"\\n"``) are joined with
  one space first, empty lines dropped, as ROUGE-1.5.5 joins a text's lines and
  as the reference reads a line break.  Other text axes are applied by
  metricdiff and the tokens joined with single spaces (an empty token list
  becomes ``""``, which the library then reads as one empty token).
* ``multi_ref=max-p-max-r``: ``calc_score`` takes the largest precision and the
  largest recall over the references, possibly of different references.
* ``f_measure=beta=1.2`` (``self.beta = 1.2``): F = (1 + b^2) P R / (R + b^2 P),
  0 when P or R is 0; ``report=f``: ``calc_score`` returns F only.
* ``corpus_average=macro``: ``compute_score`` returns ``np.mean`` of the
  per-image F.  Sentence-level LCS (``my_lcs``), no stemming, no stopwords.

``Rouge`` does not return R and P: the adapter computes them as ``calc_score``
does, with ``my_lcs`` and the same split, and their corpus values with the same
``np.mean``; F is the library's.  The counts are the means over a segment's
references (LCS, hypothesis length, reference length), as the reference reports
them for ``max-p-max-r``.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Sequence
from typing import Any

from metricdiff.errors import MissingReferenceError
from metricdiff.impls.base import ANY, Adapter, References, Tolerance
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.peers._rouge_common import (
    PREPROCESSING_SETTABLE,
    PeerRougeAdapter,
    lines,
    result,
    text_axes_are,
    text_pipeline,
)
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.impls.text.tokenizers import preprocess
from metricdiff.profiles import BleuOptions, RougeOptions
from metricdiff.statistics import BleuResult, RougeResult, summed_counts

# bleu_scorer.BleuScorer.compute_score's constants.
_TINY = 1e-15
_SMALL = 1e-9


class PycocoevalcapBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """The COCO caption evaluation BLEU (David Chiang's ``bleu_scorer``)."""

    name = "pycocoevalcap"
    package = Package(
        distribution="pycocoevalcap",
        modules=("pycocoevalcap.bleu.bleu", "pycocoevalcap.bleu.bleu_scorer"),
        extra="peers",
    )
    declared = Declared(
        # The departures from Papineni et al.'s profile (BleuOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={"smoothing": "epsilon"},
        settable={
            "tokenize": ANY,
            "lowercase": ANY,
            "lowercase_stage": ANY,
            "max_order": ("1", "2", "3"),
            "ref_length": ("closest", "shortest", "average"),
            "empty_reference": ("length-zero", "dropped"),
            "entities": ANY,
        },
        tolerance=Tolerance(
            relative=1e-7,
            reason="BleuScorer adds 1e-15 to every match count and 1e-9 to every total and "
            "to the reference length, which moves each precision and BP by ~1e-9 relative",
        ),
    )

    def _run(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> tuple[Any, list[float], list[list[float]]]:
        """The filled ``BleuScorer`` and its ``compute_score`` output, as
        ``Bleu.compute_score`` produces them (with ``option`` = ref_length)."""
        self.prepared(metric, options)
        from pycocoevalcap.bleu.bleu_scorer import BleuScorer

        def text(segment: str) -> str:
            return " ".join(
                preprocess(segment, options.tokenize, options.lowercase,
                           options.lowercase_stage, options.entities)
            )

        hyps, refs = list(hyps), list(refs)
        if len(hyps) != len(refs):
            raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
        scorer = BleuScorer(n=options.max_order)
        for number, (hyp, seg) in enumerate(zip(hyps, refs, strict=True), start=1):
            usable = [text(r) for r in usable_bleu_references(seg, options)]
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


# --------------------------------------------------------------------------
# ROUGE-L


class PycocoevalcapRougeAdapter(PeerRougeAdapter):
    """The COCO caption evaluation ROUGE-L (``pycocoevalcap.rouge.rouge.Rouge``)."""

    name = "pycocoevalcap"
    package = Package(
        distribution="pycocoevalcap",
        modules=("pycocoevalcap.rouge.rouge",),
        extra="peers",
    )
    declared = Declared(
        metrics=("rouge-l",),
        # The departures from Lin 2004's profile (RougeOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "tokenize": "whitespace-strict",
            "sentence_split": "none",
            "multi_ref": "max-p-max-r",
            "f_measure": "beta=1.2",
            "report": "f",
        },
        settable={
            **PREPROCESSING_SETTABLE,
            "report": ANY,
        },
    )

    def _run(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> tuple[Any, list[RougeResult]]:
        """``Rouge.compute_score``'s mean and each segment's scores."""
        self.prepared(metric, options)
        from pycocoevalcap.rouge.rouge import Rouge, my_lcs

        if text_axes_are(options, tokenize="whitespace-strict", lowercase="none",
                         lowercase_stage="before-tokenize", stemmer="none"):
            def text(segment: str) -> str:
                return " ".join(lines(segment))
        else:
            tokenize = text_pipeline(options)

            def text(segment: str) -> str:
                return " ".join(tokenize(segment))

        segments = [(text(hyp), [text(r) for r in seg]) for hyp, seg in self.segments(hyps, refs)]
        res = {index: [hyp] for index, (hyp, _) in enumerate(segments)}
        gts = {index: seg for index, (_, seg) in enumerate(segments)}
        rouge = Rouge()
        average, per_image = rouge.compute_score(gts, res)
        pairs = []
        for (hyp, seg), fmeasure in zip(segments, per_image, strict=True):
            # calc_score's own steps, for the P and R it does not return
            token_c = hyp.split(" ")
            lcs = [my_lcs(ref.split(" "), token_c) for ref in seg]
            ref_lengths = [len(ref.split(" ")) for ref in seg]
            precision = max(m / float(len(token_c)) for m in lcs)
            recall = max(m / float(r) for m, r in zip(lcs, ref_lengths, strict=True))
            counts = (sum(lcs) / len(seg), float(len(token_c)), sum(ref_lengths) / len(seg))
            pairs.append(result(recall, precision, fmeasure, counts))
        return average, pairs

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        import numpy as np

        average, pairs = self._run(metric, hyps, refs, options)
        recall = np.mean(np.array([p.recall for p in pairs]))
        precision = np.mean(np.array([p.precision for p in pairs]))
        return result(recall, precision, average, summed_counts(pairs))

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        return self._run(metric, hyps, refs, options)[1]

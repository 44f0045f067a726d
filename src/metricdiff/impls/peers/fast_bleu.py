"""fast-bleu's BLEU (PyPI ``fast-bleu``: ``fast_bleu.BLEU``), a multithreaded C++
port of NLTK's ``sentence_bleu``; it installs from source, compiled by the
machine's g++ (``-fopenmp -std=c++11``), which ``make`` needs.

``BLEU(references, weights, smoothing_func)`` holds one fixed reference set and
``get_score(hypotheses)`` scores every hypothesis against all of it, one
sentence BLEU each; it has no corpus score.  The adapter builds one ``BLEU``
per segment from that segment's references, and the corpus score is the mean of
the sentence scores, which is how its scores are reported.  Declared default
profile, read from ``cpp_sources/sources/nltk.cpp`` (0.0.90):

* ``level=sentence-mean`` (above).  Tokens are metricdiff's (``tokenize=none``
  by default, the ``str.split()`` of NLTK's documentation); any ``tokenize`` and
  ``lowercase`` values can be set.
* ``smoothing=floor`` with epsilon 0.1: ``smoothing_func=1``, the default, is
  NLTK's method1 (``smooth_1``: a zero numerator becomes 1 over ten times the
  denominator).  ``smoothing_func=0`` is refused: it is meant as NLTK's method0
  but takes the log of ``numeric_limits<long double>::min()`` (~3.4e-4932), not
  of the double's 2.2e-308, so the score underflows to 0 for ordinary weights and
  is neither ``float-min`` nor ``none``.
* ``empty_order=denominator-one`` (``modified_precision``: ``max(1,
  denominator)``), ``all_zero=zero`` (``if (p_n[0].numerator == 0) return 0``),
  ``ref_length=closest`` with ties to the shorter (``closest_ref_length``).
* ``weights``: one weight vector per maximum order N, of at least two orders (its
  assertion ``2 <= min_n``), summing to 1; they reach the C++ code as 32-bit
  ``float``, hence the tolerance.

It reports the score alone: every other statistic is ``unknown``.  A segment
without a reference is refused before the library sees it: ``closest_ref_length``
would take ``min_element`` of an empty array, which is undefined behaviour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from metricdiff.errors import MissingReferenceError, UnsupportedOption
from metricdiff.impls.base import Adapter, References, Tolerance
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.peers._token_lists import TOKENIZED_HERE, tokens
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import MISSING, BleuResult

#: What ``get_score`` does not report.
_UNREPORTED = frozenset({"precisions", "bp", "sys_len", "ref_len", "counts", "totals"})


class FastBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """fast-bleu's ``BLEU``: NLTK's sentence BLEU with method1 smoothing, in C++;
    the corpus score is the mean of the sentence scores."""

    name = "fast-bleu"
    package = Package(
        distribution="fast-bleu",
        modules=("fast_bleu",),
        extra="compiled",
        note="(it compiles with g++ and OpenMP)",
    )
    declared = Declared(
        profile={
            "smoothing": "floor",
            "empty_order": "denominator-one",
            "all_zero": "zero",
            "level": "sentence-mean",
        },
        settable={
            **TOKENIZED_HERE,
            "smooth_value": ("0.1",),
            "empty_reference": ("length-zero", "dropped"),
        },
        refused={
            "smoothing": {"float-min": "its smoothing_func=0 takes the log of long double's "
                          "minimum (~3.4e-4932), not NLTK's 2.2e-308"},
        },
        tolerance=Tolerance(
            relative=1e-6,
            reason="the weights reach its C++ code as 32-bit floats (1/3 becomes "
            "0.3333333433), which moves a score by up to ~1e-7 relative",
        ),
    )

    def check(self, default: BleuOptions, options: BleuOptions) -> None:
        """The per-axis check, plus its own assertions on the weights."""
        super().check(default, options)
        weights = options.order_weights()
        if len(weights) < 2:
            raise UnsupportedOption(
                "fast-bleu cannot honour max_order=1 (it asserts 2 <= N)")
        if abs(1.0 - sum(weights)) >= 1e-15:
            raise UnsupportedOption(
                "fast-bleu cannot honour weights that do not sum to 1 (it asserts so)")

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        scores = [r.score for r in self.sentence_scores(metric, hyps, refs, options)]
        return _score_only(math.fsum(scores) / len(scores) if scores else 0.0)

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> list[BleuResult]:
        """Each segment's hypothesis against a ``BLEU`` of its own references."""
        self.prepared(metric, options)
        from fast_bleu import BLEU

        if len(hyps) != len(refs):
            raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
        results = []
        for number, (hyp, seg) in enumerate(zip(hyps, refs, strict=True), start=1):
            usable = usable_bleu_references(seg, options)
            if not usable:
                raise MissingReferenceError(
                    f"fast-bleu needs a reference for every segment; segment {number} has "
                    "none (its closest_ref_length would read an empty array)"
                )
            bleu = BLEU([tokens(ref, options) for ref in usable],
                        {"bleu": options.order_weights()},
                        smoothing_func=1)  # method1, smoothing=floor
            score = bleu.get_score([tokens(hyp, options)])["bleu"][0]
            results.append(_score_only(100.0 * float(score)))
        return results


def _score_only(score: float) -> BleuResult:
    """A result with the score alone, the rest placeholders (as ``from_json`` reads
    them back)."""
    return BleuResult(score, (), MISSING, cast(int, MISSING), MISSING, (), (),
                      unknown=_UNREPORTED)

"""easy-rouge (PyPI ``easy-rouge``, 0.2.2): the functions of ``rouge.rouge``.

It installs a top-level package ``rouge``, as pltrdy's ``rouge`` and py-rouge
do, so it is loaded from a directory of its own
(``impls/peers/_isolated.py``; install with ``metricdiff install-peers``).
Importing it calls ``logging.basicConfig(level=logging.INFO)``, which would make
every INFO record of the process print (rouge-score's absl "Using default
tokenizer." among them); the adapter puts the root logger's handlers and level
back after loading it.

It scores token lists, never text: "preprocessing is a total freedom of the
client" (its README, whose example splits with ``str.split()``).  So every text
axis is applied by metricdiff (``text_pipeline``), with ``tokenize=none`` as the
declared default; a segment's lines (metricdiff's sentence marker ``"\\n"``) are
its sentences.  Declared default profile, read from ``rouge/rouge.py``:

* ROUGE-N: ``rouge_n_summary_level`` (the sentences flattened, then
  ``rouge_n_sentence_level``): ``counts=multiset`` (``Counter &``), totals
  ``max(len - n + 1, 0)``.
* ROUGE-L: ``rouge_l_sentence_level`` on the whole token list (``rouge-l``);
  ``rouge_l_summary_level`` over the lines (``rouge-lsum``): the union of the
  reference positions of each LCS against every hypothesis sentence, each hit
  clipped by the unigram counts left on both sides, as ROUGE-1.5.5 does.
* ROUGE-W: ``rouge_w_summary_level`` over the lines, ``weight=1.2``
  (``DEFAULT_WEIGHT_FACTOR``) and ``wlcs=rouge155``: runs counted on reference
  positions of the union of the WLCS marks, the recall base f(sum_i f(|r_i|)),
  the precision base f(n).  ``_weight_fn`` raises ``ValueError`` for a weight
  not above 1, so ``weight`` is refused there.
* ``f_measure=alpha=0.5`` (``_compute_f1_measure``: P R / ((1 - a) P + a R), 0 on a
  zero denominator; any alpha), ``empty_policy=zero``, ``report=f`` is declared
  (all three are returned).
* One reference per summary: the functions take one; a segment with several is
  refused.  No corpus function: ``corpus_average=macro`` (the mean of the pair
  scores) is what a caller writes.

Counts: the library returns R, P and F only.  ``matches``/``hyp_total``/``ref_total``
are the token (n-gram) counts of the inputs and matches = R x ref_total, rounded;
for ROUGE-W the bases its ``_weight_fn`` gives and the weighted hits
R^weight x the recall base.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Sequence
from typing import Any

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import ANY, References
from metricdiff.impls.declarations import Declared, Isolated, Package
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers._rouge_common import (
    ANY_ALPHA,
    PREPROCESSING_SETTABLE,
    ROUGE_N_METRICS,
    IsolatedPeerAdapter,
    Matching,
    alpha_of,
    lines,
    macro,
    result,
    text_pipeline,
)
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

Sentences = list[list[str]]


class EasyRougeAdapter(IsolatedPeerAdapter):
    """easy-rouge 0.2.2: ROUGE-N, ROUGE-L (sentence and summary level), ROUGE-W."""

    name = "easy-rouge"
    package = Package(
        distribution="easy-rouge",
        # It installs a package `rouge` too (see the module docstring).
        isolated=Isolated("easy-rouge", "easy-rouge", "0.2.2", "rouge"),
    )
    declared = Declared(
        metrics=(*ROUGE_N_METRICS, "rouge-l", "rouge-lsum", "rouge-w"),
        # The departures from Lin 2004's profile (RougeOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={"wlcs": "rouge155", "report": "f"},
        settable={
            **PREPROCESSING_SETTABLE,
            "f_measure": ANY_ALPHA,
            "report": ANY,
            "weight": Matching("a number above 1", lambda value: float(value) > 1.0),
        },
    )

    def unavailable_reason(self) -> str | None:
        with _root_logger_kept():  # the first load imports the package
            return super().unavailable_reason()

    def _pairs(self, hyps: Sequence[str], refs: References,
               options: RougeOptions) -> list[tuple[Sentences, Sentences]]:
        """Each segment's hypothesis and reference as sentences of tokens."""
        tokenize = text_pipeline(options)
        pairs = []
        for number, (hyp, seg) in enumerate(self.segments(hyps, refs), start=1):
            if len(seg) != 1:
                raise UnsupportedOption(
                    f"{self.name} takes one reference per summary (its functions score "
                    f"one pair); segment {number} has {len(seg)}"
                )
            pairs.append(([tokenize(s) for s in lines(hyp)],
                          [tokenize(s) for s in lines(seg[0])]))
        return pairs

    def sentence_scores(self, metric: str, hyps: Sequence[str], refs: References,
                        options: RougeOptions) -> list[RougeResult]:
        self.prepared(metric, options)
        pairs = self._pairs(hyps, refs, options)
        alpha = alpha_of(options.f_measure)
        with _root_logger_kept(), _isolated.active(self.isolated()) as peer:
            return [_score(peer.module, options, hyp, ref, alpha) for hyp, ref in pairs]

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: RougeOptions) -> RougeResult:
        return macro(self.sentence_scores(metric, hyps, refs, options))


@contextlib.contextmanager
def _root_logger_kept() -> Iterator[None]:
    """The root logger's handlers and level as they were before the block."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def _score(rouge: Any, options: RougeOptions, hyp: Sentences, ref: Sentences,
           alpha: float) -> RougeResult:
    """One pair, by the library function of the variant, with its counts."""
    if options.variant == "w":
        score = rouge.rouge_w_summary_level(hyp, ref, weight=options.weight, alpha=alpha)
        weigh = rouge.rouge._weight_fn
        ref_base = weigh(sum(weigh(len(s), options.weight) for s in ref), options.weight)
        hits = score.recall ** options.weight * ref_base
        return result(score.recall, score.precision, score.f1_measure,
                      (hits, weigh(sum(map(len, hyp)), options.weight), ref_base))
    if options.variant == "n":
        score = rouge.rouge_n_summary_level(hyp, ref, options.n, alpha=alpha)
        hyp_total, ref_total = (max(sum(map(len, side)) - options.n + 1, 0)
                                for side in (hyp, ref))
    elif options.variant == "l":
        flat_hyp, flat_ref = ([t for s in side for t in s] for side in (hyp, ref))
        score = rouge.rouge_l_sentence_level(flat_hyp, flat_ref, alpha=alpha)
        hyp_total, ref_total = len(flat_hyp), len(flat_ref)
    else:
        score = rouge.rouge_l_summary_level(hyp, ref, alpha=alpha)
        hyp_total, ref_total = sum(map(len, hyp)), sum(map(len, ref))
    matches = round(score.recall * ref_total)
    return result(score.recall, score.precision, score.f1_measure,
                  (matches, hyp_total, ref_total))


__all__ = ["EasyRougeAdapter"]

"""pltrdy's ``rouge`` (PyPI ``rouge``, 1.0.1): ``rouge.Rouge().get_scores``.

It installs a top-level package ``rouge``, as py-rouge does, so it is loaded
from a directory of its own (``impls/peers/_isolated.py``; install with
``metricdiff install-peers``).

Declared default profile, read from ``rouge/rouge.py`` and ``rouge/rouge_score.py``:

* Text: ``Rouge._get_scores`` cuts each text at every ``'.'`` (``hyp.split(".")``,
  pieces of length 0 dropped, the periods themselves discarded), normalises the
  whitespace of each piece (``" ".join(_.split())``), and the metric functions
  split the pieces on ``" "`` (``_split_into_words``).  So the tokens are those
  of ``tokenize=none`` except that ``.`` separates tokens and vanishes
  ("3.5" -> "3", "5"; "U.S." -> "U", "S"); a piece of spaces only (". .") becomes
  one empty token: ``tokenize=period-split``, with ``sentence_split=period``
  for its summary-level ROUGE-L.  No lowercasing (``lowercase`` is applied to
  the raw text before the call when set), no stemming, no stopwords.
* ``counts=set``: ``Rouge(exclusive=True)`` is the default, and ``Ngrams`` is then a
  Python ``set``: repeated n-grams count once on each side.  ``counts=multiset``
  is ``exclusive=False`` (a list, clipped intersection).
* ROUGE-L is ``rouge_l_summary_level`` over the '.'-separated sentences (offered
  as metricdiff's ``rouge-l`` and ``rouge-lsum``).  With ``exclusive=True`` both
  m and n are counts of *distinct* words and the union LCS is the *set of words*
  of every LCS(r_i, c_j) accumulated over all reference sentences
  (``prev_union``), not positions; with ``exclusive=False`` it is the sum of
  |LCS(r_i, c_j)| over all pairs of sentences, which can exceed m (recall > 1).
* ``f_measure=alpha=0.5`` nearly: F = 2 P R / (P + R + 1e-8)
  (``f_r_p_rouge_n``), a relative ~1e-8 / (P + R) below F1.
* One reference per hypothesis: ``get_scores(hyps, refs)`` pairs ``hyps[i]`` with
  ``refs[i]``; a segment with several references is refused (``multi_ref`` is
  declared ``best-f``, which means nothing with one reference).
* ``corpus_average=macro``: ``get_scores(avg=True)`` (``_get_avg_scores``) sums
  each of R, P, F over the pairs and divides by their number.
* ``empty_policy=error``: an empty hypothesis (or one of periods only) raises
  ``ValueError: Hypothesis is empty.`` (``rouge_n``), an empty reference
  ``Reference is empty.``, and ROUGE-L "Collections must contain at least 1
  sentence."; ``ignore_empty`` is not used.
* ``report=f``, ``rounding=exact``, no truncation.

Counts: ``Rouge(raw_results=True).get_scores`` gives each pair's ``hyp``, ``ref``
and ``overlap``: ``hyp_total``, ``ref_total`` and ``matches``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import ANY, References, Tolerance
from metricdiff.impls.declarations import Declared, Isolated, Package
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers._rouge_common import (
    IsolatedPeerAdapter,
    result,
)
from metricdiff.impls.text.tokenizers import lowercase
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult, summed_counts


class RougePltrdyAdapter(IsolatedPeerAdapter):
    """pltrdy ``rouge`` 1.0.1: ROUGE-1..5 and its summary-level ROUGE-L."""

    name = "rouge-pltrdy"
    package = Package(
        distribution="rouge",
        modules=("six",),
        extra="rouge",
        # It and py-rouge both install a package named `rouge`.
        isolated=Isolated("rouge-pltrdy", "rouge", "1.0.1", "rouge"),
    )
    declared = Declared(
        metrics=(
            "rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l", "rouge-lsum"),
        # The departures from Lin 2004's profile (RougeOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "tokenize": "period-split",
            "sentence_split": "period",
            "counts": "set",
            "multi_ref": "best-f",
            "report": "f",
            "empty_policy": "error",
        },
        settable={
            "lowercase": ANY,
            "counts": ("set", "multiset"),
            "report": ANY,
        },
        tolerance=Tolerance(
            relative=1e-7, reason="its F is 2PR / (P + R + 1e-8), a hair below F1"
        ),
    )

    def refuse(self, metric: str, options: RougeOptions) -> None:
        if options.lowercase != "none" and options.lowercase_stage != "before-tokenize":
            raise UnsupportedOption(
                f"{self.name} cannot honour lowercase_stage={options.lowercase_stage} "
                "(its text is lowercased before the library tokenizes it)"
            )

    def _pairs(self, hyps: Sequence[str], refs: References,
               options: RougeOptions) -> tuple[list[str], list[str]]:
        hyp_texts, ref_texts = [], []
        for number, (hyp, seg) in enumerate(self.segments(hyps, refs), start=1):
            if len(seg) != 1:
                raise UnsupportedOption(
                    f"{self.name} takes one reference per hypothesis (get_scores pairs "
                    f"hyps[i] with refs[i]); segment {number} has {len(seg)}"
                )
            hyp_texts.append(lowercase(hyp, options.lowercase))
            ref_texts.append(lowercase(seg[0], options.lowercase))
        return hyp_texts, ref_texts

    def _run(self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions,
             average: bool) -> tuple[Any, list[tuple[float, float, float]]]:
        self.prepared(metric, options)
        hyp_texts, ref_texts = self._pairs(hyps, refs, options)
        key = "rouge-l" if metric == "rouge-lsum" else metric
        exclusive = options.counts == "set"
        with _isolated.active(self.isolated()) as peer:
            rouge = peer.module.Rouge(metrics=[key], exclusive=exclusive)
            scores = rouge.get_scores(hyp_texts, ref_texts, avg=average)
            raw = peer.module.Rouge(metrics=[key], exclusive=exclusive, raw_results=True)
            counts = [
                (float(r[key]["overlap"]), float(r[key]["hyp"]), float(r[key]["ref"]))
                for r in raw.get_scores(hyp_texts, ref_texts)
            ]
        return scores if average else [s[key] for s in scores], counts

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        scores, counts = self._run(metric, hyps, refs, options, average=True)
        key = "rouge-l" if metric == "rouge-lsum" else metric
        pairs = [result(0, 0, 0, c) for c in counts]
        return result(scores[key]["r"], scores[key]["p"], scores[key]["f"], summed_counts(pairs))

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        scores, counts = self._run(metric, hyps, refs, options, average=False)
        return [result(s["r"], s["p"], s["f"], c) for s, c in zip(scores, counts, strict=True)]

"""rouge-score-rs (PyPI ``rouge-score-rs``, 0.2.1): a reimplementation of Google's
rouge-score in Rust, with the same Python interface (``rouge_score_rs.RougeScorer``,
``rouge_score_rs.scoring.BootstrapAggregator``).

It says it gives "scores identical to rouge-score", so it declares rouge-score's
profile, axis for axis (see ``peers/rouge_score.py``), and is driven by the same
adapter: ``RougeScorer(types, use_stemmer, split_summaries, tokenizer)``,
``score_multi`` per segment, ``BootstrapAggregator(n_samples).aggregate()[type].mid``
under ``np.random.seed``.  Its native ``DefaultTokenizer`` (with its own Porter
stemmer for ``use_stemmer=True``) stands for ``tokenize=rouge-score`` and
``stemmer=porter-nltk``; other text axes go through ``tokenizer=`` as for
rouge-score (the library then encodes each distinct token as an id and scores in
Rust).  A difference from rouge-score is a finding of the audit, not hidden here.

Its ``UnicodeTokenizer`` (UAX #29 words after NFKC and case folding) and
``CharacterTokenizer`` (grapheme clusters) have no value on the ``tokenize``
axis and are not offered.

Counts: the Python package exposes no n-gram counter; ``matches``/``hyp_total``/
``ref_total`` are counted from the scorer's tokens (a ``Counter`` of n-grams) and
the library's own ``rouge_scorer.lcs_ind`` (the indices of one LCS) for ROUGE-L;
ROUGE-Lsum as for rouge-score.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from metricdiff.impls.declarations import Package
from metricdiff.impls.peers.rouge_score import RougeScoreAdapter, pair_counts
from metricdiff.profiles.rouge import RougeOptions


def _ngrams(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


class RougeScoreRsAdapter(RougeScoreAdapter):
    """rouge-score-rs 0.2.1: ROUGE-1..9, ROUGE-L and ROUGE-Lsum, as rouge-score."""

    name = "rouge-score-rs"
    package = Package(
        distribution="rouge-score-rs",
        modules=("rouge_score_rs.rouge_scorer", "rouge_score_rs.scoring", "numpy"),
        extra="peers",
    )
    library: ClassVar[str] = "rouge_score_rs"

    def counts(self, tokenize: Callable[[str], list[str]], key: str, target: str,
               prediction: str, score: Any, options: RougeOptions) -> tuple[float, float, float]:
        rouge_scorer = importlib.import_module("rouge_score_rs.rouge_scorer")
        return pair_counts(tokenize, key, target, prediction, score, options,
                           lambda ref, hyp: len(rouge_scorer.lcs_ind(ref, hyp)), _ngrams)


__all__ = ["RougeScoreRsAdapter"]

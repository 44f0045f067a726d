"""rouge-chinese (PyPI ``rouge-chinese``, 1.0.3): ``rouge_chinese.Rouge().get_scores``.

A fork of pltrdy's ``rouge`` 1.0.1 for Chinese, common in Chinese summarization
papers.  It installs its package twice, as ``rouge_chinese`` and as a copy named
``rouge`` (``__version__`` "1.0.1"), which would clash with pltrdy's and
py-rouge's ``rouge``; so it is loaded from a directory of its own
(``impls/peers/_isolated.py``; install with ``metricdiff install-peers``),
and ``rouge_chinese`` is the package driven.

Its interface is pltrdy's (``Rouge(metrics, exclusive, raw_results).get_scores``),
so the adapter is pltrdy's with these differences, read from
``rouge_chinese/rouge.py`` and ``rouge_chinese/rouge_score.py``:

* Text: ``Rouge.cut_sent`` replaces pltrdy's cut at every ``'.'``: it breaks
  after Chinese (and '?') sentence ends, keeping the marks, and the pieces are
  split on whitespace: ``tokenize=whitespace-zh-sentences`` (see that tokenizer;
  Chinese must come segmented into words, e.g. by jieba, as its README does).
  ``sentence_split`` plays no part: ROUGE-N joins the pieces, and so does ROUGE-L.
* ROUGE-L: ``rouge_l_summary_level`` no longer takes a union LCS over sentences:
  it is the LCS of the whole word lists (``_len_lcs``), with multiset word counts
  whatever ``exclusive`` says -- the sentence-level ROUGE-L, metricdiff's
  ``rouge-l``; there is no ``rouge-lsum``.
* As pltrdy: ``counts=set`` for ROUGE-N (``exclusive=True``; ``multiset`` is
  ``exclusive=False``), F = 2PR / (P + R + 1e-8), one reference per hypothesis,
  ``corpus_average=macro`` (``avg=True``), ``empty_policy=error`` (an empty
  hypothesis or reference raises ``ValueError``), ROUGE-1 to ROUGE-5.
"""

from __future__ import annotations

import attrs

from metricdiff.impls.declarations import Isolated, Package
from metricdiff.impls.peers.rouge_pltrdy import RougePltrdyAdapter


class RougeChineseAdapter(RougePltrdyAdapter):
    """rouge-chinese 1.0.3: ROUGE-1..5 and sentence-level ROUGE-L."""

    name = "rouge-chinese"
    package = Package(
        distribution="rouge-chinese",
        modules=("six",),
        extra="rouge",
        # It installs `rouge_chinese` and a copy named `rouge`, which would clash
        # with pltrdy's rouge and py-rouge.
        isolated=Isolated("rouge-chinese", "rouge-chinese", "1.0.3", "rouge_chinese"),
    )
    declared = attrs.evolve(
        RougePltrdyAdapter.declared,
        metrics=("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l"),
        # The departures from Lin 2004's profile (RougeOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "tokenize": "whitespace-zh-sentences",
            "counts": "set",
            "multi_ref": "best-f",
            "report": "f",
            "empty_policy": "error",
        },
    )


__all__ = ["RougeChineseAdapter"]

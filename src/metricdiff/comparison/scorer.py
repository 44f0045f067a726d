"""The reference's score on one corpus under any profile, remembered
(``ReferenceScorer``), and the gap between two profiles attributed with it
(``attribute_gap``): what ``corpus.py`` attributes every gap with; and the
number a paper quotes of a result (``points``).

A refusal is an outcome, not a hole in the attribution.  Where a profile between
two implementations' sets ``empty_policy=error`` (one side's) and another axis
empties a segment (the other side's tokenizer drops its non-ASCII text, say),
the reference refuses the corpus under that profile, as that implementation
would.  The segment it refuses then counts as 0, as ``empty_policy=zero``
scores it -- what an implementation that crashes on it leaves in an average,
and what the documented ``zero`` is -- so that every profile between the two
has a score, the contributions and the residual add up to the gap, and the
attribution says which axis values meet to refuse how many segments."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from metricdiff.cases.case import Sample
from metricdiff.comparison.attribution import Attribution, attribute, coalition_profiles
from metricdiff.comparison.inert import inert_axes
from metricdiff.errors import EmptyInputError
from metricdiff.impls import get_adapter
from metricdiff.impls.reference.rouge import headline
from metricdiff.profiles import profile_of
from metricdiff.profiles.metrics import Options, Result
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.scoring.isolated import IN_PROCESS
from metricdiff.statistics import BleuResult, RougeResult
from metricdiff.wording import plural

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
        #: The profiles the reference refuses this corpus under, and how many of
        #: its segments each refuses (scored as ``empty_policy=zero`` scores them).
        self.refused: dict[Options, int] = {}

    def __call__(self, options: Options) -> float:
        if options not in self.known:
            try:
                result = self.adapter.corpus_score(self.metric, self.hyps, self.refs, options)
            except EmptyInputError:
                result = self.adapter.corpus_score(self.metric, self.hyps, self.refs,
                                                   _lenient(options))
                self.refused[options] = self._refusals(options)
            self.known[options] = points(result, options)
        return self.known[options]

    def _refusals(self, options: Options) -> int:
        """How many segments the reference refuses under ``options``, each alone."""
        count = 0
        for hyp, refs in zip(self.hyps, self.refs, strict=True):
            try:
                self.adapter.corpus_score(self.metric, (hyp,), (refs,), options)
            except EmptyInputError:
                count += 1
        return count

    def prepare(self, profiles: Sequence[Options]) -> None:
        """Score together the ``profiles`` not known yet (the reference's
        ``corpus_scores``: one pass over a large corpus for all of them); a
        profile the reference refuses without its twin is left for ``__call__``
        to raise about."""
        wanted = [options for options in dict.fromkeys(profiles) if options not in self.known]
        if len(wanted) < 2 or not isinstance(self.adapter, IN_PROCESS):
            return
        # each profile that may refuse beside the one that scores what it refuses as
        # 0, in the same pass: what ``__call__`` would score after the refusal
        twins = {options: _lenient(options) for options in wanted
                 if options.empty_policy == "error"}
        asked = list(dict.fromkeys([*wanted, *twins.values()]))
        # the reference's own outcomes, not judged as an implementation's are: a
        # refusal keeps the count of segments it refuses, where it was counted
        scored = dict(zip(asked, self.adapter.corpus_scores(
            self.metric, self.hyps, self.refs, asked),  # type: ignore[arg-type]
            strict=True))
        for options in asked:
            outcome, twin = scored[options], scored.get(twins.get(options, options))
            if not isinstance(outcome, Exception):
                self.known[options] = points(outcome, options)
            elif (isinstance(outcome, EmptyInputError)
                  and isinstance(twin, (BleuResult, RougeResult))):
                self.known[options] = points(twin, options)
                self.refused[options] = (self._refusals(options) if outcome.segments is None
                                         else outcome.segments)


def _lenient(options: Options) -> Options:
    """``options`` scoring what it refuses as 0 (``empty_policy=zero``)."""
    return attrs.evolve(options, empty_policy="zero")


def prepare_gaps(gaps: Sequence[tuple[Options | None, Options | None]],
                 reference: ReferenceScorer) -> None:
    """Score together every profile that ``attribute_gap`` asks ``reference``
    for on each gap (``attribution.coalition_profiles``): one pass over the
    corpus for all of them, where one gap at a time makes a pass each.  A side
    without options has no gap to attribute."""
    reference.prepare([options for a, b in gaps if a is not None and b is not None
                       for options in coalition_profiles(a, b, inert_axes(a, b, reference.refs))])


def attribute_gap(a: Options, b: Options, reference: ReferenceScorer) -> tuple[Attribution, str]:
    """The reference's gap between profiles ``a`` and ``b``, axis by axis
    (``attribution.attribute``), and a note naming what the reference refused on
    the way, if anything (see the module's docstring)."""
    used: list[Options] = []

    def score(options: Options) -> float:
        used.append(options)
        return reference(options)

    inert = inert_axes(a, b, reference.refs)
    found = attribute(a, b, score, inert=inert, prepare=reference.prepare)
    players = [axis for c in found.contributions for axis in c.axis.split(",")
               if axis not in inert]  # an inert axis is never switched
    return found, refusal_note(players, [p for p in dict.fromkeys(used) if p in reference.refused],
                               reference.refused)


def refusal_note(players: Sequence[str], hit: Sequence[Options],
                 refused: dict[Options, int]) -> str:
    """What the reference refused between two profiles (``hit``: the profiles
    between them it refused), naming the values of the axes switched
    (``players``) that every such profile shares."""
    if not hit:
        return ""
    values = [profile_of(options) for options in hit]
    shared = [f"{axis}={values[0][axis]}" for axis in players if axis != "empty_policy"
              and all(v[axis] == values[0][axis] for v in values)]
    most = max(refused[options] for options in hit)
    where = f"{' and '.join(shared)} meets empty_policy=error" if shared else (
        "empty_policy=error applies")
    return (f"where {where}, the reference refuses {plural(most, 'segment')}, which "
            f"{'has' if most == 1 else 'have'} no token on either side; each counts as 0, "
            "as empty_policy=zero scores it")

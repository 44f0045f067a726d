"""Explaining a disagreement: which convention makes the reference reproduce an
implementation.

Starting from the profile an implementation declares, the explainer changes one
axis at a time, then pairs of axes, and keeps the first configuration under which
the reference reproduces every statistic of the implementation on the given cases.
The answer names the axis and the two values (``empty_order: zero vs
denominator-one``); when no configuration reproduces it, the answer is
``unexplained`` with the first statistic that differs: a likely defect in the
implementation (or in the reference).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence

import attrs

from metricdiff.cases.case import Sample
from metricdiff.comparison.inert import inert_axes, one_reference_each
from metricdiff.comparison.stages import ROUGE_COUNTS, Difference, first_difference
from metricdiff.impls import get_adapter
from metricdiff.impls.base import Tolerance
from metricdiff.impls.reference.adapter import (
    ReferenceAdapter,
    ReferenceBleuAdapter,
    ReferenceRougeAdapter,
)
from metricdiff.impls.reference.rouge import counting_options
from metricdiff.profiles import AXES, ConventionError, profile_of
from metricdiff.profiles.axes import affects
from metricdiff.profiles.metrics import Options, Result
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.scoring import score, score_profiles

#: Axes the search never changes: set by the metric name, or not conventions.
FIXED_AXES = frozenset({"n", "weights", "bootstrap_seed", "bootstrap_samples"})

#: The variants an implementation may quietly use for one another: a library's
#: "ROUGE-L" that is really the summary-level union LCS, or the reverse.
_SWAPPABLE_VARIANTS = {"l": ("lsum",), "lsum": ("l",)}

#: Values tried on the axes that take numbers or free text.
NUMERIC_CANDIDATES: dict[str, tuple[str, ...]] = {
    "max_order": ("1", "2", "3", "4", "5"),
    "smooth_value": ("default", "0.01", "0.1", "1", "5"),
    "weight": ("1", "1.2", "1.5", "2"),
    "skip": ("-1", "0", "1", "2", "4", "9"),
    "stem_min_length": ("0", "2", "3", "4"),
    "f_measure": ("alpha=0.5", "alpha=0", "alpha=1", "beta=1.2", "alpha=0.3"),
    "truncate": ("none",),
}

#: Values no implementation's corpus score uses: sacrebleu's resampling is
#: ``rank``'s scheme (``conclusions/resampling.py``), and a ROUGE implementation
#: averaging that way would be a coincidence, not a cause worth a search.
_NOT_CANDIDATES = frozenset({("corpus_average", "bootstrap-sacrebleu")})

#: Tokenizers that need optional packages or data; tried only if they load.
_OPTIONAL_TOKENIZERS = frozenset({"ja-mecab", "ko-mecab"})


@attrs.frozen
class Explanation:
    """Why an implementation's results differ from the reference's.

    ``axis`` is an axis name, a comma-separated pair, ``""`` when the declared
    profile already reproduces it, or ``unexplained``; ``values`` the declared and
    the reproducing values; ``options`` the reproducing configuration.
    """

    axis: str
    values: tuple[str, str]
    options: Options | None
    first_difference: Difference | None

    @property
    def explained(self) -> bool:
        return self.axis != "unexplained"


def _tokenizer_loads(name: str) -> bool:
    from metricdiff.impls.text.tokenizers import get_tokenizer

    try:
        get_tokenizer(name)
    except Exception:  # a missing optional package: not a candidate here
        return False
    return True


def candidate_values(axis_name: str, options: Options) -> list[str]:
    """The values worth trying on ``axis_name``, other than the current one."""
    current = profile_of(options)[axis_name]
    if axis_name == "variant":
        return list(_SWAPPABLE_VARIANTS.get(current, ()))
    axis = AXES[axis_name]
    values = axis.values or NUMERIC_CANDIDATES.get(axis_name, ())
    return [
        value
        for value in values
        if value != current and (axis_name, value) not in _NOT_CANDIDATES
        and not (
            axis_name == "tokenize"
            and value in _OPTIONAL_TOKENIZERS
            and not _tokenizer_loads(value)
        )
    ]


def single_changes(options: Options) -> list[tuple[str, str]]:
    """Every (axis, value) one step away from ``options``."""
    variant = getattr(options, "variant", None)
    return [
        (axis, value)
        for axis in profile_of(options)
        if axis not in FIXED_AXES and affects(axis, variant)
        for value in candidate_values(axis, options)
    ]


def changed(options: Options, changes: Sequence[tuple[str, str]]) -> Options | None:
    """``options`` with ``changes`` applied, or None where the combination is not a
    configuration (a value the axis refuses, axes that contradict each other)."""
    try:
        return _changed(options, tuple(changes))
    except TypeError:  # options with an unhashable value: built afresh
        return _changed.__wrapped__(options, tuple(changes))


# Remembered: every search from the same profile tries the same changes (up to
# MAX_SEARCHES of them per implementation in the conformance check), and options
# are frozen, so the result is a function of the arguments.
@functools.lru_cache(maxsize=1 << 16)
def _changed(options: Options, changes: tuple[tuple[str, str], ...]) -> Options | None:
    from metricdiff.profiles import with_overrides

    try:
        return with_overrides(options, dict(changes))
    except (ConventionError, ValueError, TypeError):
        return None


@functools.lru_cache(maxsize=1 << 16)
def reference_score(
    metric: str, options: Options, hyps: tuple[str, ...], refs: tuple[tuple[str | None, ...], ...]
) -> Result | None:
    """The reference's corpus result, or None where it refuses the configuration
    (a configuration the reference refuses reproduces nothing).

    Scored as every command scores (``scoring.score``), which runs the reference
    in this process.  Remembered: an audit asks for the same configuration on
    the same case again and again (every pair of implementations that disagree
    on it, every cause tried before), and the reference is a pure function of
    its arguments."""
    return score(_reference(metric), metric, hyps, refs, options).result


# The reference's adapter has no state, and looking it up checks the spec's
# axes against the metric's paper profile: once per metric, not per score.
@functools.cache
def _reference(metric: str) -> ReferenceAdapter:
    adapter = get_adapter("reference", metric)
    assert isinstance(adapter, (ReferenceBleuAdapter, ReferenceRougeAdapter))
    return adapter


#: Candidates scored together, at most, where the reference scores a search's
#: samples in one pass (``Reproducer.together``).
AT_ONCE = 256


class Reproducer:
    """Scores samples with the reference and tells whether a configuration
    reproduces an implementation's results."""

    def __init__(self, metric: str, samples: Sequence[Sample], targets: Sequence[Result],
                 tolerance: Tolerance) -> None:
        self.metric = metric
        self.samples = samples
        self.targets = targets
        self.tolerance = tolerance
        # A large corpus (a user's, as one case) is scored under many candidate
        # profiles at once: one tokenization of each text serves them all.
        self.together = bool(samples) and all(
            _reference(metric).scores_together(metric, hyps) for hyps, _ in samples)
        self.one_reference = one_reference_each(
            [segment for _, refs in samples for segment in refs])

    def score(self, options: Options, index: int) -> Result | None:
        hyps, refs = self.samples[index]
        return reference_score(
            self.metric, options, tuple(hyps), tuple(tuple(seg) for seg in refs)
        )

    def difference(self, options: Options) -> Difference | None:
        """The first difference on any sample, or None when all are reproduced."""
        for index, target in enumerate(self.targets):
            result = self.score(options, index)
            if result is None:
                return Difference("error", 0.0, 0.0)
            found = first_difference(target, result, self.tolerance)
            if found is not None:
                return found
        return None

    def reproduces(self, options: Options) -> bool:
        return self.difference(options) is None

    def counted_out(self, base: Options, found: Sequence[tuple[str, str]],
                    options: Options) -> bool:
        """Whether ``options`` (``base`` with the changes ``found``) cannot
        reproduce for its counts alone, known without scoring it.

        With one non-empty reference per segment, a ROUGE profile's counts --
        each segment's and so the corpus's sums -- are those of its
        ``counting_options``: the axes after the counts (F, rounding, the
        average, empty pairs; ``multi_ref`` is inert with one reference) leave
        them alone.  So ``options`` has the counts of ``base`` with only the
        changes that reach them; where that profile's first difference on some
        sample is a count (counts come first in ``ROUGE_STAGES``), it is also
        the first difference of ``options``."""
        if not (isinstance(base, RougeOptions) and isinstance(options, RougeOptions)
                and self.one_reference):
            return False
        counting = [change for change in found if _reaches_counts(base, change)]
        fewer = changed(base, counting)
        if len(counting) == len(found) or not isinstance(fewer, RougeOptions) or (
                counting_options(fewer) != counting_options(options)):
            return False
        for index, target in enumerate(self.targets):
            result = self.score(fewer, index)
            if result is None:
                return False
            found_first = first_difference(target, result, self.tolerance)
            if found_first is not None and found_first.field in ROUGE_COUNTS:
                return True
        return False

    def reproducing(self, candidates: Sequence[Options]) -> Iterator[int]:
        """The indices of the ``candidates`` that reproduce every sample, in
        order: as ``reproduces`` says, one at a time as they are asked for, or
        all scored together if ``together``."""
        if not self.together:
            yield from (index for index, options in enumerate(candidates)
                        if self.reproduces(options))
            return
        alive = list(range(len(candidates)))
        for (hyps, refs), target in zip(self.samples, self.targets, strict=True):
            outcomes = score_profiles(_reference(self.metric), self.metric, hyps, refs,
                                      [candidates[index] for index in alive])
            alive = [index for index, outcome in zip(alive, outcomes, strict=True)
                     if outcome.result is not None
                     and first_difference(target, outcome.result, self.tolerance) is None]
        yield from alive


def _reaches_counts(base: RougeOptions, change: tuple[str, str]) -> bool:
    """Whether ``change`` can change a segment's counts (or is no configuration
    on its own, and so is taken to)."""
    alone = changed(base, [change])
    return not isinstance(alone, RougeOptions) or (
        counting_options(alone) != counting_options(base))


#: A candidate of the search: the changes made, and the configuration they make.
Candidate = tuple[tuple[tuple[str, str], ...], Options]


def search(
    base: Options,
    reproducer: Reproducer,
    changes: Sequence[tuple[str, str]],
    most: int = 2,
) -> Iterator[Candidate]:
    """Configurations one change away from ``base`` (which does not reproduce)
    that reproduce, then two (if ``most`` is 2).

    A candidate with a change that cannot matter on these samples
    (``comparison.inert``: ``multi_ref`` where each segment has one reference,
    ``lowercase_stage`` where nothing folds case, ...) gives the results of the
    candidate without that change, tried before it (``base``, or a single
    change): it is not scored, and the first that reproduces is the same."""
    references = [segment for _, refs in reproducer.samples for segment in refs]
    singles = (((change,), changed(base, [change])) for change in changes)
    pairs = (((first, second), changed(base, [first, second]))
             for first, second in itertools.combinations(changes, 2) if first[0] != second[0])
    for candidates in (singles, pairs)[:most]:
        needed: Iterator[Candidate] = (
            (found, options) for found, options in candidates
            if options is not None and not _as_fewer(base, found, options, references)
            and not reproducer.counted_out(base, found, options))
        yield from _reproducing(reproducer, needed)


def _as_fewer(base: Options, found: Sequence[tuple[str, str]], options: Options,
              references: Sequence[Sequence[str | None]]) -> bool:
    """Whether one of the changes ``found`` is inert (``inert_axes``), and they
    moved no other axis: ``options`` then scores as ``base`` with fewer changes."""
    if not inert_axes(base, options, references):  # most candidates: asked first
        return False
    before, after = profile_of(base), profile_of(options)
    return {axis for axis in before if before[axis] != after[axis]} == {
        axis for axis, _ in found}


def _reproducing(reproducer: Reproducer, candidates: Iterator[Candidate]) -> Iterator[Candidate]:
    """The candidates that reproduce, in order: judged one at a time, or
    ``AT_ONCE`` at a time where the reproducer scores them together."""
    at_once = AT_ONCE if reproducer.together else 1
    while chunk := list(itertools.islice(candidates, at_once)):
        for index in reproducer.reproducing([options for _, options in chunk]):
            yield chunk[index]


def _describe(base: Options, changes: Sequence[tuple[str, str]]) -> tuple[str, tuple[str, str]]:
    before = profile_of(base)
    axes = ",".join(axis for axis, _ in changes)
    old = ",".join(before[axis] for axis, _ in changes)
    new = ",".join(value for _, value in changes)
    return axes, (old, new)


def explain(
    metric: str,
    declared: Options,
    samples: Sequence[Sample],
    targets: Sequence[Result],
    tolerance: Tolerance,
    changes: Sequence[tuple[str, str]] | None = None,
    most: int = 2,
) -> Explanation:
    """The convention that makes the reference reproduce ``targets`` on ``samples``.

    ``changes`` limits the search (the agreement explainer passes only the axes on
    which two profiles differ); by default every axis one step from ``declared``.
    ``most``: how many of them a candidate makes at most, 1 or 2.
    """
    reproducer = Reproducer(metric, samples, targets, tolerance)
    first = reproducer.difference(declared)
    if first is None:
        return Explanation("", ("", ""), declared, None)
    candidates = single_changes(declared) if changes is None else list(changes)
    for found, options in search(declared, reproducer, candidates, most):
        axis, values = _describe(declared, found)
        return Explanation(axis, values, options, first)
    return Explanation("unexplained", ("", ""), None, first)

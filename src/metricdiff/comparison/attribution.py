"""A gap between two profiles, attributed to the axes on which they differ.

Two implementations A and B follow profiles that differ on the axes D.  The
reference scored under a profile between them -- B's values on the axes of a set
S ⊆ D, A's on the rest -- is the value v(S) of that coalition: v(∅) is the
reference as A, v(D) the reference as B.  Each axis i gets its Shapley value
(Shapley 1953), its marginal effect averaged over all |D|! orders in which the
axes can be switched from A's value to B's::

    φ_i = Σ_{S ⊆ D∖{i}} |S|! (|D| − |S| − 1)! / |D|! · (v(S ∪ {i}) − v(S))

The values sum exactly to v(D) − v(∅) (efficiency), do not depend on the order
in which the axes are listed (symmetry), and an axis that never changes the score
gets 0 (null player).  Two axes that only matter together share their joint
effect equally; no order of switching is privileged, which is the point: "first
tokenize, then smoothing" and the reverse give different answers whenever the
axes interact.

Cost: 2^|D| reference scores, each remembered.  An axis that cannot change the
metric's variant at all (``profiles.axes.affects``: ROUGE-W's weight for ROUGE-L)
is no axis of the gap; one that cannot change the score on the corpus at hand
(``inert.inert_axes``: how several references combine, when there is one) is a
null player, listed with 0 without being enumerated.  Beyond
``MAX_EXACT_PLAYERS`` players, axes that only matter together with another
(``DEPENDENT_AXES``: ``truncate_side`` with ``truncate``, ...) first become one
player, named ``truncate,truncate_side``: the Shapley value of the game in
which they switch together, exact, and their sum is still the whole gap.  If
that is still too many, the values are estimated from ``SAMPLED_PERMUTATIONS``
random orders (seeded: the same answer every run); each order's marginal effects
sum to the whole gap, so the estimates do too, and each is within
``Attribution.error_bound`` of the exact value with probability ``CONFIDENCE``
(Hoeffding's inequality with a union bound over the players; every marginal
effect lies in [−width, width] for a metric on a scale of that width).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence

import attrs

from metricdiff.profiles import profile_of, with_overrides
from metricdiff.profiles.axes import affects
from metricdiff.profiles.metrics import Options

#: A coalition's value: the reference's score with the coalition's axes switched.
Game = Callable[[frozenset[str]], float]

#: Up to this many players the Shapley values are computed exactly.
MAX_EXACT_PLAYERS = 10
#: Random orders drawn when there are more players than that, even after merging.
SAMPLED_PERMUTATIONS = 2000
#: The probability with which every sampled value is within its error bound.
CONFIDENCE = 0.95

#: An axis that matters only through the one it names (its value changes
#: nothing while that one is at its default): merged with it when there are too
#: many players.
DEPENDENT_AXES: dict[str, str] = {
    "lowercase_stage": "lowercase",
    "truncate_side": "truncate",
    "stem_min_length": "stemmer",
    "smooth_value": "smoothing",
    "smooth_orders": "smoothing",
    "closest_tie": "ref_length",
    "bootstrap_seed": "corpus_average",
    "bootstrap_samples": "corpus_average",
}
#: Axes that cannot switch one without the other: every weight vector has
#: max_order entries, so a profile between two with different orders and
#: weights may not exist.  Always one player when both differ.
INSEPARABLE_AXES: dict[str, str] = {"weights": "max_order"}


# ----------------------------------------------------------------- Shapley


def shapley_values(players: Sequence[str], value: Game) -> dict[str, float]:
    """Each player's exact Shapley value in the game ``value`` (see the module's
    docstring); ``value`` is called once per coalition."""
    size = len(players)
    v = functools.cache(value)
    values: dict[str, float] = {}
    for player in players:
        others = [p for p in players if p != player]
        terms = []
        for count in range(size):
            weight = math.factorial(count) * math.factorial(size - count - 1) / math.factorial(size)
            for members in itertools.combinations(others, count):
                coalition = frozenset(members)
                terms.append(weight * (v(coalition | {player}) - v(coalition)))
        values[player] = math.fsum(terms)
    return values


def sampled_shapley_values(
    players: Sequence[str], value: Game, permutations: int, seed: int = 0
) -> dict[str, float]:
    """Each player's marginal effect averaged over ``permutations`` random orders
    of switching (an unbiased estimate of its Shapley value)."""
    order = list(players)
    shuffle = random.Random(seed).shuffle
    v = functools.cache(value)
    effects: dict[str, list[float]] = {player: [] for player in players}
    for _ in range(permutations):
        shuffle(order)
        coalition: frozenset[str] = frozenset()
        for player in order:
            grown = coalition | {player}
            effects[player].append(v(grown) - v(coalition))
            coalition = grown
    return {player: math.fsum(found) / permutations for player, found in effects.items()}


def hoeffding_bound(width: float, permutations: int, players: int,
                    confidence: float = CONFIDENCE) -> float:
    """ε such that every one of ``players`` sampled values is within ε of its
    Shapley value with probability ``confidence``: each marginal effect lies in
    [−width, width], so by Hoeffding P(|mean − φ| ≥ ε) ≤ 2 exp(−m ε² / (2 width²))
    for one player, and a union bound covers them all."""
    miss = 1.0 - confidence
    return width * math.sqrt(2.0 * math.log(2.0 * players / miss) / permutations)


# ------------------------------------------------------------ axes as players


@attrs.frozen
class Contribution:
    """What switching ``axis`` (or a comma-separated group of axes) from A's
    value to B's adds to the score, in the score's units."""

    axis: str
    before: str
    after: str
    points: float


@attrs.frozen
class Attribution:
    """The reference's gap between two profiles, ``end − start``, axis by axis.

    ``contributions`` lists every axis on which the profiles differ, the largest
    magnitude first; they sum to ``end − start`` (to float rounding).
    ``method`` is ``exact`` or ``sampled``; ``error_bound`` is 0 when exact.
    """

    start: float
    end: float
    contributions: tuple[Contribution, ...]
    method: str = "exact"
    error_bound: float = 0.0

    @property
    def gap(self) -> float:
        return self.end - self.start


def differing_axes(a: Options, b: Options) -> list[str]:
    """The axes on which two profiles of one metric differ, in signature order."""
    before, after = profile_of(a), profile_of(b)
    return [axis for axis in before if before[axis] != after[axis]]


def between(a: Options, b: Options, switched: frozenset[str]) -> Options:
    """Profile ``a`` with the axes in ``switched`` set to ``b``'s values."""
    after = profile_of(b)
    return with_overrides(a, {axis: after[axis] for axis in switched})


def players_of(axes: Sequence[str], merge: dict[str, str]) -> list[tuple[str, ...]]:
    """``axes`` grouped into players: an axis named in ``merge`` joins the axis it
    names when that one is among ``axes`` too; the rest play alone."""
    groups: dict[str, list[str]] = {}
    for axis in axes:
        leader = merge.get(axis, axis)
        groups.setdefault(leader if leader in axes else axis, []).append(axis)
    return [tuple(group) for group in groups.values()]


def attribute(
    a: Options,
    b: Options,
    score: Callable[[Options], float],
    width: float = 100.0,
    inert: frozenset[str] = frozenset(),
    prepare: Callable[[Sequence[Options]], None] | None = None,
) -> Attribution:
    """The Shapley attribution of ``score(b) − score(a)`` to the axes on which
    ``a`` and ``b`` differ.  ``score`` is the reference's score under a profile
    (called once per profile needed); ``width`` bounds the scores' range, for
    the error bound of a sampled attribution; ``inert``: axes known not to change
    the score on this input (``inert.inert_axes``), listed with 0; ``prepare``,
    if given, is first handed every profile an exact attribution scores (to
    score them together).  An axis that cannot change the metric's variant at
    all is no axis of the gap."""
    differing, live, names = _players(a, b, inert)

    profile = functools.cache(_coalition_profile(a, b, names))  # for ``prepare``, then ``value``

    @functools.cache
    def value(coalition: frozenset[str]) -> float:
        return score(profile(coalition))

    method, bound = "exact", 0.0
    if len(names) > MAX_EXACT_PLAYERS:
        found = sampled_shapley_values(list(names), value, SAMPLED_PERMUTATIONS)
        method = "sampled"
        bound = hoeffding_bound(width, SAMPLED_PERMUTATIONS, len(names))
    else:
        if prepare is not None:  # every coalition is asked for: score them together
            prepare(_profiles(profile, list(names)))
        found = shapley_values(list(names), value)
    before, after = profile_of(a), profile_of(b)
    # A null player: 0, by definition.
    found.update({axis: 0.0 for axis in differing if axis not in live})
    contributions = [
        Contribution(
            name,
            ",".join(before[axis] for axis in name.split(",")),
            ",".join(after[axis] for axis in name.split(",")),
            points,
        )
        for name, points in found.items()
    ]
    order = {name: index for index, name in enumerate(found)}
    contributions.sort(key=lambda c: (-abs(c.points), order[c.axis]))
    return Attribution(
        value(frozenset()), value(frozenset(names)), tuple(contributions), method, bound
    )


def _players(a: Options, b: Options, inert: frozenset[str]
             ) -> tuple[list[str], list[str], dict[str, tuple[str, ...]]]:
    """The axes on which ``a`` and ``b`` differ (those that can change the
    metric's variant), those of them not ``inert``, and the players these form,
    by name (see the module's docstring)."""
    variant = getattr(a, "variant", None)
    differing = [axis for axis in differing_axes(a, b) if affects(axis, variant)]
    live = [axis for axis in differing if axis not in inert]
    players = players_of(live, INSEPARABLE_AXES)
    if len(players) > MAX_EXACT_PLAYERS:
        players = players_of(live, {**DEPENDENT_AXES, **INSEPARABLE_AXES})
    return differing, live, {",".join(group): group for group in players}


def coalition_profiles(a: Options, b: Options, inert: frozenset[str] = frozenset()
                       ) -> list[Options]:
    """Every profile that ``attribute(a, b, ..., inert=inert)`` hands ``prepare``
    (none when it samples): the profiles of several gaps can then be scored
    together, before any of them is attributed."""
    _, _, names = _players(a, b, inert)
    if len(names) > MAX_EXACT_PLAYERS:
        return []
    return _profiles(_coalition_profile(a, b, names), list(names))


def _coalition_profile(a: Options, b: Options, names: dict[str, tuple[str, ...]]
                       ) -> Callable[[frozenset[str]], Options]:
    """A coalition of players (``names``: each player's axes) -> its profile:
    ``a`` with the coalition's axes switched to ``b``'s values."""
    return lambda coalition: between(
        a, b, frozenset(axis for name in coalition for axis in names[name]))


def _profiles(profile: Callable[[frozenset[str]], Options], players: Sequence[str]
              ) -> list[Options]:
    """The profile of every coalition of ``players`` that is one (``between``
    refuses some: those are left for ``score`` to refuse in turn)."""
    profiles = []
    for count in range(len(players) + 1):
        for members in itertools.combinations(players, count):
            try:
                profiles.append(profile(frozenset(members)))
            except Exception:
                continue
    return profiles


__all__ = [
    "CONFIDENCE",
    "DEPENDENT_AXES",
    "INSEPARABLE_AXES",
    "MAX_EXACT_PLAYERS",
    "SAMPLED_PERMUTATIONS",
    "Attribution",
    "Contribution",
    "Game",
    "attribute",
    "between",
    "coalition_profiles",
    "differing_axes",
    "hoeffding_bound",
    "players_of",
    "sampled_shapley_values",
    "shapley_values",
]

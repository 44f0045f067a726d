"""The two ways the recipes of ``generate.py`` make their choices: from a seeded
``random.Random`` (``RandomDraw``, for ``generate_cases``) or as Hypothesis draws
(``HypothesisDraw``, for ``strategy_for``, so that a failing case can be shrunk).
Hypothesis is imported only when its draws are used."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

T = TypeVar("T")


class Draw(Protocol):
    """The choices a recipe makes; each shrinks towards its smallest value."""

    def integer(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi``; shrinks to ``lo``."""

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options``; shrinks to the first."""

    def chance(self, p: float) -> bool:
        """True with probability ``p``; shrinks to False."""

    def many(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        """``lo..hi`` items from ``options``; shrinks to fewer, earlier items."""


class RandomDraw:
    """Choices from a seeded ``random.Random``, using only ``random()``."""

    def __init__(self, rng: random.Random) -> None:
        self._random = rng.random

    def integer(self, lo: int, hi: int) -> int:
        return lo + min(int(self._random() * (hi - lo + 1)), hi - lo)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.integer(0, len(options) - 1)]

    def chance(self, p: float) -> bool:
        return self._random() < p

    def many(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        return [self.choice(options) for _ in range(self.integer(lo, hi))]


class HypothesisDraw:
    """Choices as Hypothesis draws, so that a failing case can be shrunk."""

    def __init__(self, draw: DrawFn) -> None:
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(_integers(lo, hi))

    def choice(self, options: Sequence[T]) -> T:
        strategy: SearchStrategy[T] = _sampled(tuple(options))
        return self._draw(strategy)

    def chance(self, p: float) -> bool:
        return self._draw(_integers(0, 99)) >= 100 - round(p * 100)

    def many(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        from hypothesis import strategies as st

        items: SearchStrategy[T] = _sampled(tuple(options))
        return self._draw(st.lists(items, min_size=lo, max_size=hi))


@lru_cache(maxsize=256)
def _integers(lo: int, hi: int) -> SearchStrategy[int]:
    from hypothesis import strategies as st

    return st.integers(lo, hi)


@lru_cache(maxsize=1024)
def _sampled(options: tuple[T, ...]) -> SearchStrategy[T]:
    from hypothesis import strategies as st

    return st.sampled_from(options)

"""What ``metricdiff rank`` finds, as typed values: per metric and implementation,
each system's score with its 95% interval and each pair's paired tests; per pair
of systems, whether the order holds under every implementation and every profile
between the paper's and each one's, and where it is reversed, the difference of
the differences split by axis.  ``to_dict`` gives the JSON ``rank --format json``
prints; its keys are a stable interface."""

from __future__ import annotations

from typing import Any

import attrs

from metricdiff.comparison.attribution import Attribution
from metricdiff.comparison.gaps import signed
from metricdiff.conclusions.resampling import Interval, significant

#: What a pair's tests say, by the sign of Δ when significant.
BETTER, WORSE, NOT_SIGNIFICANT = "better", "worse", "not significant"


@attrs.frozen
class SystemScore:
    """One system's corpus score (points) and its interval under the scheme."""

    system: str
    score: float
    interval: Interval

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, **self.interval.to_dict()}


@attrs.frozen
class PairTest:
    """``system`` against ``baseline``: Δ = system − baseline (points) and the
    p-values of the paired bootstrap and of approximate randomization (None:
    not run, as ``--test`` says)."""

    baseline: str
    system: str
    delta: float
    p_bootstrap: float | None
    p_randomization: float | None

    @property
    def verdict(self) -> str:
        """``better`` or ``worse`` when every test run is significant (p < 0.05),
        else ``not significant``."""
        tests = [p for p in (self.p_bootstrap, self.p_randomization) if p is not None]
        if not tests or not all(significant(p) for p in tests) or self.delta == 0:
            return NOT_SIGNIFICANT
        return BETTER if self.delta > 0 else WORSE

    def to_dict(self) -> dict[str, Any]:
        return {"baseline": self.baseline, "system": self.system, "delta": self.delta,
                "p_bootstrap": self.p_bootstrap, "p_randomization": self.p_randomization,
                "verdict": self.verdict}


@attrs.frozen
class ImplementationRanking:
    """The systems under one implementation: scores, intervals, tests.
    ``from_scores``: resampled from segment scores (no statistics reported);
    ``exact``: a resample's score is the implementation's corpus score of it
    (not so for BLEU from scores).  ``error``: why it could not rank.
    ``recovered``: BLEU statistics recovered from the precisions and lengths
    it reports (``segment_rows._recovered``)."""

    impl: str
    signature: str
    scores: tuple[SystemScore, ...] = ()
    tests: tuple[PairTest, ...] = ()
    from_scores: bool = False
    exact: bool = True
    error: str = ""
    recovered: bool = False

    def score(self, system: str) -> SystemScore:
        return next(entry for entry in self.scores if entry.system == system)

    def test(self, baseline: str, system: str) -> PairTest:
        return next(t for t in self.tests if (t.baseline, t.system) == (baseline, system))

    @property
    def resampled_from(self) -> str:
        """``statistics``, ``statistics recovered from precisions`` or ``scores``."""
        if self.from_scores:
            return "scores"
        return "statistics recovered from precisions" if self.recovered else "statistics"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "signature": self.signature,
            "scores": {entry.system: entry.to_dict() for entry in self.scores},
            "tests": [test.to_dict() for test in self.tests],
            "resampled_from": self.resampled_from,
            "exact": self.exact,
        }
        if self.error:
            data["error"] = self.error
        return data


@attrs.frozen
class Reversal:
    """An implementation under which a pair's order is not the paper's:
    its Δ, and the difference of the differences (its Δ − the paper's Δ) split
    into the contribution of each axis on which its profile departs from the
    paper's plus a residual (None when it cannot be attributed: ``error``)."""

    impl: str
    delta: float
    attribution: Attribution | None
    residual: float | None
    error: str = ""

    def parts(self) -> str:
        """``tokenize −0.80, multi_ref 0.00, residual 0.00``: the largest first."""
        if self.attribution is None:
            return f"could not attribute: {self.error}"
        shown = [f"{c.axis} {signed(c.points)}" for c in self.attribution.contributions]
        return ", ".join([*shown, f"residual {signed(self.residual or 0.0)}"])

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"delta": self.delta, "residual": self.residual}
        if self.attribution is not None:
            data["contributions"] = {c.axis: c.points for c in self.attribution.contributions}
            data["values"] = {c.axis: [c.before, c.after]
                              for c in self.attribution.contributions}
            if self.attribution.method != "exact":
                data["method"] = self.attribution.method
                data["error_bound"] = self.attribution.error_bound
        if self.error:
            data["error"] = self.error
        return data


@attrs.frozen
class Stability:
    """Whether ``system`` vs ``baseline`` keeps the paper's order (the reference
    under the paper's profile: ``paper_delta``) under every implementation
    (``holds``; ``reversed``) and under every profile between the paper's and
    each implementation's (``profiles`` scored, ``profiles_reversed`` of them
    reversing the order; ``flipping_impls``: the implementations on whose way
    from the paper the order reverses somewhere)."""

    baseline: str
    system: str
    paper_delta: float
    holds: tuple[str, ...]
    reversed: tuple[Reversal, ...]
    profiles: int
    profiles_reversed: int
    flipping_impls: tuple[str, ...] = ()

    @property
    def stable(self) -> bool:
        return not self.reversed and not self.profiles_reversed

    def lines(self) -> list[str]:
        """``sys-b > baseline under 11 of 13 implementations (...)``, then one line
        per implementation that reverses it (``reversed under rouge-score (Δ
        −0.56): tokenize −2.58, ..., residual 0.00``), then the profiles between."""
        order = ">" if self.paper_delta > 0 else "<" if self.paper_delta < 0 else "="
        total = len(self.holds) + len(self.reversed)
        found = [f"{self.system} {order} {self.baseline} under {len(self.holds)} of {total} "
                 f"implementations (the paper's profile: Δ {signed(self.paper_delta)})"]
        found += [f"reversed under {flip.impl} (Δ {signed(flip.delta)}): {flip.parts()}"
                  for flip in self.reversed]
        if self.profiles_reversed:
            found.append(f"{self.profiles_reversed} of {self.profiles} profiles between the "
                         f"paper's and the implementations' reverse it (on the way to "
                         f"{', '.join(self.flipping_impls)})")
        elif self.profiles:
            found.append(f"it holds under all {self.profiles} profiles in between")
        return found

    def sentence(self) -> str:
        """``lines`` as one sentence, for a paper or a JSON reader."""
        return "; ".join(self.lines())

    def to_dict(self) -> dict[str, Any]:
        return {"baseline": self.baseline, "system": self.system,
                "paper_delta": self.paper_delta, "holds": list(self.holds),
                "reversed": {flip.impl: flip.to_dict() for flip in self.reversed},
                "profiles": self.profiles, "profiles_reversed": self.profiles_reversed,
                "flipping_impls": list(self.flipping_impls), "stable": self.stable,
                "sentence": self.sentence()}


@attrs.frozen
class MetricRanking:
    """Every implementation's ranking of the systems on one metric, and each
    pair's stability.  ``resampling``: the scheme's signature
    (``avg:bootstrap-sacrebleu|seed:12345|samples:1000``) and ``trials``."""

    metric: str
    report: str | None
    systems: tuple[str, ...]
    resampling: str
    trials: int
    implementations: tuple[ImplementationRanking, ...]
    stability: tuple[Stability, ...]

    def __getitem__(self, impl: str) -> ImplementationRanking:
        for entry in self.implementations:
            if entry.impl == impl:
                return entry
        raise KeyError(f"{impl!r} took no part in {self.metric} (there are: "
                       f"{', '.join(e.impl for e in self.implementations)})")

    def pair(self, baseline: str, system: str) -> Stability:
        return next(s for s in self.stability if (s.baseline, s.system) == (baseline, system))

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "report": self.report, "systems": list(self.systems),
                "resampling": self.resampling, "trials": self.trials,
                "implementations": {e.impl: e.to_dict() for e in self.implementations},
                "stability": [s.to_dict() for s in self.stability]}


@attrs.frozen
class Ranking:
    """``metricdiff rank``'s answer, metric by metric; ``warnings``: what was said
    about the input (text that looks prepared already)."""

    metrics: tuple[MetricRanking, ...]
    warnings: tuple[str, ...] = ()

    def __getitem__(self, metric: str) -> MetricRanking:
        for found in self.metrics:
            if found.metric == metric:
                return found
        raise KeyError(f"{metric!r} was not ranked")

    def to_dict(self) -> dict[str, Any]:
        return {"metrics": [found.to_dict() for found in self.metrics],
                "warnings": list(self.warnings)}


__all__ = [
    "BETTER",
    "NOT_SIGNIFICANT",
    "WORSE",
    "ImplementationRanking",
    "MetricRanking",
    "PairTest",
    "Ranking",
    "Reversal",
    "Stability",
    "SystemScore",
]

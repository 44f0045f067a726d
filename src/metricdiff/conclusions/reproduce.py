"""Which settings give a printed number? (``metricdiff reproduce``)

Given a score as a paper prints it (``27.3``, ``0.4173``) and the system output
with its references, every candidate is scored and kept when it rounds to the
printed number at the printed precision (``Printed.fits``: within half a unit of
the last digit shown, on the 0-100 scale or the 0-1 one):

0. each available implementation under its declared profile and each of its
   settings (``variants``; for ROUGE its own stemmer), run as itself;
1. the reference under every profile one axis away from the paper's profile and
   from each of those (``findings.explain.single_changes``);
2. the reference under every profile two axes away, pairing the single changes
   that moved the score at all (a change that moves nothing on this corpus
   cannot help a pair reproduce more than its partner alone).

The search stops at the first step with a match: the matches are the answers
with the fewest axes changed.  When nothing reproduces the number, the nearest
scores of every step are given instead.  A signature (ours, or sacrebleu's) is
checked the same way: the reference under the profile it states (the rest from
the implementation it names, or the paper's) and, where it can run, that
implementation itself.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

import attrs

from metricdiff.cases.case import Sample
from metricdiff.comparison.corpus import REFERENCE, ReferenceScorer, points
from metricdiff.errors import ConventionError, InputError
from metricdiff.findings.explain import FIXED_AXES, changed, single_changes
from metricdiff.impls import AnyAdapter, adapter_names, get_adapter, split_impl
from metricdiff.profiles import profile_of, with_overrides
from metricdiff.profiles.axes import affects
from metricdiff.profiles.metrics import Options, family, paper_options
from metricdiff.profiles.profile import parse_signature
from metricdiff.scoring import Request, score_requests

#: Candidates the two-axis step scores at most, across every base profile.
MAX_PAIRS = 4000
#: How many of the nearest profiles are shown when nothing reproduces.
NEAREST = 5


@attrs.frozen
class Printed:
    """A number as printed: its value and how many decimals it shows."""

    text: str
    value: float
    decimals: int

    @classmethod
    def parse(cls, text: str) -> Printed:
        try:
            number = Decimal(text.strip())
        except InvalidOperation:
            raise InputError(f"{text!r} is not a number as a paper prints one "
                             "(e.g. 27.3 or 0.4173)") from None
        if not number.is_finite() or number < 0:
            raise InputError(f"{text!r} is not a score (a finite number >= 0)")
        exponent = number.as_tuple().exponent
        assert isinstance(exponent, int)
        return cls(text.strip(), float(number), max(-exponent, 0))

    def fits(self, score: float) -> str | None:
        """``points`` or ``fraction`` when ``score`` (points: 0-100) rounds to the
        printed number on that scale, else None."""
        half = 0.5 * 10.0 ** -self.decimals + 1e-9
        if math.isfinite(score) and abs(score - self.value) <= half:
            return "points"
        if math.isfinite(score) and abs(score / 100.0 - self.value) <= half:
            return "fraction"
        return None

    def distance(self, score: float) -> float:
        """How far ``score`` is from the printed number, on the nearer scale (points)."""
        if not math.isfinite(score):
            return math.inf
        return min(abs(score - self.value), abs(score - 100.0 * self.value))


@attrs.frozen
class Candidate:
    """A configuration scored: ``impl`` ran it (an implementation as itself, or
    ``reference``), starting from ``base``'s profile (an implementation's
    declared one, or ``paper``) with ``changes`` (axis, value) on top."""

    impl: str
    base: str
    changes: tuple[tuple[str, str], ...]
    score: float
    signature: str
    scale: str | None = None

    @property
    def axes_changed(self) -> int:
        return len(self.changes)

    def label(self) -> str:
        """``sacrebleu`` (as itself), ``reference as sacrebleu, tokenize=intl``,
        ``reference, the paper's profile, smoothing=exp``."""
        changes = ", ".join(f"{axis}={value}" for axis, value in self.changes)
        if self.impl != REFERENCE:
            return f"{self.impl}" + (f" with {changes}" if changes else "")
        head = "reference, the paper's profile" if self.base == "paper" else \
            f"reference as {self.base}"
        return f"{head}, {changes}" if changes else head

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label(), "impl": self.impl, "base": self.base,
                "changes": dict(self.changes), "axes_changed": self.axes_changed,
                "score": self.score, "scale": self.scale, "signature": self.signature}


@attrs.frozen
class SignatureCheck:
    """A signature against the number: the profile it states (the rest from the
    implementation it names, or the paper's), the reference's score under it and,
    where it can run, the named implementation's."""

    signature: str
    source: str
    profile: dict[str, str]
    candidates: tuple[Candidate, ...]

    @property
    def fits(self) -> bool:
        return any(c.scale is not None for c in self.candidates)

    def to_dict(self) -> dict[str, Any]:
        return {"signature": self.signature, "source": self.source, "profile": self.profile,
                "fits": self.fits, "scores": [c.to_dict() for c in self.candidates]}


@attrs.frozen
class Reproduction:
    """``metricdiff reproduce``'s answer: the candidates that give the printed
    number (fewest axes changed first), or, when none does, the ``nearest``;
    ``searched``: how many configurations were scored."""

    printed: str
    metric: str
    matches: tuple[Candidate, ...]
    nearest: tuple[Candidate, ...]
    searched: int
    signature: SignatureCheck | None = None

    @property
    def reproduced(self) -> bool:
        return bool(self.matches)

    def to_dict(self) -> dict[str, Any]:
        return {"printed": self.printed, "metric": self.metric, "reproduced": self.reproduced,
                "matches": [c.to_dict() for c in self.matches],
                "nearest": [c.to_dict() for c in self.nearest], "searched": self.searched,
                "signature": None if self.signature is None else self.signature.to_dict()}


# ---------------------------------------------------------------- the search


def declared_profiles(metric: str, impls: Sequence[str] | None
                      ) -> list[tuple[str, AnyAdapter, Options]]:
    """(label, adapter, profile) of every available implementation (or ``impls``)
    under its declared profile and each of its settings."""
    found = []
    for name in impls if impls is not None else adapter_names():
        if name == REFERENCE:
            continue
        try:
            adapter = get_adapter(name, metric)
        except Exception:  # another family altogether
            continue
        if metric not in adapter.declared.metrics or adapter.unavailable_reason() is not None:
            continue
        if adapter.declared.user_profile and not adapter.settings:
            continue  # declares nothing: no profile to start from
        declared = adapter.options(metric)
        found.append((name, adapter, declared))
        for variant, overrides in sorted(adapter.declared.variants.items()):
            found.append((f"{name}+{variant}", adapter, adapter.options(metric, dict(overrides))))
        stemmer = adapter.declared.own_stemmer
        if family(metric) == "rouge" and stemmer and profile_of(declared)["stemmer"] != stemmer:
            with contextlib.suppress(Exception):  # a stemmer it cannot run here
                found.append((f"{name}+stemmed", adapter,
                              adapter.options(metric, {"stemmer": stemmer})))
    return found


def reproduce_score(printed: str, sample: Sample, metric: str,
                    impls: Sequence[str] | None = None, signature: str | None = None,
                    workers: int = 2, timeout: float = 120.0) -> Reproduction:
    """Every implementation and profile whose score on ``sample`` rounds to
    ``printed`` (see the module's docstring)."""
    number = Printed.parse(printed)
    family(metric)
    reference = ReferenceScorer(metric, sample)
    paper = paper_options(metric)
    declared = declared_profiles(metric, impls)
    requests = [Request(adapter, metric, [sample], options) for _, adapter, options in declared]
    outcomes = score_requests(requests, workers=workers, timeout=timeout) if requests else []
    tried: list[Candidate] = [_candidate(REFERENCE, "paper", (), reference(paper), paper,
                                         number, metric)]
    for (label, adapter, options), [outcome] in zip(declared, outcomes, strict=True):
        if outcome.result is not None:
            tried.append(_candidate(label, label, (), points(outcome.result, options), options,
                                    number, metric, adapter))
    bases = [("paper", paper), *((label, options) for label, _, options in declared)]
    steps = [tried]
    if not _matches(tried):
        singles = _singles(bases, reference, number, metric)
        steps.append(singles)
        if not _matches(singles):
            steps.append(_pairs(bases, singles, reference, number, metric))
    everything = [c for step in steps for c in step]
    matches = _matches(steps[-1])
    nearest = () if matches else tuple(sorted(everything, key=lambda c: (
        number.distance(c.score), c.axes_changed))[:NEAREST])
    check = None if signature is None else check_signature(signature, number, sample, metric,
                                                           reference, timeout)
    return Reproduction(number.text, metric, tuple(matches), nearest, len(everything), check)


def _matches(candidates: Sequence[Candidate]) -> list[Candidate]:
    found = [c for c in candidates if c.scale is not None]
    unique: dict[tuple[str, str], Candidate] = {}
    for candidate in sorted(found, key=lambda c: (c.axes_changed, c.impl == REFERENCE)):
        unique.setdefault((candidate.impl, candidate.signature), candidate)
    return list(unique.values())


def _candidate(impl: str, base: str, changes: tuple[tuple[str, str], ...], score: float,
               options: Options, number: Printed, metric: str,
               adapter: AnyAdapter | None = None) -> Candidate:
    signer = adapter if adapter is not None else get_adapter(REFERENCE, metric)
    return Candidate(impl, base, changes, score, signer.signature(metric, options),
                     number.fits(score))


def scored_profiles(reference: ReferenceScorer, profiles: Sequence[Options]
                    ) -> dict[Options, float]:
    """The reference's score under each of ``profiles`` it accepts, scored
    together (``ReferenceScorer.prepare``); the ones it refuses are left out."""
    reference.prepare(profiles)
    scores = {}
    for options in profiles:
        try:
            scores[options] = reference(options)
        except Exception:  # a profile the reference refuses on this corpus
            continue
    return scores


def _singles(bases: Sequence[tuple[str, Options]], reference: ReferenceScorer,
             number: Printed, metric: str) -> list[Candidate]:
    wanted: list[tuple[str, tuple[tuple[str, str], ...], Options]] = []
    for label, base in bases:
        for change in single_changes(base):
            options = changed(base, [change])
            if options is not None:
                wanted.append((label, (change,), options))
    scores = scored_profiles(reference, [options for _, _, options in wanted])
    return [_candidate(REFERENCE, label, changes, scores[options], options, number, metric)
            for label, changes, options in wanted if options in scores]


def _pairs(bases: Sequence[tuple[str, Options]], singles: Sequence[Candidate],
           reference: ReferenceScorer, number: Printed, metric: str) -> list[Candidate]:
    """Two changes from a base, both of which moved its score on their own."""
    base_scores = {label: reference(options) for label, options in bases}
    by_base = {label: options for label, options in bases}
    movers: dict[str, list[tuple[str, str]]] = {}
    for single in singles:
        if abs(single.score - base_scores[single.base]) > 1e-9:
            movers.setdefault(single.base, []).append(single.changes[0])
    wanted = []
    for label, changes in movers.items():
        for first, second in itertools.combinations(changes, 2):
            if first[0] == second[0]:
                continue
            options = changed(by_base[label], [first, second])
            if options is not None:
                wanted.append((label, (first, second), options))
    wanted = wanted[:MAX_PAIRS]
    scores = scored_profiles(reference, [options for _, _, options in wanted])
    return [_candidate(REFERENCE, label, changes, scores[options], options, number, metric)
            for label, changes, options in wanted if options in scores]


def check_signature(text: str, number: Printed, sample: Sample, metric: str,
                    reference: ReferenceScorer, timeout: float = 120.0) -> SignatureCheck:
    """Whether the number fits the signature ``text`` (ours or sacrebleu's)."""
    parsed = parse_signature(text)
    if parsed.metric != metric:
        raise ConventionError(f"the signature is of {parsed.metric}, not {metric}")
    name = split_impl(parsed.impl)[0] if parsed.impl else None
    adapter = get_adapter(name, metric) if name in adapter_names() else None
    base = adapter.default_options(metric) if adapter is not None else paper_options(metric)
    written = profile_of(base)
    stated = {axis: value for axis, value in parsed.profile.items()
              if affects(axis, getattr(base, "variant", None)) and axis not in FIXED_AXES
              and value != written[axis]}
    options = with_overrides(base, stated)
    label = name or "paper"
    found = [_candidate(REFERENCE, label, tuple(stated.items()), reference(options), options,
                        number, metric)]
    if adapter is not None and name != REFERENCE and adapter.unavailable_reason() is None:
        try:
            own = adapter.options(metric, stated)
        except Exception:  # it cannot honour what the signature states
            own = None
        if own is not None:
            [[outcome]] = score_requests([Request(adapter, metric, [sample], own)],
                                         timeout=timeout)
            if outcome.result is not None:
                found.append(_candidate(str(name), str(name), tuple(stated.items()),
                                        points(outcome.result, own), own, number, metric,
                                        adapter))
    return SignatureCheck(text.strip(), parsed.source, profile_of(options), tuple(found))


__all__ = ["Candidate", "Printed", "Reproduction", "SignatureCheck", "reproduce_score",
           "scored_profiles"]

"""The one small interface every implementation is driven through.

An adapter names its peer, reports the peer's version and availability, declares
the peer's default profile in the convention vocabulary, says which axis values it
can honour (and refuses the rest), and returns the same result type as the
reference, on the same scale.  Library quirks live here, never in the reference.
"""

from __future__ import annotations

import abc
import copy
from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar, cast

import attrs

from metricdiff._version import __version__
from metricdiff.errors import AdapterUnavailable, UnsupportedOption
from metricdiff.impls.quiet_import import import_quietly
from metricdiff.impls.settings import merged_settings, spec_text
from metricdiff.profiles import (
    AXES,
    BleuOptions,
    ConventionError,
    RougeOptions,
    profile_of,
    signature,
    with_overrides,
)
from metricdiff.profiles.metrics import paper_options
from metricdiff.statistics import BleuResult, RougeResult

#: The options and result types of one metric family.
OptionsT = TypeVar("OptionsT", BleuOptions, RougeOptions)
ResultT = TypeVar("ResultT", BleuResult, RougeResult)

#: Each segment's references, in order; ``None`` marks a missing reference.
References = Sequence[Sequence[str | None]]

#: Cases scored together (``score_cases``): each its hypotheses and references.
Cases = Sequence[tuple[Sequence[str], References]]

#: Metrics to score together, each with its options (``Adapter.score_many``).
Requests = Sequence[tuple[str, OptionsT]]

#: Marks an axis whose every value an adapter can honour.
ANY = None

AdapterT = TypeVar("AdapterT", bound="Adapter[Any, Any]")


@attrs.frozen
class Tolerance:
    """What an implementation can state, and why: its numbers are equal to an
    exact derivation when they differ by less than ``absolute`` (its printed
    precision: a number printed to d decimals stands for anything within half a
    unit of the last one, a whole unit when the derivation rounds too; or a floor
    under which its floats carry no meaning) plus ``relative`` times the value
    (float noise: the same formula in another order of operations).  Counts are whole numbers, so
    any tolerance below 1 compares them exactly.  A difference within it is not
    a finding of the audit unless ``--strict`` asks for every one
    (``Tolerance()``: float noise alone)."""

    absolute: float = 0.0
    relative: float = 1e-9
    reason: str = "Python floats: the same formula in another order of operations"

    def describe(self) -> str:
        """``absolute 1e-05, relative 1e-09 (why); differences within it are not
        findings (...)``: the line the audit and its reports give."""
        return (f"absolute {self.absolute:g}, relative {self.relative:g} ({self.reason}); "
                "differences within it are not findings (audit --strict shows them)")

    def allows(self, expected: float, actual: float, floor: float) -> bool:
        """Whether ``actual`` is within this tolerance (or ``floor``) of ``expected``."""
        bound = max(floor, self.absolute + self.relative * abs(expected))
        return abs(expected - actual) <= bound


@attrs.frozen
class Scored(Generic[ResultT]):
    """One metric on one corpus: the corpus result and, when asked for, each
    segment's."""

    corpus: ResultT
    sentences: tuple[ResultT, ...] | None = None


class Adapter(abc.ABC, Generic[OptionsT, ResultT]):
    """One peer's implementation of one metric family (BLEU or ROUGE).

    Subclasses set the class attributes and implement ``corpus_score``;
    ``profile`` declares the peer's defaults as departures from the paper's
    profile, ``settable`` maps each axis the adapter can change to the values (as
    text) it accepts, or ``ANY``.  An axis missing from ``settable`` is fixed at
    the declared default.
    """

    name: ClassVar[str]
    #: PyPI distribution whose version identifies the implementation.
    distribution: ClassVar[str | None] = None
    #: Modules that must import for the adapter to work.
    modules: ClassVar[tuple[str, ...]] = ()
    install_hint: ClassVar[str] = "pip install 'metricdiff[peers]'"
    #: ``bleu`` or ``rouge``; a peer with both has one adapter class per family.
    family: ClassVar[str] = "bleu"
    metrics: ClassVar[tuple[str, ...]] = ("bleu",)
    #: Whether ``metrics`` is what the implementation says it computes (a user's
    #: command never says: it is offered every metric of its family), and what
    #: to call it when it does not.
    metrics_declared: ClassVar[bool] = True
    kind: ClassVar[str] = "implementation"
    #: The declared default profile as its departures from the paper's (axis name
    #: -> typed value): every axis not named is at the paper's value.
    profile: ClassVar[Mapping[str, Any]] = {}
    settable: ClassVar[Mapping[str, Collection[str] | None]] = {}
    #: The stemmer the implementation itself offers (rouge-score's use_stemmer, the
    #: Perl script's -m), by its value on the ``stemmer`` axis; None if it has none.
    own_stemmer: ClassVar[str | None] = None
    #: Settings its users often choose instead of the defaults (sacrebleu's
    #: ``--tokenize intl``), by name: the audit runs each as one more participant,
    #: ``<name>+<variant>``, because papers report numbers under them too.
    variants: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    #: What its numbers can state: how closely they are expected to match an
    #: exact derivation (its printed precision, float noise).
    tolerance: ClassVar[Tolerance] = Tolerance()
    #: Values the peer has that metricdiff refuses, with the reason (axis -> value
    #: -> why): a tokenizer that downloads a model, say.
    refused: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    #: The settings this adapter runs under (``--impl 'NAME[AXIS=VALUE]'``, see
    #: ``metricdiff.impls.settings``): axis -> value text, which
    #: ``options`` applies; ``configured`` gives an adapter with settings.
    settings: Mapping[str, str] = MappingProxyType({})
    #: A user's own implementation (``python:``, ``cmd:``): its profile is what the
    #: user declares with ``-o``, unknown (and inferred by the audit) without it.
    user_profile: ClassVar[bool] = False
    #: How many cases ``metricdiff.scoring.execution`` hands to one ``score_cases`` call;
    #: an adapter with a high fixed cost per call (a process) wants more.
    batch_size: ClassVar[int] = 200
    #: Every ``score_cases`` call starts a process (the Perl script, once per batch):
    #: judging one case costs about what judging many in the same call costs.
    process_per_call: ClassVar[bool] = False
    #: Every case scored starts a process of its own (pyrouge, multi-bleu.perl, a
    #: ``cmd:`` program): each case judged costs a process start.
    process_per_case: ClassVar[bool] = False
    #: Whether a corpus always gets the same result (jury's ROUGE corpus score, a
    #: bootstrap median, differs from one run to the next: docs/peers.md).  The
    #: shrinker cannot judge a smaller corpus by an implementation that is not.
    reproducible: ClassVar[bool] = True
    #: At most this many generated cases in an audit (None: every one), for a peer
    #: whose every call costs processes or files (pyrouge runs the Perl script
    #: through folders of files per case): it still takes every fixture and every
    #: line of the user's own files.  ``audit_cost`` says why, for the audit's output.
    audit_generated_cases: ClassVar[int | None] = None
    audit_cost: ClassVar[str] = ""

    def configured(self: AdapterT, settings: Mapping[str, str]) -> AdapterT:
        """This adapter running under ``settings`` (``options`` refuses what it
        cannot honour); its class is the same, so a worker process that rebuilds
        it by class is given the options to run with."""
        clone = copy.copy(self)
        clone.settings = MappingProxyType(dict(settings))
        return clone

    @property
    def display_name(self) -> str:
        """How findings, reports and locks name it: ``name``, with its settings
        (``rouge-score[stemmer=porter-nltk]``)."""
        return spec_text(self.name, self.settings)

    def version(self) -> str:
        """The installed version of the peer, or ``unknown``."""
        if self.distribution is None:
            return __version__
        import importlib.metadata  # here: it costs start-up, and the reference needs none

        try:
            return importlib.metadata.version(self.distribution)
        except importlib.metadata.PackageNotFoundError:
            return "not-installed"

    def unavailable_reason(self) -> str | None:
        """Why the adapter cannot run here (with the install command), or None.
        What a module prints while it is imported is kept off standard output
        (``quiet_import``)."""
        for module in self.modules:
            try:
                import_quietly(module)
            except Exception as error:  # any import failure makes the peer unusable
                return (
                    f"{self.name}: cannot import {module} ({error}); "
                    f"install: {self.install_hint}"
                )
        return None

    def ensure_available(self) -> None:
        reason = self.unavailable_reason()
        if reason is not None:
            raise AdapterUnavailable(reason)

    def default_options(self, metric: str) -> OptionsT:
        """The declared default profile, the peer's value on every axis: the
        paper's profile for ``metric`` with the departures in ``profile``."""
        self.check_metric(metric)
        return cast(OptionsT, attrs.evolve(paper_options(metric), **self.profile))

    def check_metric(self, metric: str) -> None:
        if metric not in self.metrics:
            raise UnsupportedOption(
                f"{self.name} does not implement {metric!r} (it implements: "
                f"{', '.join(self.metrics)})"
            )

    def options(self, metric: str, overrides: Mapping[str, str] | None = None) -> OptionsT:
        """The default profile with the adapter's ``settings`` and ``overrides``
        applied (an axis in both must have one value), refusing what the peer
        cannot honour.  ROUGE's ``variant`` and ``n`` come from the metric name."""
        self.check_metric(metric)
        overrides = merged_settings(self.display_name, self.settings, overrides or {})
        for axis in ("variant", "n"):
            if axis in overrides and self.family == "rouge":
                raise ConventionError(f"axis {axis!r} is set by the metric name ({metric})")
        for axis, value in overrides.items():
            why = self.refused.get(axis, {}).get(value.strip())
            if why is not None:
                raise UnsupportedOption(
                    f"{self.name} cannot honour {axis}={value.strip()}: {why} "
                    f"({self._accepts(axis)})"
                )
        default = self.default_options(metric)
        options = with_overrides(default, overrides)
        self.check(default, options)
        return options

    def prepared(self, metric: str, options: OptionsT) -> None:
        """Refuse what cannot run before the peer is called: a metric it lacks, a
        missing library, an axis value it cannot honour."""
        self.check_metric(metric)
        self.ensure_available()
        self.check(self.default_options(metric), options)

    def check(self, default: OptionsT, options: OptionsT) -> None:
        """Raise UnsupportedOption for every axis set to a value the peer lacks."""
        wanted, declared = profile_of(options), profile_of(default)
        for axis, value in wanted.items():
            if value == declared[axis]:
                continue
            allowed = self.settable.get(axis, ())
            if allowed is not ANY and value not in allowed:
                raise UnsupportedOption(
                    f"{self.name} cannot honour {axis}={value} "
                    f"(its {AXES[axis].name} is {declared[axis]}; {self._accepts(axis)})"
                )

    def _accepts(self, axis: str) -> str:
        """The values of ``axis`` it can run with, as a refusal names them."""
        allowed = self.settable.get(axis, ())
        if allowed is ANY:
            return "accepts any value"
        return f"accepts: {', '.join(allowed)}" if allowed else "it is fixed"

    @abc.abstractmethod
    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: OptionsT
    ) -> ResultT:
        """The corpus score of ``hyps`` against each segment's ``refs``."""

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: OptionsT
    ) -> list[ResultT]:
        """Each segment scored on its own, under the same options."""
        return [
            self.corpus_score(metric, [hyp], [seg], options)
            for hyp, seg in zip(hyps, refs, strict=True)
        ]

    def score_many(self, metrics: Requests[OptionsT], hyps: Sequence[str], refs: References,
                   *, sentences: bool = False) -> list[Scored[ResultT]]:
        """Several metrics of this family on one corpus, each under its options,
        in order (``metricdiff score --metric rouge-1 --metric rouge-2``); with
        ``sentences``, each segment's results too.  The default scores one metric
        after the other; an adapter whose metrics can share work (the text
        pipeline: tokenizing each text once for every ROUGE variant) overrides it,
        with the same results."""
        return [
            Scored(
                self.corpus_score(metric, hyps, refs, options),
                tuple(self.sentence_scores(metric, hyps, refs, options)) if sentences else None,
            )
            for metric, options in metrics
        ]

    def score_cases(
        self, metric: str, cases: Cases, options: OptionsT
    ) -> list[ResultT | BaseException]:
        """Each case ``(hyps, refs)`` scored as a corpus, in order: its result, or
        the exception its ``corpus_score`` raised.  One case's failure never costs
        another its result.  The default calls ``corpus_score`` once per case; an
        adapter whose calls are expensive (a process each) overrides it to score
        many cases at once, with the same outcome per case."""
        outcomes: list[ResultT | BaseException] = []
        for hyps, refs in cases:
            try:
                outcomes.append(self.corpus_score(metric, hyps, refs, options))
            except Exception as error:  # recorded as this case's outcome
                outcomes.append(error)
        return outcomes

    def signature(self, metric: str, options: OptionsT) -> str:
        return signature(metric, f"{self.name}-{self.version()}", options)

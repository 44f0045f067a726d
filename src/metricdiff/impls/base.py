"""The one small interface every implementation is driven through.

An adapter names its peer, reports the peer's version and availability, declares
the peer's default profile in the convention vocabulary, says which axis values it
can honour (and refuses the rest), and returns the same result type as the
reference, on the same scale.  Library quirks live here, never in the reference.
"""

from __future__ import annotations

import abc
import copy
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar, cast

import attrs

from metricdiff._version import __version__
from metricdiff.cases.case import References
from metricdiff.errors import AdapterUnavailable, UnsupportedOption
from metricdiff.impls.declarations import Cost, Declared, Package, Tolerance
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

#: Cases scored together (``score_cases``): each its hypotheses and references.
Cases = Sequence[tuple[Sequence[str], References]]

#: Metrics to score together, each with its options (``Adapter.score_many``).
Requests = Sequence[tuple[str, OptionsT]]

#: Marks an axis whose every value an adapter can honour.
ANY = None

AdapterT = TypeVar("AdapterT", bound="Adapter[Any, Any]")

#: The class attributes an adapter once set, and where each is declared now.
_MOVED = {
    **{name: f"package = Package({name}=...)" for name in ("distribution", "modules")},
    "install_hint": "package = Package(extra=..., isolated=..., note=...)",
    **{name: f"declared = Declared({name}=...)" for name in (
        "metrics", "metrics_declared", "profile", "settable", "own_stemmer", "variants",
        "tolerance", "refused", "user_profile", "reproducible")},
    **{name: f"cost = Cost({name}=...)" for name in (
        "batch_size", "process_per_call", "process_per_case", "audit_generated_cases")},
    "audit_cost": "cost = Cost(audit_reason=...)",
}


@attrs.frozen
class Scored(Generic[ResultT]):
    """One metric on one corpus: the corpus result and, when asked for, each
    segment's."""

    corpus: ResultT
    sentences: tuple[ResultT, ...] | None = None


class Adapter(abc.ABC, Generic[OptionsT, ResultT]):
    """One peer's implementation of one metric family (BLEU or ROUGE).

    A subclass names itself (``name``, ``family``), says what it is in three
    frozen values (``package``, ``declared``, ``cost``: ``impls/declarations.py``)
    and implements ``corpus_score``.  ``declared.profile`` gives the peer's
    defaults as departures from the paper's profile, ``declared.settable`` maps
    each axis the adapter can change to the values (as text) it accepts, or
    ``ANY``; an axis missing from it is fixed at the declared default.

    Example:
        A BLEU whose one departure from the paper is sacrebleu's 13a tokenizer,
        and which can be set to another tokenizer, lowercasing or n-gram order;
        it computes with the reference's own functions here, where an adapter of
        a library calls the library.  The conformance kit checks it against the
        bundled fixtures::

            >>> from metricdiff.impls.reference.adapter import ReferenceBleuAdapter
            >>> from metricdiff.plugin import (ANY, Adapter, BleuOptions, BleuResult,
            ...                                Declared, UnsupportedOption)
            >>> class ThirteenA(Adapter[BleuOptions, BleuResult]):
            ...     name = "thirteen-a"
            ...     declared = Declared(profile={"tokenize": "13a"}, settable=dict.fromkeys(
            ...         ("tokenize", "lowercase", "max_order"), ANY))
            ...     def corpus_score(self, metric, hyps, refs, options):
            ...         self.prepared(metric, options)
            ...         return ReferenceBleuAdapter().corpus_score(metric, hyps, refs, options)
            >>> adapter = ThirteenA()
            >>> adapter.options("bleu", {"lowercase": "unicode"}).tokenize
            '13a'
            >>> try:
            ...     adapter.options("bleu", {"smoothing": "exp"})
            ... except UnsupportedOption as error:
            ...     print(str(error).split(" (")[0])
            thirteen-a cannot honour smoothing=exp
            >>> from metricdiff.testing import check_adapter
            >>> check_adapter(ThirteenA).checked > 0
            True
    """

    name: ClassVar[str]
    #: ``bleu`` or ``rouge``; a peer with both has one adapter class per family.
    family: ClassVar[str] = "bleu"
    kind: ClassVar[str] = "implementation"
    #: Where it comes from and how it is installed.
    package: ClassVar[Package] = Package()
    #: What it computes, its default profile, and what it can be set to.
    declared: ClassVar[Declared] = Declared()
    #: What running it costs, for the scheduler and the audit.
    cost: ClassVar[Cost] = Cost()
    #: The settings this adapter runs under (``--impl 'NAME[AXIS=VALUE]'``, see
    #: ``metricdiff.impls.settings``): axis -> value text, which
    #: ``options`` applies; ``configured`` gives an adapter with settings.
    settings: Mapping[str, str] = MappingProxyType({})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """An attribute that moved into ``package``, ``declared`` or ``cost`` is an
        error where it is set, not a declaration silently ignored."""
        super().__init_subclass__(**kwargs)
        for attribute, value in _MOVED.items():
            if attribute in vars(cls):
                raise TypeError(
                    f"{cls.__qualname__}.{attribute}: declare it as {value} "
                    "(metricdiff.plugin; docs/own-implementation.md)")

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
        if self.package.distribution is None:
            return __version__
        import importlib.metadata  # here: it costs start-up, and the reference needs none

        try:
            return importlib.metadata.version(self.package.distribution)
        except importlib.metadata.PackageNotFoundError:
            return "not-installed"

    def unavailable_reason(self) -> str | None:
        """Why the adapter cannot run here (with the install command), or None.
        What a module prints while it is imported is kept off standard output
        (``quiet_import``)."""
        for module in self.package.modules:
            try:
                import_quietly(module)
            except Exception as error:  # any import failure makes the peer unusable
                return self._cannot_import(module, str(error))
        return None

    def installed_reason(self) -> str | None:
        """``unavailable_reason`` told without importing the peer: a module
        whose top package is not installed (``importlib.util.find_spec``), for a
        run whose workers import the peer anyway (``compare`` of every available
        implementation), where one installed that fails to import then comes
        back as the worker's ``AdapterUnavailable``.  An adapter that tells its
        availability its own way is asked that way (``looks_up``: False)."""
        if not self.looks_up:
            return self.unavailable_reason()
        import importlib.util  # here: only this check needs it

        for module in self.package.modules:
            top = module.partition(".")[0]
            if importlib.util.find_spec(top) is None:
                return self._cannot_import(module, f"No module named {top!r}")
        return None

    @property
    def looks_up(self) -> bool:
        """Whether ``installed_reason`` looks the peer's modules up (the adapter
        tells its availability by importing them, as every adapter does unless
        it says otherwise)."""
        return type(self).unavailable_reason is Adapter.unavailable_reason

    def _cannot_import(self, module: str, why: str) -> str:
        hint = self.package.install_hint
        return f"{self.name}: cannot import {module} ({why})" + (
            f"; install: {hint}" if hint else "")

    def ensure_available(self) -> None:
        reason = self.unavailable_reason()
        if reason is not None:
            raise AdapterUnavailable(reason)

    def default_options(self, metric: str) -> OptionsT:
        """The declared default profile, the peer's value on every axis: the
        paper's profile for ``metric`` with the departures in ``profile``."""
        self.check_metric(metric)
        return cast(OptionsT, attrs.evolve(paper_options(metric), **self.declared.profile))

    def check_metric(self, metric: str) -> None:
        if metric not in self.declared.metrics:
            raise UnsupportedOption(
                f"{self.name} does not implement {metric!r} (it implements: "
                f"{', '.join(self.declared.metrics)})"
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
            why = self.declared.refused.get(axis, {}).get(value.strip())
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
            allowed = self.declared.settable.get(axis, ())
            if allowed is not ANY and value not in allowed:
                raise UnsupportedOption(
                    f"{self.name} cannot honour {axis}={value} "
                    f"(its {AXES[axis].name} is {declared[axis]}; {self._accepts(axis)})"
                )

    def _accepts(self, axis: str) -> str:
        """The values of ``axis`` it can run with, as a refusal names them."""
        allowed = self.declared.settable.get(axis, ())
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


__all__ = [
    "ANY",
    "Adapter",
    "Cases",
    "Cost",
    "Declared",
    "OptionsT",
    "Package",
    "References",
    "Requests",
    "ResultT",
    "Scored",
    "Tolerance",
]

"""A conformance kit for adapters: ``check_adapter(cls)`` checks that an adapter
says what it does and does what it says, in the spirit of Hypothesis's
``provider_conformance``.  metricdiff runs it over every built-in adapter; a
package that ships its own adapter runs it in its own tests
(docs/own-implementation.md)::

    from metricdiff.testing import Deviation, check_adapter

    def test_my_adapter_conforms():
        check_adapter(MyBleuAdapter, deviations=[
            Deviation("must_bleu_empty_corpus", "empty_policy: it raises on an empty corpus"),
        ])

It checks, and raises ``NonConformance`` (an ``AssertionError``, from
``metricdiff.errors``) listing every problem found:

* what it declares holds together: its metrics are of its family, its declared
  profile, settable axes, refused values and variants name axes of that family,
  its folder of its own (if any) is named after it, and a package it imports
  says how to install it;
* its declared profile is accepted as it is, for every metric it computes, and
  its signature names it (with its version, where it can run); a metric of the
  other family is refused, and its variants' settings are accepted;
* refusals raise the documented error: each value of ``declared.refused`` and a
  value of each axis it cannot set is refused with an ``UnsupportedOption`` of
  one line, naming it (and, for a refused value, the reason it declares);
* where it can run here, the reference configured as its declared profile
  reproduces it on the bundled fixtures (every ``must_`` and ``conv_`` case of its
  metrics, under each configuration the case names), within its declared
  tolerance, and every result it returns validates (no NaN, no recall above 1).

A disagreement it is known for (a defect of the library, say) is declared with
its reason as a ``Deviation``: it is then expected, and the kit fails when it no
longer happens, so that a library release that fixes it is noticed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from metricdiff.cases.bundled import fixtures_folder
from metricdiff.cases.case import Case, Expectation
from metricdiff.comparison.expectations import mismatches
from metricdiff.errors import NonConformance, UnsupportedOption
from metricdiff.impls import get_adapter
from metricdiff.impls.base import ANY, Adapter
from metricdiff.profiles import AXES, profile_of
from metricdiff.profiles.metrics import family, paper_options
from metricdiff.profiles.profile import axis_names
from metricdiff.scoring.validate import validate

AnyAdapter = Adapter[Any, Any]

#: Axes a ROUGE metric's name sets: never an override.
_SET_BY_METRIC = ("variant", "n")


def _as_dict(settings: Mapping[str, str]) -> dict[str, str]:
    return dict(settings)


@attrs.frozen
class Deviation:
    """A known disagreement of an adapter with the reference configured as the
    adapter declares itself, on one fixture case (its ID) under one of the case's
    configurations (``settings``: the expectation's ``when``, axis -> value; none
    for the case's own options), with its reason (the axis involved, the defect)."""

    case: str
    reason: str
    settings: Mapping[str, str] = attrs.field(factory=dict, converter=_as_dict)

    @property
    def key(self) -> tuple[str, str]:
        return self.case, _settings_text(self.settings)


@attrs.frozen
class Conformance:
    """What ``check_adapter`` checked: how many configurations of the fixtures it
    scored, the declared deviations it saw happen, and why it scored none when
    the adapter cannot run here (``unavailable``)."""

    adapter: str
    checked: int
    deviations: tuple[Deviation, ...]
    unavailable: str | None = None
    #: (case, settings text) -> how the adapter departed there (``raises ...``,
    #: ``score: expected X, got Y``), for each deviation seen.
    departures: Mapping[tuple[str, str], str] = attrs.field(factory=dict)
    #: The (case, settings text) configurations scored (the others it refused).
    scored: frozenset[tuple[str, str]] = frozenset()


def _settings_text(settings: Mapping[str, str]) -> str:
    return ",".join(f"{axis}={value}" for axis, value in settings.items())


def fixture_cases() -> list[Case]:
    """The bundled fixture cases the kit checks: every ``must_`` and ``conv_``
    case (a ``reject_`` case is bad input; ``fixtures/found/`` holds disagreements
    the audit found, on which peers part from the reference by construction)."""
    from metricdiff.cases.fixtures import load_all

    return [case for case in load_all(fixtures_folder())
            if case.verdict_class != "reject" and "/found/" not in case.location]


def check_adapter(cls: type[AnyAdapter], deviations: Iterable[Deviation] = (),
                  *, cases: Sequence[Case] | None = None) -> Conformance:
    """Check adapter class ``cls`` (see the module docstring), with its known
    ``deviations``, on ``cases`` (default: ``fixture_cases()``).  Raises
    NonConformance; returns what was checked."""
    adapter = cls()
    problems = _declarations(cls)
    if problems:  # its profile cannot even be built: nothing else can be asked
        raise NonConformance(getattr(cls, "name", cls.__name__), problems)
    problems = [*_options(adapter), *_refusals(adapter)]
    reason = adapter.unavailable_reason()
    seen: dict[tuple[str, str], Deviation] = {}
    checked: set[tuple[str, str]] = set()
    if reason is None:
        checked, seen = _reproduced(adapter, fixture_cases() if cases is None else cases)
    declared = {deviation.key: deviation for deviation in deviations}
    undeclared = [found for key, found in seen.items() if key not in declared]
    problems += [f"{found.case} [{_settings_text(found.settings) or 'as given'}]: "
                 f"{found.reason} (new: fix it or declare it as a Deviation with its reason)"
                 for found in undeclared]
    if reason is None:
        problems += [f"{d.case} [{_settings_text(d.settings) or 'as given'}]: declared to "
                     f"deviate ({d.reason}), but " + (
                         "it agrees now: remove the Deviation" if key in checked else
                         "no such configuration was scored (an unknown case, a metric it "
                         "lacks, or settings it refuses)")
                     for key, d in declared.items() if key not in seen]
    if problems:
        raise NonConformance(adapter.name, problems, undeclared)
    return Conformance(adapter.name, len(checked),
                       tuple(d for key, d in declared.items() if key in seen), reason,
                       {key: found.reason for key, found in seen.items()}, frozenset(checked))


def _declarations(cls: type[AnyAdapter]) -> list[str]:
    """What the class declares, checked for consistency."""
    problems = []
    if not isinstance(getattr(cls, "name", None), str) or not cls.name:
        return ["it has no name"]
    if cls.family not in ("bleu", "rouge"):
        return [f"family {cls.family!r} is not bleu or rouge"]
    declared, package = cls.declared, cls.package
    if not declared.metrics:
        problems.append("it declares no metric")
    problems += [f"metric {metric!r} is not a {cls.family} metric"
                 for metric in declared.metrics if family(metric) != cls.family]
    axes = set(axis_names(type(paper_options("bleu" if cls.family == "bleu" else "rouge-1"))))
    named = {"profile": declared.profile, "refused": declared.refused,
             **{f"variant {v!r}": s for v, s in declared.variants.items()}}
    for what, mapping in named.items():
        problems += [f"{what} names {axis!r}, not an axis of {cls.family}"
                     for axis in mapping if axis not in axes]
    # Settable axes of the other family are never asked about (the reference and a
    # user's own implementation accept every axis of both).
    problems += [f"settable names {axis!r}, not an axis" for axis in declared.settable
                 if axis not in AXES]
    if package.isolated is not None and package.isolated.name != cls.name:
        problems.append(f"its folder of its own is named {package.isolated.name!r}, "
                        f"not after it ({cls.name!r})")
    if package.modules and not package.install_hint:
        problems.append("it imports modules but says no way to install them "
                        "(Package.extra or Package.isolated)")
    return problems


def _options(adapter: AnyAdapter) -> list[str]:
    """The declared profile accepted as it is, its signature, the other family
    refused."""
    problems = []
    for metric in adapter.declared.metrics if _family_ok(adapter) else ():
        default = adapter.default_options(metric)
        try:
            accepted = adapter.options(metric)
        except UnsupportedOption as error:  # what this machine lacks (a data file)
            problems += _one_line_naming(adapter, error, f"{metric}: its declared profile")
            continue
        if accepted != default:
            problems.append(f"{metric}: options() is not the declared profile")
        signature = adapter.signature(metric, accepted)
        if not signature.startswith(f"{metric}|impl:{adapter.name}-"):
            problems.append(f"{metric}: its signature does not name it")
        elif "not-installed" in signature and adapter.unavailable_reason() is None:
            problems.append(f"{metric}: it can run, but its signature says not-installed")
        for variant, settings in adapter.declared.variants.items():
            try:
                adapter.options(metric, settings)
            except UnsupportedOption as error:
                problems.append(f"{metric}: its variant {variant!r} is refused ({error})")
    other = "rouge-1" if adapter.family == "bleu" else "bleu"
    try:
        adapter.options(other)
        problems.append(f"{other}: a metric of the other family is not refused")
    except UnsupportedOption:
        pass
    return problems


def _family_ok(adapter: AnyAdapter) -> bool:
    return all(family(metric) == adapter.family for metric in adapter.declared.metrics)


def _refusals(adapter: AnyAdapter) -> list[str]:
    """Each refused value, and a value of each axis it cannot set, refused with one
    line naming it."""
    if not adapter.declared.metrics or not _family_ok(adapter):
        return []
    metric = adapter.declared.metrics[0]
    profile = profile_of(adapter.default_options(metric))
    wanted = [(axis, value, why) for axis, values in adapter.declared.refused.items()
              for value, why in values.items()]
    for axis in profile:
        settable = adapter.declared.settable.get(axis, ())
        if axis in _SET_BY_METRIC or settable is ANY or settable:
            continue
        other = [value for value in AXES[axis].values if value != profile[axis]]
        if other:
            wanted.append((axis, other[0], ""))
    problems = []
    for axis, value, why in wanted:
        try:
            adapter.options(metric, {axis: value})
        except UnsupportedOption as error:
            problems += _one_line_naming(adapter, error, f"{axis}={value}")
            if why and why not in str(error):
                problems.append(f"{axis}={value}: the refusal does not give its reason")
            continue
        problems.append(f"{axis}={value}: accepted, but it is "
                        + ("refused" if why else "not settable"))
    return problems


def _one_line_naming(adapter: AnyAdapter, error: Exception, what: str) -> list[str]:
    message = str(error)
    if "\n" in message or adapter.name not in message:
        return [f"{what}: refused, but not in one line naming {adapter.name}: {message!r}"]
    return []


Departures = dict[tuple[str, str], Deviation]


def _reproduced(adapter: AnyAdapter,
                cases: Sequence[Case]) -> tuple[set[tuple[str, str]], Departures]:
    """The (case, settings) configurations scored, and (case, settings) -> how the
    adapter departs from the reference configured as it declares itself (a
    Deviation whose reason says what happened)."""
    found: Departures = {}
    checked: set[tuple[str, str]] = set()
    for case in cases:
        if case.metric not in adapter.declared.metrics:
            continue
        case = case.for_metric(case.metric)
        settings_of = [dict(e.when) for e in case.expectations] or [{}]
        for settings in [dict(s) for s in {tuple(s.items()): s for s in settings_of}.values()]:
            try:
                options = adapter.options(case.metric, {**case.options, **settings})
                departure = _departure(adapter, case, options)
            except UnsupportedOption:
                continue  # a configuration or an input it refuses: not applicable
            checked.add((case.id, _settings_text(settings)))
            if departure:
                found[(case.id, _settings_text(settings))] = Deviation(case.id, departure,
                                                                       settings)
    return checked, found


def _departure(adapter: AnyAdapter, case: Case, options: Any) -> str:
    """How the adapter's results on ``case`` -- the corpus's, then each segment's
    -- depart from the reference's under the same options (``""``: they do not).
    UnsupportedOption: the adapter refuses the input."""
    reference = get_adapter("reference", case.metric)
    scorers = (("", lambda a: [a.corpus_score(case.metric, case.hyps, case.refs, options)]),
               ("segments: ", lambda a: a.sentence_scores(case.metric, case.hyps, case.refs,
                                                          options)))
    for what, score in scorers:
        try:
            expected = score(reference)
        except Exception as error:  # the definition refuses it: so must the adapter
            expected = error
        try:
            actual = score(adapter)
        except UnsupportedOption:
            raise
        except Exception as error:  # a peer that raises disagrees, unless the reference does
            if isinstance(expected, Exception):
                continue
            return f"{what}raises {type(error).__name__}: {error}"
        if isinstance(expected, Exception):
            return f"{what}a result where the reference raises {type(expected).__name__}"
        departure = _compared(adapter, expected, actual)
        if departure:
            return what + departure
    return ""


def _compared(adapter: AnyAdapter, expected: Sequence[Any], actual: Sequence[Any]) -> str:
    """How results ``actual`` depart from ``expected`` (``""``: they do not)."""
    if len(actual) != len(expected):
        return f"{len(actual)} results where the reference gives {len(expected)}"
    for index, (mine, theirs) in enumerate(zip(actual, expected, strict=True)):
        where = f"[{index}] " if len(actual) > 1 else ""
        invalid = validate(mine)
        if invalid:
            return f"{where}invalid result: {invalid}"
        as_expected = Expectation({}, theirs.to_json(), "reference", 0.0)
        problems = mismatches(mine, as_expected, adapter.declared.tolerance)
        if problems:
            return where + "; ".join(problems)
    return ""


__all__ = ["Conformance", "Deviation", "NonConformance", "check_adapter", "fixture_cases"]

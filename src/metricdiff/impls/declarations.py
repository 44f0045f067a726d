"""What an adapter declares about its implementation, in three small frozen values
beside its identity (``name``, ``family``, ``kind``, ``version()``):

* ``Package``: where the implementation comes from and how it is installed -- its
  distribution, the modules it imports, the extra of metricdiff that brings them,
  and, for a peer that cannot share the main environment, the pinned folder of
  its own (``Isolated``).  ``metricdiff install-peers``, its ``--help``, the
  install hints of unavailable implementations and the tests of the extras are
  all derived from it, so they cannot drift apart.
* ``Declared``: what it computes and how -- its metrics, its default profile (as
  departures from the paper's), the axis values it can be set to or refuses, the
  settings its users often choose, and how closely its numbers can match an exact
  derivation (``Tolerance``).
* ``Cost``: what it costs to run, for the scheduler and the audit -- how many cases
  one call takes, whether calls or cases start processes, and a cap on the
  generated cases of an audit.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any

import attrs

#: The command that installs the isolated peers.
INSTALL_PEERS = "metricdiff install-peers"

_EMPTY: Mapping[str, Any] = MappingProxyType({})


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
class Isolated:
    """A peer that cannot share the main environment (its top-level package has
    another peer's name, or its pins would downgrade the main environment's), so
    ``metricdiff install-peers NAME`` pip-installs it with ``--no-deps`` into a
    folder of its own, from which ``impls/peers/_isolated.py`` loads it."""

    #: The folder's name under the peers directory and ``install-peers``' NAME:
    #: the adapter's ``name``.
    name: str
    #: The PyPI distribution installed there, and its pinned version.
    distribution: str
    version: str
    #: The top-level package it installs (what is loaded from the folder).
    package: str
    #: What its import needs that the main environment lacks or has at a clashing
    #: version, pinned, installed beside it.
    beside: tuple[str, ...] = ()
    #: Whether a copy in the main environment may stand in when the folder is
    #: missing (not for an old version of a package metricdiff itself pins).
    main_env_fallback: bool = True
    #: (module, requirement): installed beside it only when the main environment
    #: cannot import the module (py-rouge's ``pkg_resources``: ``setuptools<81``).
    beside_if_missing: tuple[tuple[str, str], ...] = ()

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"

    @property
    def requirements(self) -> tuple[str, ...]:
        """Everything pinned into its folder: the peer and what goes beside it."""
        return (self.requirement, *self.beside)


@attrs.frozen
class Package:
    """Where an implementation comes from and how it is installed."""

    #: The PyPI distribution whose version identifies the implementation (None:
    #: metricdiff's own version).
    distribution: str | None = None
    #: Modules of the main environment that must import for it to work.
    modules: tuple[str, ...] = ()
    #: The extra of metricdiff (pyproject.toml) that installs ``distribution`` and
    #: ``modules`` in the main environment; None when no extra does.
    extra: str | None = None
    #: Installed into a folder of its own by ``metricdiff install-peers``.
    isolated: Isolated | None = None
    #: Said after the install command (``(it compiles with g++ and OpenMP)``), or
    #: alone for a package that metricdiff does not install (a third party's
    #: adapter: ``pip install my-package``).
    note: str = ""

    @property
    def install_hint(self) -> str:
        """The commands that install it (``""`` when nothing does)."""
        pip = f"pip install 'metricdiff[{self.extra}]'" if self.extra else ""
        if self.isolated is None:
            hint = pip
        else:
            hint = f"{INSTALL_PEERS} {self.isolated.name}" + (f" (and {pip})" if pip else "")
        return " ".join(part for part in (hint, self.note) if part)


@attrs.frozen
class Declared:
    """What an implementation computes, and how: the declared default profile in
    the convention vocabulary, and what it can be set to."""

    #: The metrics it computes (of its adapter's ``family``).
    metrics: tuple[str, ...] = ("bleu",)
    #: The default profile as its departures from the paper's (axis name -> typed
    #: value): every axis not named is at the paper's value.
    profile: Mapping[str, Any] = _EMPTY
    #: Each axis it can be set to another value on -> the values (as text) it
    #: accepts, or ``ANY`` (None); an axis missing here is fixed at the declared default.
    settable: Mapping[str, Collection[str] | None] = _EMPTY
    #: Values it has that metricdiff refuses, with the reason (axis -> value ->
    #: why): a tokenizer that downloads a model, say.
    refused: Mapping[str, Mapping[str, str]] = _EMPTY
    #: Settings its users often choose instead of the defaults (sacrebleu's
    #: ``--tokenize intl``), by name: the audit runs each as one more participant,
    #: ``<name>+<variant>``, because papers report numbers under them too.
    variants: Mapping[str, Mapping[str, str]] = _EMPTY
    #: How closely its numbers are expected to match an exact derivation (its
    #: printed precision, float noise).
    tolerance: Tolerance = Tolerance()
    #: The stemmer it offers itself (rouge-score's use_stemmer, the Perl script's
    #: -m), by its value on the ``stemmer`` axis; None if it has none.
    own_stemmer: str | None = None
    #: Whether a corpus always gets the same result (jury's ROUGE corpus score, a
    #: bootstrap median, differs from one run to the next: docs/peers.md).  The
    #: shrinker cannot judge a smaller corpus by an implementation that is not.
    reproducible: bool = True
    #: Whether ``metrics`` is what the implementation says it computes (a user's
    #: command never says: it is offered every metric of its family).
    metrics_declared: bool = True
    #: A user's own implementation (``python:``, ``cmd:``): its profile is what the
    #: user declares with ``-o``, unknown (and inferred by the audit) without it.
    user_profile: bool = False


@attrs.frozen
class Cost:
    """What running an implementation costs, for the scheduler and the audit."""

    #: How many cases ``metricdiff.scoring.execution`` hands to one ``score_cases``
    #: call; an implementation with a high fixed cost per call (a process) wants more.
    batch_size: int = 200
    #: Every ``score_cases`` call starts a process (the Perl script, once per batch):
    #: judging one case costs about what judging many in the same call costs.
    process_per_call: bool = False
    #: Every case scored starts a process of its own (pyrouge, multi-bleu.perl, a
    #: ``cmd:`` program): each case judged costs a process start.
    process_per_case: bool = False
    #: At most this many generated cases in an audit (None: every one), for a peer
    #: whose every call costs processes or files (pyrouge runs the Perl script
    #: through folders of files per case): it still takes every fixture and every
    #: line of the user's own files.  ``audit_reason`` says why, for the audit's output.
    audit_generated_cases: int | None = None
    audit_reason: str = ""
    #: One call's answer for a case serves every metric, remembered in the worker
    #: that made it (pyrouge: one Perl run per text prints every metric): the
    #: next metric's chunk of those cases costs a whole run in any other worker.
    remembers_every_metric: bool = False
    #: What the worker remembers is keyed by the texts, not by the profile (the
    #: reference's tokens and pair counts): a chunk of cases under another
    #: profile is cheapest where the same cases were scored.
    remembers_every_profile: bool = False


__all__ = ["INSTALL_PEERS", "Cost", "Declared", "Isolated", "Package", "Tolerance"]

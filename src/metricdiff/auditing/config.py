"""How to audit: which implementations take part and how they are run, in one
frozen object that the command line (``cli/audit.py``) and the Python API build
alike and ``audit_metrics`` takes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, TextIO

import attrs

if TYPE_CHECKING:
    from metricdiff.auditing.journal import Journal
    from metricdiff.scoring.jobs import Executor


def _names(impls: Iterable[str] | None) -> tuple[str, ...] | None:
    return None if impls is None else tuple(impls)


def _pairs(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(pairs)


def _quiet(_message: str) -> None:
    """Says nothing: the default ``progress``."""


@attrs.frozen
class AuditConfig:
    """How to audit each metric.

    - ``impls``: the implementations that take part (None: every one registered);
    - ``user_profile``: the profile the user declares (``-o``) for their own
      implementations (``python:``, ``cmd:``); without one, theirs take part as
      ``unknown`` and their profile is inferred;
    - ``workers``, ``timeout``: worker processes, and the seconds one
      implementation may take on one batch;
    - ``minimise``: show each finding on its smallest example (``findings/minimise.py``);
    - ``executor``: where the scoring runs (None: this machine's worker processes;
      the shrinker's many small runs always stay here);
    - ``journal``: records every case scored and skips those it already has
      (``--resume``);
    - ``progress``: called with a line at each step (which metric, how many
      findings); ``progress_stream``: where a live progress line is drawn;
    - ``strict``: hold every implementation to float noise alone, so that
      differences within what its tolerance says it can state are findings too;
    - ``all_cases``: run every participant on every generated case, the costly
      ones too (an adapter's ``cost.audit_generated_cases``; ``--all-cases``);
    - ``pairs``: pairs of participants (by name) whose differences are derived
      from the star and explained (``--pair A,B``; ``auditing/pairs.py``).
    """

    impls: tuple[str, ...] | None = attrs.field(default=None, converter=_names)
    user_profile: Mapping[str, str] = attrs.field(factory=dict)
    workers: int = 1
    timeout: float = 60.0
    minimise: bool = True
    executor: Executor | None = None
    journal: Journal | None = None
    progress: Callable[[str], None] = _quiet
    progress_stream: TextIO | None = None
    strict: bool = False
    all_cases: bool = False
    pairs: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_pairs)

"""The Python API's arguments, checked as the command line checks its options:
names that are lists of known names, job counts and timeouts within bounds, one
of the allowed values; each a one-line ``ConventionError`` otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from metricdiff import limits
from metricdiff.cases.case import References
from metricdiff.errors import ConventionError

if TYPE_CHECKING:
    from metricdiff.cases.prepared import PreparedInput


def names(value: object, what: str, known: Sequence[str] | None = None) -> list[str]:
    """A list of names (``metrics``, ``impls``), checked: not a bare string (whose
    letters would be taken for names), each a string, each one of ``known``."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        example = f"[{value!r}]" if isinstance(value, str) else "[...]"
        raise ConventionError(f"{what} must be a list of names, such as {example}, not "
                              f"{type(value).__name__} {value!r}")
    for item in value:
        if not isinstance(item, str):
            raise ConventionError(f"{what}: {item!r} is not a name (a string)")
        if known is not None and item not in known:
            raise ConventionError(f"{what}: unknown {what.rstrip('s')} {item!r} (known: "
                                  f"{', '.join(known)})")
    return list(value)


def metric_list(metrics: object) -> list[str] | None:
    from metricdiff.profiles.metrics import METRICS

    return None if metrics is None else names(metrics, "metrics", METRICS)


def impl_list(impls: object, metrics: Sequence[str]) -> list[str] | None:
    """``impls`` checked as the command line checks ``--impl``: each known, each
    computing one of ``metrics`` (None: every available implementation)."""
    from metricdiff.impls import check_named

    if impls is None:
        return None
    named = names(impls, "impls")
    check_named(named, metrics)
    return named


def workers_and_timeout(jobs: object, timeout: object) -> tuple[int, float]:
    """``jobs`` and ``timeout`` checked as ``--jobs`` and ``--timeout`` are."""
    try:
        workers = limits.whole_number(jobs, 1, limits.MAX_JOBS)
    except ValueError as error:
        raise ConventionError(f"jobs {error}") from None
    try:
        seconds = limits.seconds(timeout)
    except ValueError as error:
        raise ConventionError(f"timeout {error}") from None
    return workers, seconds


def warn_if_prepared_input(hyps: Sequence[str], refs: References) -> PreparedInput | None:
    """A ``MetricdiffWarning`` when the text looks tokenized, escaped, split
    into subwords or lowercased already (``cases/prepared.py``); what it found."""
    from metricdiff.cases.prepared import warn_if_prepared

    return warn_if_prepared(hyps, refs, stacklevel=4)


#: What ``report=`` may be: the ROUGE number compared.
REPORTS = ("f", "recall", "precision")
#: What ``rank``'s ``test=`` may be.
TESTS = ("bootstrap", "ar", "both")


def one_of(name: str, value: object, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ConventionError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def metric_names() -> tuple[str, ...]:
    from metricdiff.profiles.metrics import METRICS

    return METRICS


__all__ = ["REPORTS", "TESTS", "impl_list", "metric_list", "metric_names", "names", "one_of",
           "warn_if_prepared_input", "workers_and_timeout"]

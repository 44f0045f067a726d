"""How a failure of the script is reported: per segment, never costing the others.

Its exceptions are the peer's own, under ``errors.ImplementationError`` (exit
status 1: a finding about the script, not metricdiff refusing its input).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from metricdiff.errors import ImplementationError
from metricdiff.statistics import RougeResult


@attrs.frozen
class CaseFailure:
    """A segment the script could not score: its index and the script's message."""

    index: int
    message: str


class Rouge155Error(ImplementationError, RuntimeError):
    """Some segments killed the ROUGE-1.5.5 script; ``results`` holds every other
    segment's result (``None`` for the failed ones) and ``failures`` the script's
    messages."""

    def __init__(
        self, failures: Sequence[CaseFailure], results: Sequence[RougeResult | None]
    ) -> None:
        self.failures = list(failures)
        self.results = list(results)
        first = self.failures[0]
        more = f" (and {len(self.failures) - 1} more)" if len(self.failures) > 1 else ""
        super().__init__(
            f"ROUGE-1.5.5.pl failed on segment {first.index}{more}: {first.message}"
        )


class Rouge155ScriptDied(ImplementationError):
    """The ROUGE-1.5.5 script died on a batch; the adapter catches it and bisects
    the batch to find the segments that kill it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

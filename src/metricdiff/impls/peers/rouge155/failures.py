"""How a failure of the script is reported: per segment, never costing the others."""

from __future__ import annotations

import attrs


@attrs.frozen
class CaseFailure:
    """A segment the script could not score: its index and the script's message."""

    index: int
    message: str


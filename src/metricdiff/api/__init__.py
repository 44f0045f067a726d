"""metricdiff from Python (``import metricdiff``; see docs/api.md): ``score``,
``compare``, ``audit``, ``implementations`` (``api/scores.py``) and ``rank``,
``reproduce``, ``sensitivity`` (``api/conclusions.py``), their arguments checked
as the command line checks its options (``api/arguments.py``).

References come per segment, as in Hugging Face ``evaluate``: ``refs[i]`` is the
list of references of ``hyps[i]``; reference streams as sacrebleu takes them go
only through the keyword ``ref_streams=``.  Every result is a frozen value with
``to_dict()``, the JSON the command line prints for the same question."""

from __future__ import annotations

from metricdiff.api.conclusions import rank, reproduce, sensitivity
from metricdiff.api.scores import (
    AuditResult,
    Implementation,
    Score,
    audit,
    compare,
    implementations,
    per_segment,
    score,
)

__all__ = ["AuditResult", "Implementation", "Score", "audit", "compare", "implementations",
           "per_segment", "rank", "reproduce", "score", "sensitivity"]

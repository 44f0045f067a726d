"""metricdiff: finds, explains and documents every difference between BLEU and
ROUGE implementations.

The Python API (docs/api.md), imported on first use so that ``import metricdiff``
stays light::

    metricdiff.score(impl, metric, hyps, refs)       # one implementation's corpus score
    metricdiff.compare(hyps, refs, metrics=[...])    # every score, every gap by axis
    metricdiff.audit(hyps, refs, metrics=[...])      # disagreements and their causes
    metricdiff.implementations()                     # who can run here
    metricdiff.rank(systems={"a": ..., "b": ...}, refs=refs)  # does "b beats a" hold?
    metricdiff.reproduce("27.3", hyps, refs)         # which settings give a printed score
    metricdiff.sensitivity(hyps, refs)               # each convention's effect here

``refs[i]`` is the list of references of ``hyps[i]``; sacrebleu-style reference
streams go through ``ref_streams=``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from metricdiff._version import __version__

if TYPE_CHECKING:
    from metricdiff.api import AuditResult as AuditResult
    from metricdiff.api import Implementation as Implementation
    from metricdiff.api import Score as Score
    from metricdiff.api import audit as audit
    from metricdiff.api import compare as compare
    from metricdiff.api import implementations as implementations
    from metricdiff.api import rank as rank
    from metricdiff.api import reproduce as reproduce
    from metricdiff.api import score as score
    from metricdiff.api import sensitivity as sensitivity
    from metricdiff.comparison.gaps import Comparison as Comparison
    from metricdiff.conclusions.ranking import Ranking as Ranking
    from metricdiff.conclusions.reproduce import Reproduction as Reproduction
    from metricdiff.conclusions.sensitivity import Sensitivity as Sensitivity
    from metricdiff.errors import MetricdiffError as MetricdiffError
    from metricdiff.errors import MetricdiffWarning as MetricdiffWarning
    from metricdiff.findings.finding import Finding as Finding

#: Public name -> the module that defines it, imported on first use (PEP 562).
_LAZY = {
    "score": "metricdiff.api", "compare": "metricdiff.api", "audit": "metricdiff.api",
    "implementations": "metricdiff.api", "Score": "metricdiff.api",
    "AuditResult": "metricdiff.api", "Implementation": "metricdiff.api",
    "Comparison": "metricdiff.comparison.gaps", "Finding": "metricdiff.findings.finding",
    "MetricdiffError": "metricdiff.errors", "MetricdiffWarning": "metricdiff.errors",
    "rank": "metricdiff.api", "reproduce": "metricdiff.api", "sensitivity": "metricdiff.api",
    "Ranking": "metricdiff.conclusions.ranking",
    "Reproduction": "metricdiff.conclusions.reproduce",
    "Sensitivity": "metricdiff.conclusions.sensitivity",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'metricdiff' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})

"""metricdiff: finds, explains and documents every difference between BLEU and
ROUGE implementations.

The Python API (docs/api.md), imported on first use so that ``import metricdiff``
stays light::

    metricdiff.score(impl, metric, hyps, refs)       # one implementation's corpus score
    metricdiff.compare(hyps, refs, metrics=[...])    # every score, every gap by axis
    metricdiff.audit(hyps, refs, metrics=[...])      # disagreements and their causes
    metricdiff.implementations()                     # who can run here

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
    from metricdiff.api import score as score
    from metricdiff.comparison.gaps import Comparison as Comparison
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
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'metricdiff' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})

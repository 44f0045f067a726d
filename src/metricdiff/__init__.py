"""metricdiff: finds, explains and documents every difference between BLEU and
ROUGE implementations.

The Python API (docs/api.md), imported on first use so that ``import metricdiff``
stays light::

    metricdiff.score(impl, metric, hyps, refs)       # one implementation's corpus score
    metricdiff.compare(hyps, refs, metrics=[...])    # every score, every gap by axis
    metricdiff.audit(hyps, refs, metrics=[...])      # disagreements and their causes
    metricdiff.implementations()                     # who can run here

``refs[i]`` is the list of references of ``hyps[i]``; sacrebleu-style reference
streams go through ``ref_streams=``.  ``metricdiff.audit`` and
``metricdiff.implementations`` are also the packages of those names.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from metricdiff.api import compare as compare
    from metricdiff.api import score as score

#: Name -> where it lives: a function of ``metricdiff.api``, or a callable package.
_LAZY = {"score": "metricdiff.api", "compare": "metricdiff.api",
         "audit": "metricdiff.audit", "implementations": "metricdiff.implementations"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'metricdiff' has no attribute {name!r}")
    module = importlib.import_module(_LAZY[name])
    return getattr(module, name) if _LAZY[name] == "metricdiff.api" else module

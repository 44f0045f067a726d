"""Scoring implementations: ``score``, ``score_cases`` and ``score_requests``
(``isolated.py``) are the one way every command scores (``score_profiles``: the
reference under many profiles of one corpus); ``execution.run_jobs``
is the machinery under them (and under the audit)."""

from metricdiff.scoring.isolated import (
    DEFAULT_TIMEOUT,
    Request,
    score,
    score_cases,
    score_profiles,
    score_requests,
)
from metricdiff.scoring.jobs import CaseResult

__all__ = [
    "DEFAULT_TIMEOUT",
    "CaseResult",
    "Request",
    "score",
    "score_cases",
    "score_profiles",
    "score_requests",
]

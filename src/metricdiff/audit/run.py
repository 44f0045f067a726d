"""The audit of several metrics, one after another: each scored
(``score_metric``), explained (``explain_metric``, and the table of the user's
corpus, ``corpus_table``) and finished (``finish_metric``), handed to the
caller as it is done, in the order of the plan."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from metricdiff.audit.config import AuditConfig
from metricdiff.audit.metric import (
    Explained,
    MetricAudit,
    Scored,
    explain_metric,
    finish_metric,
    score_metric,
)
from metricdiff.cases.case import Case
from metricdiff.comparison.gaps import MetricComparison
from metricdiff.findings.infer import Inference
from metricdiff.findings.witness import Participant

#: The table of the user's corpus for one metric, from its scores and the
#: profiles inferred for the participants that declare none (``corpus_table``).
Table = Callable[[Scored, Sequence[Inference]], MetricComparison]

#: Who takes part in each metric, and who was left out and why
#: (``participants``), when the caller has asked already.
Chosen = Mapping[str, tuple[list[Participant], list[str]]]


def audit_metrics(
    plan: Mapping[str, Sequence[Case]],
    config: AuditConfig,
    table: Table | None = None,
    chosen: Chosen | None = None,
) -> Iterator[tuple[MetricAudit, MetricComparison | None]]:
    """Each metric of ``plan`` audited on its cases, with its ``table`` if one
    is asked for, in the order of ``plan``."""
    for metric, cases in plan.items():
        scored = score_metric(metric, cases, config, (chosen or {}).get(metric))
        explained, made = _explain(scored, config, table)
        yield finish_metric(scored, explained, config), made


def _explain(scored: Scored, config: AuditConfig, table: Table | None
             ) -> tuple[Explained, MetricComparison | None]:
    explained = explain_metric(scored, config.progress)
    return explained, None if table is None else table(scored, explained.inferred)

"""What ``metricdiff audit`` prints of each metric on the terminal: the input its
implementations lose, the table of the user's corpus, and the causes of the
findings, each unexplained difference named by its clause."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from metricdiff.auditing.metric import MetricAudit
    from metricdiff.cases.case import Case
    from metricdiff.comparison.gaps import MetricComparison
    from metricdiff.findings.finding import Finding
    from metricdiff.findings.witness import Participant


def lost_input_lines(people: Sequence[Participant], corpus: Case | None, metric: str) -> list[str]:
    """A line for each participant's tokenizer that drops words of the user's
    corpus (``lost_input``), once per implementation and tokenizer, and where it
    drops more than half of a side, that its score is not about this text."""
    from metricdiff.impls.text.lost_input import lost_input

    if corpus is None:
        return []
    texts = corpus.for_metric(metric)
    lines = []
    seen = set()
    for person in people:
        key = (person.impl, person.options.tokenize)
        if person.label == "unknown" or key in seen:
            continue
        seen.add(key)
        lost = lost_input(person.impl, person.options.tokenize, texts.hyps, texts.refs)
        if lost is not None:
            lines += [f"warning: {text}" for text in (lost.message(), lost.verdict()) if text]
    return lines


def metric_lines(audit: MetricAudit, table: MetricComparison | None,
                  lost: Sequence[str]) -> list[str]:
    """What the text output says of one metric: input its implementations lose,
    the table of the user's corpus, then the causes behind it."""
    from metricdiff.comparison import render
    from metricdiff.findings.finding import by_cause, who
    from metricdiff.findings.pairs import pair_lines
    from metricdiff.impls.base import Tolerance

    lines = [f"== {audit.metric}: {', '.join(p.name for p in audit.participants)}"]
    lines += [f"   {warning}" for warning in lost]  # what the table's scores are missing
    if table is not None:
        lines.append(f"   your corpus ({render.scale(table)}):")
        lines += [f"   {line}" for text in render.body(table, "text", lost=False)
                  for line in text.splitlines()]
    for person in audit.participants:
        if person.label != "stemmed" and person.tolerance != Tolerance():
            lines.append(f"   tolerance of {person.impl}: {person.tolerance.describe()}")
    lines += [f"   skipped: {reason}" for reason in audit.skipped]
    for cause, group in by_cause(audit.findings, functools.partial(_cause, audit)):
        lines.append(f"   {cause}: {', '.join(f'{who(f)} ({f.count})' for f in group)}")
    lines += [f"   {inference.describe()}" for inference in audit.inferred]
    lines += [f"   {line}" for pair in audit.pairs for line in pair_lines(pair)]
    return lines


def _cause(audit: MetricAudit, finding: Finding) -> str:
    """A finding's cause as the text output says it: an unexplained difference
    named by the clause of the spec where it starts (``findings.cause``)."""
    from metricdiff.findings.cause import unexplained_cause
    from metricdiff.findings.finding import COMPARED, cause_of

    if finding.kind not in COMPARED or finding.axis not in ("", "unexplained"):
        return cause_of(finding)
    options = next((p.options for p in audit.participants if p.name == finding.impl_a), None)
    return f"unexplained: {unexplained_cause(finding, options)}"


__all__ = ["lost_input_lines", "metric_lines"]

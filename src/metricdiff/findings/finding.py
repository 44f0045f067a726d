"""Findings: disagreements grouped by cause, the audit's product.

The field names of ``Finding.to_json`` are public (reports and users' scripts read
``findings.json``): ``metric``, ``impl_a``, ``impl_b``, ``kind``, ``axis``,
``values``, ``first_difference``, ``count``, ``max_delta``, ``example``,
``signatures``.  Add fields; never rename one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from metricdiff.profiles.metrics import Result
from metricdiff.wording import plural

#: Finding kinds: an implementation against the reference configured as it claims
#: to be (``conformance``), an implementation against the paper's profile where
#: the reference reproduces it (``departure``: its conventions at work), two
#: implementations against each other (``agreement``: only for a pair with an
#: inferred side, the others being derived), and a run that did not return a
#: usable result.
KINDS = ("conformance", "departure", "agreement", "crash", "timeout", "invalid-output")
#: The kinds that compare two sides' results, and those of a run that failed.
COMPARED = KINDS[:3]
FAILURES = KINDS[3:]


@attrs.frozen
class Example:
    """The minimal case a finding is shown with, and what each side returned."""

    case_id: str
    hyps: tuple[str, ...]
    refs: tuple[tuple[str | None, ...], ...]
    result_a: Result | None
    result_b: Result | None
    error: str = ""
    #: An excerpt (``findings/excerpt.py``): how many segments the case has
    #: (0: the example is the whole case), and which are shown (from 1).
    segments: int = 0
    shown: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        single = len(self.hyps) == 1 and not self.segments
        data: dict[str, Any] = {
            "case": self.case_id,
            "hypothesis": self.hyps[0] if single else list(self.hyps),
            "references": list(self.refs[0]) if single else [list(r) for r in self.refs],
            "result_a": None if self.result_a is None else self.result_a.to_json(),
            "result_b": None if self.result_b is None else self.result_b.to_json(),
            "error": self.error,
        }
        if self.segments:
            data["segments"] = self.segments
            data["shown"] = list(self.shown)
        return data


@attrs.frozen
class Finding:
    """One cause of disagreement, with how often it struck and how hard."""

    metric: str
    impl_a: str
    impl_b: str
    kind: str
    axis: str
    values: tuple[str, str]
    first_difference: str
    count: int
    max_delta: float
    example: Example
    signatures: dict[str, str]
    cases: tuple[str, ...] = ()
    explained: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "impl_a": self.impl_a,
            "impl_b": self.impl_b,
            "kind": self.kind,
            "axis": self.axis,
            "values": list(self.values),
            "first_difference": self.first_difference,
            "count": self.count,
            "max_delta": self.max_delta,
            "example": self.example.to_json(),
            "signatures": self.signatures,
            "cases": list(self.cases),
            "explained": self.explained,
        }

    def summary(self) -> str:
        """One line for the text output."""
        cause = (
            f"{self.axis}: {self.values[0]} vs {self.values[1]}"
            if self.axis not in ("", "unexplained")
            else (self.axis or "?")
        )
        if self.kind in FAILURES:
            cause = self.example.error
        other = f" vs {self.impl_b}" if self.impl_b else ""
        return (
            f"[{self.kind}] {self.metric}: {self.impl_a}{other}: {cause} "
            f"({plural(self.count, 'case')}, max delta "
            f"{self.max_delta:.4g}; first difference {self.first_difference or '-'})"
        )


def sort_findings(findings: Sequence[Finding]) -> list[Finding]:
    """A stable, meaningful order: by metric, kind, implementations, then count."""
    order = {kind: index for index, kind in enumerate(KINDS)}
    return sorted(
        findings,
        key=lambda f: (
            f.metric, order.get(f.kind, 99), f.impl_a, f.impl_b, -f.count, f.axis,
            f.values, f.example.error, f.cases,
        ),
    )


def cause_of(finding: Finding) -> str:
    """The cause as one phrase: ``axis: a vs b``, ``unexplained``, or the error."""
    if finding.kind in FAILURES:
        return f"{finding.kind}: {finding.example.error.split(':')[0]}"
    if finding.axis in ("", "unexplained"):
        return f"unexplained (first difference: {finding.first_difference.split(':')[0]})"
    return f"{finding.axis}: {finding.values[0]} vs {finding.values[1]}"


def who(finding: Finding) -> str:
    """Whom a finding is about: the implementation (a conformance finding, a
    failure, a departure from the paper's profile), or ``a vs b``."""
    if finding.kind == "departure":
        return finding.impl_b
    if finding.kind == "agreement":
        return f"{finding.impl_a} vs {finding.impl_b}"
    return finding.impl_a


def by_cause(findings: Sequence[Finding], cause: Callable[[Finding], str] | None = None
             ) -> list[tuple[str, list[Finding]]]:
    """Findings grouped by kind and cause (``cause``: how a finding's is said;
    ``cause_of`` by default), the most frequent cause first."""
    groups: dict[str, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(f"[{finding.kind}] {(cause or cause_of)(finding)}", []).append(finding)
    return sorted(groups.items(), key=lambda item: (-sum(f.count for f in item[1]), item[0]))

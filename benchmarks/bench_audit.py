"""Throughput of ``metricdiff audit``: cases per second over the Python adapters at
--jobs 1 and --jobs 2, and the time the explainer spends per distinct cause.

    python benchmarks/bench_audit.py [--cases 2000] [--metric bleu --metric rouge-1]
    python benchmarks/bench_audit.py --quick        # 200 cases
    python benchmarks/bench_audit.py --shrink --cases 300 --metric rouge-1

Generated cases (seed 0) are scored by every available implementation except the
Perl script (its throughput is in bench_rouge.py); shrinking is off, so the figures
are scoring, comparing and explaining.  With ``--shrink``, each metric is audited
twice side by side at --jobs 2, every available implementation the Perl script
included: without minimal examples and with them, and the ratio of the two times
is printed (issue 11's target: at most 2), with the findings' example sizes and how
many examples the shrinking budget left unfinished.  Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from tabulate import tabulate

from metricdiff.audit import agreement, conformance
from metricdiff.audit import metric as audit_module
from metricdiff.audit.cases import generated_cases
from metricdiff.audit.config import AuditConfig
from metricdiff.cases.case import size
from metricdiff.findings import explain as explain_module
from metricdiff.findings.finding import Finding, by_cause
from metricdiff.implementations import adapter_names

PERL = "rouge155"


def timed(owner: Any, name: str) -> tuple[list[float], Callable[[], None]]:
    """Wrap the function ``owner.name`` (as the code calling it looks it up) so
    every call's duration is recorded; returns the list and a function that
    restores the original."""
    durations: list[float] = []
    original = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            durations.append(time.perf_counter() - start)

    setattr(owner, name, wrapper)
    return durations, lambda: setattr(owner, name, original)


def timed_explainer() -> tuple[list[float], Callable[[], None]]:
    """Every call of the explainer the audit makes, timed (see ``timed``): the two
    comparisons each call it by the name they import it under."""
    durations: list[float] = []
    wrapped = [timed(module, "explain") for module in (conformance, agreement)]

    def restore() -> None:
        for times, undo in wrapped:
            undo()
            durations.extend(times)

    return durations, restore


def run(metric: str, cases: int, jobs: int) -> dict[str, Any]:
    impls = [name for name in adapter_names() if name != PERL]
    inputs = generated_cases(metric, cases, 0)
    # Every run starts cold: the explainer remembers the reference's results, and
    # an earlier run on the same cases would make this one look faster.
    explain_module.reference_score.cache_clear()
    durations, restore = timed_explainer()
    start = time.perf_counter()
    try:
        config = AuditConfig(impls, workers=jobs, timeout=300, minimise=False)
        result = audit_module.audit_metric(metric, inputs, config)
    finally:
        restore()
    seconds = time.perf_counter() - start
    causes = len(by_cause(result.findings))
    return {
        "metric": metric,
        "jobs": jobs,
        "cases": len(inputs),
        "participants": len(result.participants),
        "seconds": round(seconds, 2),
        "cases/s": round(len(inputs) / seconds, 1),
        "findings": len(result.findings),
        "causes": causes,
        "explainer s": round(sum(durations), 2),
        "explainer s/cause": round(sum(durations) / max(causes, 1), 3),
    }


def _example_sizes(findings: list[Finding]) -> int:
    return sum(size((f.example.hyps, f.example.refs)) for f in findings)


def shrink_cost(metric: str, cases: int, jobs: int = 2) -> dict[str, Any]:
    """The same audit without and with minimal examples, and the ratio of their times."""
    inputs = generated_cases(metric, cases, 0)
    row: dict[str, Any] = {"metric": metric, "cases": len(inputs)}
    audits = {}
    for minimise in (False, True):
        explain_module.reference_score.cache_clear()  # both start cold
        start = time.perf_counter()
        config = AuditConfig(adapter_names(), workers=jobs, timeout=300, minimise=minimise)
        audits[minimise] = audit_module.audit_metric(metric, inputs, config)
        row["with examples s" if minimise else "no-minimise s"] = round(
            time.perf_counter() - start, 2)
    row["ratio"] = round(row["with examples s"] / max(row["no-minimise s"], 1e-9), 2)
    row["findings"] = len(audits[True].findings)
    row["example chars before"] = _example_sizes(audits[False].findings)
    row["after"] = _example_sizes(audits[True].findings)
    row["unfinished (budget)"] = audits[True].unshrunk
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="200 cases")
    parser.add_argument("--metric", action="append", help="default: bleu and rouge-1")
    parser.add_argument("--shrink", action="store_true",
                        help="the cost of minimal examples: default / --no-minimise")
    args = parser.parse_args()
    cases = 200 if args.quick else args.cases
    if args.shrink:
        rows = [shrink_cost(metric, cases) for metric in (args.metric or ["bleu", "rouge-1"])]
        print(tabulate(rows, headers="keys", tablefmt="github"))
        return
    rows = [run(metric, cases, jobs)
            for metric in (args.metric or ["bleu", "rouge-1"]) for jobs in (1, 2)]
    print(tabulate(rows, headers="keys", tablefmt="github"))


if __name__ == "__main__":
    main()

"""What minimal examples cost in ``metricdiff audit``, and its throughput.

    python benchmarks/bench_audit.py [--cases 300] [--metric rouge-1 ...]
    python benchmarks/bench_audit.py --quick        # 60 cases
    python benchmarks/bench_audit.py --throughput [--cases 2000]

By default each metric (BLEU and every ROUGE variant the audit runs) is audited
twice side by side at --jobs 2, every available implementation the Perl script
included: with ``--no-minimise`` and with minimal examples (the default); once on
generated cases (seed 0) and once on the first pairs of the real translations in
``data/translations/`` (user files, ``--hyp``/``--ref``).  Each ratio of the two
times (issue 11's target: at most 2) is printed on a line of its own as soon as
it is measured, ``RATIO audit METRIC INPUT default/no-minimise X``, and a table
at the end adds the findings' example sizes and how many examples the shrinking
budget left unfinished.  Nothing here asserts a time.

``--throughput``: cases per second over the Python adapters at --jobs 1 and
--jobs 2, and the time the explainer spends per distinct cause (generated cases,
every available implementation but the Perl script, whose throughput is in
bench_rouge.py; shrinking off).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
from tabulate import tabulate

from metricdiff.audit import agreement, conformance
from metricdiff.audit import metric as audit_module
from metricdiff.audit.cases import DEFAULT_METRICS, generated_cases, user_cases
from metricdiff.audit.config import AuditConfig
from metricdiff.cases.case import Case, size
from metricdiff.cases.files import read_corpus
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


TRANSLATIONS = Path(__file__).parent / "data" / "translations"
#: Every metric the audit runs by default (``audit/cases.py``).
METRICS = list(DEFAULT_METRICS)


def real_cases(metric: str, pairs: int) -> list[Case]:
    """The first ``pairs`` real translations as the audit reads user files
    (``--hyp``/``--ref``): each line a case, and the whole corpus one more."""
    corpus = read_corpus(str(TRANSLATIONS / "hyp.txt"), [str(TRANSLATIONS / "ref.txt")])
    first = attrs.evolve(corpus, hyps=corpus.hyps[:pairs], refs=corpus.refs[:pairs])
    return user_cases(first, str(TRANSLATIONS / "hyp.txt"), metric)


def shrink_cost(metric: str, source: str, inputs: list[Case], jobs: int = 2) -> dict[str, Any]:
    """The same audit without and with minimal examples, and the ratio of their times."""
    row: dict[str, Any] = {"metric": metric, "input": source, "cases": len(inputs)}
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
    row["causes"] = len(by_cause(audits[True].findings))
    row["example chars before"] = _example_sizes(audits[False].findings)
    row["after"] = _example_sizes(audits[True].findings)
    row["unfinished (budget)"] = audits[True].unshrunk
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, help="default: 300 (2000 with --throughput)")
    parser.add_argument("--quick", action="store_true", help="60 cases")
    parser.add_argument("--metric", action="append",
                        help="default: every metric (bleu and rouge-1 with --throughput)")
    parser.add_argument("--throughput", action="store_true",
                        help="cases per second at --jobs 1 and 2, no minimal examples")
    args = parser.parse_args()
    if args.throughput:
        cases = 200 if args.quick else args.cases or 2000
        rows = [run(metric, cases, jobs)
                for metric in (args.metric or ["bleu", "rouge-1"]) for jobs in (1, 2)]
        print(tabulate(rows, headers="keys", tablefmt="github"))
        return
    cases = 60 if args.quick else args.cases or 300
    # Start the worker processes before anything is timed: the first audit would
    # pay for them and the second not.
    audit_module.audit_metric("rouge-1", generated_cases("rouge-1", 2, 0),
                              AuditConfig(adapter_names(), workers=2, timeout=300))
    rows = []
    for metric in args.metric or METRICS:
        for source, inputs in (("generated", generated_cases(metric, cases, 0)),
                               ("real-files", real_cases(metric, cases))):
            row = shrink_cost(metric, source, inputs)
            rows.append(row)  # each ratio as soon as it is measured, the table at the end
            print(f"RATIO audit {metric} {source} default/no-minimise {row['ratio']}",
                  flush=True)
    print(tabulate(rows, headers="keys", tablefmt="github"))


if __name__ == "__main__":
    main()

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
import json
import math
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
from tabulate import tabulate

from bench_memory import _tree
from metricdiff.auditing import agreement, conformance
from metricdiff.auditing import metric as audit_module
from metricdiff.auditing.cases import DEFAULT_METRICS, generated_cases, user_cases
from metricdiff.auditing.config import AuditConfig
from metricdiff.cases.case import Case, size
from metricdiff.cases.files import read_corpus
from metricdiff.findings import explain as explain_module
from metricdiff.findings.finding import Finding, by_cause
from metricdiff.impls import adapter_names

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
#: Every metric the audit runs by default (``auditing/cases.py``).
METRICS = list(DEFAULT_METRICS)


def real_cases(metric: str, pairs: int) -> list[Case]:
    """The first ``pairs`` real translations as the audit reads user files
    (``--hyp``/``--ref``): each line a case, and the whole corpus one more."""
    corpus = read_corpus(str(TRANSLATIONS / "hyp.txt"), [str(TRANSLATIONS / "ref.txt")])
    first = attrs.evolve(corpus, hyps=corpus.hyps[:pairs], refs=corpus.refs[:pairs])
    return user_cases(first, str(TRANSLATIONS / "hyp.txt"), metric)


def _one_audit(metric: str, source: str, cases: int, minimise: bool) -> dict[str, Any]:
    """One audit, as ``shrink_cost`` runs it in a fresh process: what it found."""
    inputs = (generated_cases(metric, cases, 0) if source == "generated"
              else real_cases(metric, cases))
    config = AuditConfig(adapter_names(), workers=2, timeout=300, minimise=minimise)
    audit = audit_module.audit_metric(metric, inputs, config)
    return {"cases": len(inputs), "findings": len(audit.findings),
            "causes": len(by_cause(audit.findings)), "chars": _example_sizes(audit.findings),
            "unfinished": audit.unshrunk, "cpu": tree_cpu()}


def tree_cpu() -> float:
    """CPU seconds (user and system) used so far by this process and every process
    below it, those it waited for included: the worker processes are the
    forkserver's children, not this process's, so ``RUSAGE_CHILDREN`` would miss
    them while they live (Linux's ``/proc``; this process alone elsewhere)."""
    if not Path("/proc/self/stat").exists():
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    ticks = 0
    for pid in _tree(os.getpid()):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue  # ended meanwhile: its parent's waited-for time has it
        ticks += sum(int(field) for field in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _timed_audit(metric: str, source: str, cases: int,
                 minimise: bool) -> tuple[float, float, dict[str, Any]]:
    """Wall and CPU seconds of one audit in a fresh process (start-up, its worker
    processes and their Perl children included), and what it found."""
    command = [sys.executable, __file__, "--one", metric, source, str(cases)]
    command += [] if minimise else ["--no-minimise"]
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    found: dict[str, Any] = json.loads(out.splitlines()[-1])
    return time.perf_counter() - start, found["cpu"], found


def shrink_cost(metric: str, source: str, cases: int, repeat: int = 1) -> dict[str, Any]:
    """The same audit without and with minimal examples, each in a fresh process,
    alternately ``repeat`` times (so that a change of load hits both), the fastest
    wall and the least CPU of each kept; and their ratios."""
    best: dict[bool, list[float]] = {False: [math.inf, math.inf], True: [math.inf, math.inf]}
    found: dict[bool, dict[str, Any]] = {}
    for _ in range(repeat):
        for minimise in (False, True):
            wall, cpu, found[minimise] = _timed_audit(metric, source, cases, minimise)
            best[minimise] = [min(wall, best[minimise][0]), min(cpu, best[minimise][1])]
    (plain_wall, plain_cpu), (wall, cpu) = best[False], best[True]
    return {
        "metric": metric, "input": source, "cases": found[True]["cases"],
        "no-minimise s (CPU)": f"{plain_wall:.1f} ({plain_cpu:.1f})",
        "with examples s (CPU)": f"{wall:.1f} ({cpu:.1f})",
        "ratio": round(wall / max(plain_wall, 1e-9), 2),
        "CPU ratio": round(cpu / max(plain_cpu, 1e-9), 2),
        "findings": found[True]["findings"], "causes": found[True]["causes"],
        "causes without": found[False]["causes"],
        "example chars before": found[False]["chars"], "after": found[True]["chars"],
        "unfinished (budget)": found[True]["unfinished"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, help="default: 300 (2000 with --throughput)")
    parser.add_argument("--quick", action="store_true", help="60 cases")
    parser.add_argument("--metric", action="append",
                        help="default: every metric (bleu and rouge-1 with --throughput)")
    parser.add_argument("--throughput", action="store_true",
                        help="cases per second at --jobs 1 and 2, no minimal examples")
    parser.add_argument("--input", action="append", choices=("generated", "real-files"),
                        help="default: both")
    parser.add_argument("--repeat", type=int, default=1,
                        help="audits of each kind, alternately; the fastest kept (default 1)")
    parser.add_argument("--one", nargs=3, metavar=("METRIC", "INPUT", "CASES"),
                        help=argparse.SUPPRESS)  # one audit, in the process shrink_cost starts
    parser.add_argument("--no-minimise", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        metric, source, count = args.one
        print(json.dumps(_one_audit(metric, source, int(count), not args.no_minimise)))
        return
    if args.throughput:
        cases = 200 if args.quick else args.cases or 2000
        rows = [run(metric, cases, jobs)
                for metric in (args.metric or ["bleu", "rouge-1"]) for jobs in (1, 2)]
        print(tabulate(rows, headers="keys", tablefmt="github"))
        return
    cases = 60 if args.quick else args.cases or 300
    rows = []
    for metric in args.metric or METRICS:
        for source in args.input or ("generated", "real-files"):
            row = shrink_cost(metric, source, cases, args.repeat)
            rows.append(row)  # each ratio as soon as it is measured, the table at the end
            print(f"RATIO audit {metric} {source} default/no-minimise {row['ratio']} "
                  f"(CPU ratio {row['CPU ratio']}: {row['with examples s (CPU)']} s "
                  f"against {row['no-minimise s (CPU)']} s)", flush=True)
    print(tabulate(rows, headers="keys", tablefmt="github"))


if __name__ == "__main__":
    main()

"""``metricdiff audit``: every implementation on shared cases; disagreements explained."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from metricdiff.cli._common import Commands, isatty, parse_overrides
from metricdiff.inputs import InputError
from metricdiff.metrics import METRICS


def run(args: argparse.Namespace) -> int:
    from metricdiff import audit_inputs, audit_output
    from metricdiff.adapters.base import Tolerance
    from metricdiff.audit import audit_metric
    from metricdiff.cli._user_impls import check_user_impls, write_inferred
    from metricdiff.executors import open_executor
    from metricdiff.findings import KINDS, by_cause
    from metricdiff.journal import JOURNAL_NAME, Journal

    metrics = args.metric or list(audit_inputs.DEFAULT_METRICS)
    use_fixtures = args.fixtures is not None or not (args.hyp or args.generate)
    fixtures_dir = Path(args.fixtures or "fixtures")
    if args.hyp and not args.ref:
        raise InputError(f"{args.hyp}:0: --hyp needs at least one --ref")
    if args.resume and not args.out:
        raise InputError("--resume needs --out (the folder of the interrupted run)")
    # Read every input before scoring anything: bad input stops the run at once.
    plan = {}
    for metric in metrics:
        cases = audit_inputs.fixture_cases(fixtures_dir, metric) if use_fixtures else []
        if args.hyp:
            cases += audit_inputs.user_cases(args.hyp, args.ref, metric)
        if args.generate:
            cases += audit_inputs.generated_cases(metric, args.generate, args.seed)
        plan[metric] = cases
    user_profile = parse_overrides(args.option)
    check_user_impls(args.impl or [], metrics, bool(args.metric), user_profile)

    def progress(message: str) -> None:
        if args.format == "text":
            print(message, file=sys.stderr)

    show = args.progress if args.progress is not None else isatty(sys.stderr)
    # Before the journal: no Ray is a one-line error that leaves nothing behind.
    stack = contextlib.ExitStack()  # stops a Ray instance started for this run
    executor = stack.enter_context(open_executor(args.executor, args.ray_address, args.jobs))
    journal: Journal | None = None
    audits = []
    try:
        journal = Journal(Path(args.out) / JOURNAL_NAME, args.resume) if args.out else None
        for metric, cases in plan.items():
            audits.append(audit_metric(metric, cases, args.impl, args.jobs, args.timeout,
                                       not args.no_minimise, progress, journal,
                                       sys.stderr if show else None, executor,
                                       user_profile=user_profile))
            if args.out:  # what is done is kept, even if a later metric fails
                audit_output.write_findings(Path(args.out), audits)
                inferred = [i for a in audits for i in a.inferred]
                if inferred:
                    write_inferred(Path(args.out), inferred)
    finally:
        if journal is not None:
            journal.close()
        stack.close()
    if args.save_fixtures:
        saved = audit_output.save_fixtures(Path(args.save_fixtures), audits)
        if saved:
            print(f"saved minimal counterexamples to {saved}", file=sys.stderr)
    if args.out:  # from the files just written, as `metricdiff report --from` does
        from metricdiff.reports.audit_reports import write_reports

        write_reports(Path(args.out))
    findings = [f for a in audits for f in a.findings]
    if args.format == "json":
        print(json.dumps(audit_output.findings_json(audits), ensure_ascii=False, indent=1))
        return 0
    for audit in audits:
        print(f"== {audit.metric}: {', '.join(p.name for p in audit.participants)}")
        for person in audit.participants:
            if person.label != "stemmed" and person.tolerance != Tolerance():
                tolerance = person.tolerance
                print(f"   tolerance of {person.impl}: absolute {tolerance.absolute:g}, "
                      f"relative {tolerance.relative:g} ({tolerance.reason})")
        for reason in audit.skipped:
            print(f"   skipped: {reason}")
        for cause, group in by_cause(audit.findings):
            pairs = ", ".join(
                f"{f.impl_a}{' vs ' + f.impl_b if f.impl_b else ''} ({f.count})" for f in group
            )
            print(f"   {cause}: {pairs}")
        for inference in audit.inferred:
            print(f"   {inference.describe()}")
    counts = {kind: sum(1 for f in findings if f.kind == kind) for kind in KINDS}
    scored = sum(len(a.cases) for a in audits)
    unexplained = sum(1 for f in findings if f.kind in ("conformance", "agreement")
                      and not f.explained)
    print(
        f"audit: {len(audits)} metrics, {scored} cases, {len(findings)} findings ("
        + ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
        + f"; {unexplained} unexplained)"
        + (f"; wrote {args.out}/findings.json and report.md, report.html, report.json"
           if args.out else "")
    )
    return 0



def register(commands: Commands) -> None:
    audit = commands.add_parser(
        "audit", help="every implementation on shared cases; disagreements explained"
    )
    audit.add_argument("--metric", action="append", choices=METRICS,
                       help="audit this metric (repeatable; default: bleu and every ROUGE)")
    audit.add_argument("--impl", action="append", help="only these implementations; "
                       "your own: python:MODULE:FUNCTION or cmd:'PROGRAM {hyp} {ref}' "
                       "(docs/own-implementation.md)")
    audit.add_argument("-o", "--option", action="append", default=[], metavar="AXIS=VALUE",
                       help="declare the profile of your own implementation (default: "
                       "unknown, and inferred)")
    audit.add_argument("--fixtures", help="fixture folder (default: fixtures/, used unless "
                       "--hyp or --generate is given alone)")
    audit.add_argument("--hyp", help="your hypotheses, one segment per line")
    audit.add_argument("--ref", action="append", default=[], help="your references")
    audit.add_argument("--generate", type=int, default=0, metavar="N",
                       help="add N Hypothesis-generated cases per metric")
    audit.add_argument("--seed", type=int, default=0, help="seed of the generated cases")
    audit.add_argument("--jobs", type=int, default=1, help="worker processes")
    audit.add_argument("--executor", choices=("local", "ray"), default="local",
                       help="where the scoring runs: 'local' worker processes, or 'ray': "
                       "a Ray cluster (--ray-address), the same results; needs "
                       "pip install 'metricdiff[ray]'; shrinking stays local")
    audit.add_argument("--ray-address", metavar="ADDR",
                       help="the Ray cluster for --executor ray (default: $RAY_ADDRESS, "
                       "else a local instance with --jobs CPUs, stopped at the end)")
    audit.add_argument("--timeout", type=float, default=120.0,
                       help="seconds one implementation may take on one batch")
    audit.add_argument("--out", help="write findings.json, results.jsonl, audit.json and "
                       "report.md/.html/.json here, and journal.jsonl (every case's outcome "
                       "as it is scored) as it goes")
    audit.add_argument("--resume", action="store_true",
                       help="continue an interrupted audit: the cases --out's journal.jsonl "
                       "already has are not scored again (same inputs and options assumed)")
    audit.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="a progress line on stderr while scoring (default: when stderr "
                       "is a terminal)")
    audit.add_argument("--save-fixtures", metavar="DIR",
                       help="write minimal counterexamples as fixtures here")
    audit.add_argument("--no-minimise", action="store_true", help="skip shrinking")
    audit.add_argument("--format", choices=("text", "json"), default="text")
    audit.set_defaults(run=run)

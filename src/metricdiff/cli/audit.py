"""``metricdiff audit``: every implementation on shared cases; disagreements explained."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from metricdiff import limits
from metricdiff.atomic import folder_lock
from metricdiff.auditing.cases import own_implementations
from metricdiff.cases.prepared import warn_if_prepared
from metricdiff.cli._audit_lines import lost_input_lines, metric_lines
from metricdiff.cli._common import (
    Commands,
    add_cache_option,
    add_fixtures_option,
    add_input_options,
    add_jobs,
    add_pair_option,
    add_progress_option,
    fixtures_folder,
    input_given,
    input_name,
    isatty,
    output_folder,
    parse_overrides,
    plural,
    read_input,
    score_cache,
    seconds,
    whole_number,
)
from metricdiff.errors import AdapterUnavailable, InputError, MetricdiffError, OutputError
from metricdiff.impls import adapter_names, chosen_metrics, computes, families_of
from metricdiff.profiles.metrics import METRICS
from metricdiff.wording import could_not_score, not_applicable

if TYPE_CHECKING:
    from metricdiff.auditing.metric import MetricAudit
    from metricdiff.comparison.gaps import MetricComparison
    from metricdiff.findings.witness import Participant


def _metrics(args: argparse.Namespace) -> list[str]:
    from metricdiff.auditing.cases import DEFAULT_METRICS

    return chosen_metrics(args.metric, args.impl, DEFAULT_METRICS)


def _nobody(metric: str, names: Sequence[str], skipped: Sequence[str]) -> str:
    """Why no implementation takes part in ``metric``: each one named, left out."""
    left_out = [f"{name} does not compute {metric}" for name in names
                if not computes(name, metric)]
    return "; ".join([*skipped, *left_out]) or "no implementation named"


def run(args: argparse.Namespace) -> int:
    from metricdiff.auditing import cases as audit_inputs
    from metricdiff.auditing import output as audit_output
    from metricdiff.auditing.config import AuditConfig
    from metricdiff.auditing.corpus_table import corpus_table
    from metricdiff.auditing.journal import JOURNAL_NAME, Journal
    from metricdiff.auditing.participants import participants
    from metricdiff.auditing.run import audit_metrics
    from metricdiff.cases.fixtures import load_all
    from metricdiff.cli._user_impls import check_impls
    from metricdiff.findings.finding import COMPARED, KINDS
    from metricdiff.reports.model import COMPARE_NAME
    from metricdiff.scoring.executors import import_ray, open_executor
    from metricdiff.scoring.worker import warm_up

    user_input = input_given(args)
    if args.resume and not args.out:
        raise InputError("--resume needs --out (the folder of the interrupted run)")
    for name in args.impl or []:
        families_of(name)  # an unknown name is an error, not a silent no-show
    metrics = _metrics(args)
    if args.no_fixtures and args.fixtures is not None:
        raise InputError("--fixtures and --no-fixtures contradict each other: give one")
    if args.no_fixtures and not (user_input or args.generate):
        raise InputError("--no-fixtures leaves nothing to audit: give --hyp and --ref, "
                         "--jsonl or --generate")
    # Your own implementation is audited on the bundled fixtures too, unless told
    # not to: your few lines may fit a convention and a defect alike; the
    # fixtures' cases (clipping, empty orders...) tell the two apart.
    alongside = (not args.no_fixtures and args.fixtures is None
                 and own_implementations(args.impl or []))
    use_fixtures = (args.fixtures is not None or alongside
                    or not (user_input or args.generate))
    fixtures_dir = fixtures_folder(args.fixtures) if use_fixtures else None
    user_profile = parse_overrides(args.option)
    # Who takes part, per metric, before anything is read or scored: a metric
    # nobody can run is said so on stderr; if that is every metric, it is an error.
    names = check_impls(args.impl or [], metrics, bool(args.metric), user_profile)
    names = names or adapter_names()
    chosen: dict[str, tuple[list[Participant], list[str]]] = {}
    nobody = {}
    for metric in metrics:
        people, skipped = participants(metric, names, user_profile, args.strict)
        if people:
            chosen[metric] = (people, skipped)
        else:
            nobody[metric] = _nobody(metric, names, skipped)
    if not chosen:
        raise AdapterUnavailable("no implementation can run: " + "; ".join(
            f"{metric}: {why}" for metric, why in nobody.items()))

    def progress(message: str) -> None:
        if args.format == "text":
            print(message, file=sys.stderr)

    _check_pairs(args.pair, chosen)
    if args.executor != "ray":  # the workers' start-up runs beside the reading below
        warm_up()
    # Read every input before scoring anything: bad input stops the run at once.
    corpus = read_input(args) if user_input else None
    if corpus is not None:
        warn_if_prepared(corpus.hyps, corpus.refs)
    plan = {}
    fixtures = load_all(fixtures_dir) if fixtures_dir else []
    if alongside and (user_input or args.generate):
        progress(f"the bundled fixtures run alongside your implementation "
                 f"{', '.join(own_implementations(args.impl or []))} (--no-fixtures "
                 "leaves them out)")
    for metric in chosen:
        cases = audit_inputs.fixture_cases(fixtures, metric)
        if corpus is not None:
            cases += audit_inputs.user_cases(corpus, input_name(args), metric)
        if args.generate:
            cases += audit_inputs.generated_cases(metric, args.generate, args.seed, progress)
        plan[metric] = cases
    for metric, why in nobody.items():
        print(f"{metric}: no implementation can run: {why}", file=sys.stderr)
    if args.executor == "ray":
        import_ray()  # no Ray is a one-line error that leaves nothing behind
    out = output_folder(args.out) if args.out else None
    save_to = output_folder(args.save_fixtures, "--save-fixtures") if args.save_fixtures else None

    show = args.progress if args.progress is not None else isatty(sys.stderr)
    stack = contextlib.ExitStack()  # stops a Ray instance started for this run
    if out is not None:  # one run at a time writes into --out
        stack.enter_context(folder_lock(out))
    executor = stack.enter_context(open_executor(args.executor, args.ray_address, args.jobs))
    stack.enter_context(score_cache(args, "audit"))
    journal: Journal | None = None
    audits: list[MetricAudit] = []
    unscored: list[str] = []
    refused: list[str] = []  # by a documented inability: not applicable, no failure
    compared: list[MetricComparison] = []
    if out is not None and corpus is None:  # a table left by an earlier run is not this one's
        (out / COMPARE_NAME).unlink(missing_ok=True)
    args.finished = []  # for the interrupt hint: what is in --out already
    reporting = False
    try:
        journal = Journal(out / JOURNAL_NAME, args.resume) if out else None
        config = AuditConfig(
            impls=names, user_profile=user_profile, workers=args.jobs, timeout=args.timeout,
            minimise=not args.no_minimise, executor=executor, journal=journal,
            progress=progress, progress_stream=sys.stderr if show else None,
            strict=args.strict, all_cases=args.all_cases, pairs=args.pair,
        )
        tabled = None if corpus is None else functools.partial(
            corpus_table, corpus=corpus, impls=args.impl, user_profile=user_profile,
            workers=args.jobs, timeout=args.timeout, pairs=args.pair)
        for audit, table in audit_metrics(plan, config, tabled, chosen):
            metric = audit.metric
            audits.append(audit)
            if table is not None:
                compared.append(table)
            if out:  # what is done is kept, even if a later metric fails or is interrupted
                _write(out, audits, compared, kept=len(args.finished))
                args.finished.append(metric)
            lost = lost_input_lines(audit.participants, corpus, metric)
            if args.format == "json":
                for warning in lost:
                    print(warning, file=sys.stderr)
            else:
                print("\n".join(metric_lines(audit, table, lost)), flush=True)
            unscored += audit.unscored()
            refused += audit.not_applicable()
            if out:  # its per-case results are in results.jsonl, where the reports read them
                audits[-1] = audit.without_results()
        if out:
            reporting = True
            _write_reports(out)
    except BaseException:
        if out and args.finished and not reporting:  # the metrics finished keep their reports
            with contextlib.suppress(MetricdiffError):  # what stopped the run says more
                _write_reports(out)
        raise
    finally:
        if journal is not None:
            journal.close()
        stack.close()
    if save_to:
        saved = audit_output.save_fixtures(save_to, audits)
        if saved:
            print(f"saved minimal counterexamples to {saved}", file=sys.stderr)
    # An implementation that failed on every case found nothing to disagree
    # with: its "0 findings" is no all-clear, and the exit status says so.
    status = 1 if unscored else 0
    if args.format == "json":
        print(json.dumps(audit_output.findings_json(audits), ensure_ascii=False, indent=1))
        if unscored or refused:
            print(f"audit{could_not_score(unscored)}{not_applicable(refused)}",
                  file=sys.stderr)
        return status
    findings = [f for a in audits for f in a.findings]
    counts = {kind: sum(1 for f in findings if f.kind == kind) for kind in KINDS}
    scored = sum(len(a.cases) for a in audits)
    unexplained = sum(1 for f in findings if f.kind in COMPARED
                      and not f.explained)
    tally = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
    print(
        f"audit: {plural(len(audits), 'metric')}, {plural(scored, 'case')}, "
        f"{plural(len(findings), 'finding')}"
        + (f" ({tally}; {unexplained} unexplained)" if findings else "")
        + could_not_score(unscored)
        + not_applicable(refused)
        + (f"; wrote {out}/findings.json and report.md, report.html, report.json"
           if out else "")
    )
    return status


def _check_pairs(pairs: Sequence[tuple[str, str]],
                 chosen: dict[str, tuple[list[Participant], list[str]]]) -> None:
    """Each ``--pair`` names two participants of one metric at least: else a
    one-line error before anything is scored."""
    for pair in pairs:
        if not any({p.name for p in people} >= set(pair) for people, _ in chosen.values()):
            names = sorted({p.name for people, _ in chosen.values() for p in people})
            raise InputError(f"--pair {','.join(pair)}: no metric audited has both as "
                             f"participants (there are: {', '.join(names)})")


def _write(out: Path, audits: Sequence[MetricAudit], compared: Sequence[MetricComparison],
           kept: int = 0) -> None:
    """The audit folder's files as they stand after each metric, written together
    (``write_findings``; its reports are written once, from the last of these:
    ``_write_reports``); ``kept``: how many of ``audits`` an earlier call of this
    run wrote already."""
    from metricdiff.auditing import output as audit_output
    from metricdiff.cli._user_impls import INFERRED_NAME, inferred_text
    from metricdiff.comparison.gaps import Comparison
    from metricdiff.reports.model import COMPARE_NAME

    extra = {}
    if compared:
        extra[COMPARE_NAME] = json.dumps(Comparison(tuple(compared)).to_dict()["metrics"],
                                         ensure_ascii=False, indent=1) + "\n"
    inferred = [i for a in audits for i in a.inferred]
    if inferred:
        extra[INFERRED_NAME] = inferred_text(inferred)
    try:
        audit_output.write_findings(out, audits, kept, extra)
    except OSError as error:  # a full disk: what was written before is kept whole
        raise OutputError(f"{out}: cannot write the audit's files: "
                          f"{error.strerror or error}") from None


def _write_reports(out: Path) -> None:
    """The reports of the audit folder, from its files, as `metricdiff report --from`
    writes them: once, when the run ends or stops, not after every metric (each
    report covers every metric so far, so rewriting it each time cost the square
    of the metrics' rendering)."""
    from metricdiff.reports.audit_reports import write_reports

    write_reports(out)


def _interrupt_hint(args: argparse.Namespace) -> str:
    """What ``main`` adds to ``metricdiff: interrupted``: with ``--out``, the journal
    holds every case scored so far, so the same command with --resume goes on; the
    reports of the metrics finished are written, and ``report --from`` rebuilds them."""
    if not args.out:
        return ""
    finished = getattr(args, "finished", [])
    done = (f"; the reports of {', '.join(finished)} are in {args.out} (`metricdiff report "
            f"--from {args.out}` rebuilds them)" if finished else "")
    return f"{done}; run the same command with --resume to continue"


def register(commands: Commands) -> None:
    audit = commands.add_parser(
        "audit", help="every implementation on shared cases; disagreements explained"
    )
    audit.add_argument("--metric", action="append", choices=METRICS,
                       help="audit this metric (repeatable; default: bleu and every ROUGE)")
    audit.add_argument("--impl", action="append", help="only these implementations "
                       "(repeatable), each with settings if any: 'rouge-score[stemmer="
                       "porter-nltk]' (one implementation may take part under several); "
                       "your own: python:MODULE:FUNCTION or cmd:'PROGRAM {hyp} {ref}' "
                       "(docs/own-implementation.md)")
    audit.add_argument("-o", "--option", action="append", default=[], metavar="AXIS=VALUE",
                       help="declare the profile of your own implementation (default: "
                       "unknown, and inferred)")
    add_fixtures_option(audit, "fixture folder (default, or without DIR: the fixtures that "
                        "ship with metricdiff; used unless --hyp, --jsonl or --generate is "
                        "given alone, and with them when your own implementation, python: "
                        "or cmd:, takes part)")
    audit.add_argument("--no-fixtures", action="store_true",
                       help="leave the bundled fixtures out, even beside your own "
                       "implementation")
    add_input_options(audit, ": each segment is a case, and the whole corpus one more")
    audit.add_argument("--generate", type=whole_number(0, limits.MAX_GENERATED), default=0,
                       metavar="N", help="add N Hypothesis-generated cases per metric (at "
                       f"most {limits.MAX_GENERATED:,})")
    audit.add_argument("--seed", type=int, default=0, help="seed of the generated cases")
    add_jobs(audit, 1, "worker processes (default: 1)")
    audit.add_argument("--executor", choices=("local", "ray"), default="local",
                       help="where the scoring runs: 'local' worker processes, or 'ray': "
                       "a Ray cluster (--ray-address), the same results; needs "
                       "pip install 'metricdiff[ray]'; shrinking stays local")
    audit.add_argument("--ray-address", metavar="ADDR",
                       help="the Ray cluster for --executor ray (default: $RAY_ADDRESS, "
                       "else a local instance with --jobs CPUs, stopped at the end)")
    audit.add_argument("--timeout", type=seconds, default=120.0,
                       help="seconds one implementation may take on one batch (inf: no "
                       "limit)")
    audit.add_argument("--out", help="write findings.json, results.jsonl, audit.json and "
                       "report.md/.html/.json here, and journal.jsonl (every case's outcome "
                       "as it is scored) as it goes")
    audit.add_argument("--resume", action="store_true",
                       help="continue an interrupted audit: the cases --out's journal.jsonl "
                       "already has are not scored again (same inputs and options assumed)")
    add_progress_option(audit, "auditing")
    audit.add_argument("--save-fixtures", metavar="DIR",
                       help="write minimal counterexamples as fixtures here")
    audit.add_argument("--no-minimise", action="store_true", help="skip shrinking")
    audit.add_argument("--strict", action="store_true",
                       help="hold every implementation to float noise alone: differences "
                       "within what it can state (its printed precision, float noise; the "
                       "'tolerance of' lines) become findings too")
    audit.add_argument("--all-cases", action="store_true",
                       help="run the costly peers (pyrouge, jury) on every generated case "
                       "too; by default each takes the first few hundred, and says so")
    add_pair_option(audit, "its differences derived from the two implementations' "
                    "profiles and explained on the reference alone, in the reports and "
                    "pairs.json; on your corpus, its gap split by axis")
    add_cache_option(audit)
    audit.add_argument("--format", choices=("text", "json"), default="text")
    audit.set_defaults(run=run, interrupt_hint=_interrupt_hint)

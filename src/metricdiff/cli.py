"""The ``metricdiff`` command line.

Bad input never shows a traceback: it prints one line ``metricdiff: error: ...``
naming the file and line where there is one, and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from metricdiff import __version__
from metricdiff.adapters import (
    AdapterUnavailable,
    AnyAdapter,
    adapter_for_family,
    adapter_names,
    families_of,
    get_adapter,
)
from metricdiff.conventions import ConventionError, profile_of
from metricdiff.fixtures import FixtureError, load_all
from metricdiff.inputs import InputError, read_corpus
from metricdiff.metrics import METRICS, Result, family
from metricdiff.results import BleuResult

EXIT_USAGE = 2
EXIT_IMPLEMENTATION_FAILED = 1


class ImplementationFailed(RuntimeError):
    """The implementation itself raised; a finding about it, reported in one line."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> Any:
        self.exit(EXIT_USAGE, f"metricdiff: error: {message}\n")


def _overrides(pairs: Sequence[str]) -> dict[str, str]:
    """``-o axis=value`` options as a mapping."""
    overrides = {}
    for pair in pairs:
        axis, sep, value = pair.partition("=")
        if not sep:
            raise ConventionError(f"-o {pair!r}: expected AXIS=VALUE")
        overrides[axis.strip()] = value
    return overrides


def _available(name: str, metric: str) -> AnyAdapter:
    adapter = get_adapter(name, metric)
    adapter.ensure_available()
    return adapter


def _format_text(result: Result) -> str:
    if not isinstance(result, BleuResult):
        return (
            f"R = {result.recall:.5f} P = {result.precision:.5f} F = {result.fmeasure:.5f} "
            f"(matches = {result.matches:g} hyp_total = {result.hyp_total:g} "
            f"ref_total = {result.ref_total:g})"
        )
    precisions = "/".join(f"{p:.1f}" for p in result.precisions)
    ratio = result.sys_len / result.ref_len if result.ref_len else 0.0
    return (
        f"BLEU = {result.score:.2f} {precisions} (BP = {result.bp:.3f} ratio = {ratio:.3f} "
        f"hyp_len = {result.sys_len} ref_len = {result.ref_len:g})"
    )


def cmd_score(args: argparse.Namespace) -> int:
    adapter = _available(args.impl, args.metric)
    options = adapter.options(args.metric, _overrides(args.option))
    corpus = read_corpus(args.hyp, args.ref)
    if family(args.metric) == "rouge":
        corpus = corpus.with_sentence_breaks()
    try:
        result = adapter.corpus_score(args.metric, corpus.hyps, corpus.refs, options)
        sentences = (
            adapter.sentence_scores(args.metric, corpus.hyps, corpus.refs, options)
            if args.sentences
            else None
        )
    except Exception as error:  # the peer's own failure, not metricdiff's
        raise ImplementationFailed(
            f"{adapter.name} {adapter.version()} failed on {args.hyp}: "
            f"{type(error).__name__}: {error}"
        ) from error
    signature = adapter.signature(args.metric, options)
    if args.format == "json":
        document: dict[str, Any] = {
            "impl": adapter.name,
            "impl_version": adapter.version(),
            "metric": args.metric,
            "options": profile_of(options),
            "signature": signature,
            "corpus": result.to_json(),
        }
        if sentences is not None:
            document["sentences"] = [s.to_json() for s in sentences]
        print(json.dumps(document, ensure_ascii=False))
        return 0
    for number, sentence in enumerate(sentences or [], start=1):
        print(f"{number}\t{_format_text(sentence)}")
    print(_format_text(result))
    print(signature)
    return 0


def cmd_impls(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for name in adapter_names():
        adapters = [adapter_for_family(name, f) for f in families_of(name)]
        reasons = [a.unavailable_reason() for a in adapters]
        rows.append({
            "name": name,
            "version": adapters[0].version(),
            "available": all(reason is None for reason in reasons),
            "reason": "; ".join(reason for reason in reasons if reason),
            "metrics": [metric for a in adapters for metric in a.metrics],
            "profile": {
                a.family: profile_of(a.default_options(a.metrics[0]))
                for a in adapters
            },
        })
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for row in rows:
        state = "available" if row["available"] else f"unavailable: {row['reason']}"
        print(f"{row['name']} {row['version']} ({', '.join(row['metrics'])}): {state}")
        for metric, profile in row["profile"].items():
            axes = " ".join(f"{axis}={value}" for axis, value in profile.items())
            print(f"  {metric}: {axes}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from metricdiff.reports.check import problems, write_reports
    from metricdiff.runner import run_cases

    names = args.impl or adapter_names()
    adapters: list[AnyAdapter] = []
    for name in names:
        for adapter_family in families_of(name):
            adapter = adapter_for_family(name, adapter_family)
            reason = adapter.unavailable_reason()
            if reason is None:
                adapters.append(adapter)
            else:
                print(f"skipped {reason}", file=sys.stderr)
    cases = load_all(Path(args.fixtures))
    outcomes = run_cases(cases, adapters)
    impls = list(dict.fromkeys(adapter.name for adapter in adapters))
    signatures = {
        f"{a.name} ({a.family})": a.signature(
            a.metrics[0], a.default_options(a.metrics[0])
        )
        for a in adapters
    }
    written = write_reports(Path(args.out), outcomes, impls, signatures)
    found = problems(outcomes)
    for outcome in found:
        print(f"{outcome.status}: {outcome.impl} on {outcome.case_id}: {outcome.detail}")
    print(
        f"{len(cases)} cases, {len(impls)} implementations, {len(outcomes)} outcomes, "
        f"{len(found)} problems; wrote {', '.join(str(p) for p in written)}"
    )
    return 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def cmd_audit(args: argparse.Namespace) -> int:
    from metricdiff import audit_inputs, audit_output
    from metricdiff.adapters.base import Tolerance
    from metricdiff.audit import audit_metric
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

    def progress(message: str) -> None:
        if args.format == "text":
            print(message, file=sys.stderr)

    show = args.progress if args.progress is not None else _isatty(sys.stderr)
    journal = Journal(Path(args.out) / JOURNAL_NAME, args.resume) if args.out else None
    audits = []
    try:
        for metric, cases in plan.items():
            audits.append(audit_metric(metric, cases, args.impl, args.jobs, args.timeout,
                                       not args.no_minimise, progress, journal,
                                       sys.stderr if show else None))
            if args.out:  # what is done is kept, even if a later metric fails
                audit_output.write_findings(Path(args.out), audits)
    finally:
        if journal is not None:
            journal.close()
    if args.save_fixtures:
        saved = audit_output.save_fixtures(Path(args.save_fixtures), audits)
        if saved:
            print(f"saved minimal counterexamples to {saved}", file=sys.stderr)
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
    counts = {kind: sum(1 for f in findings if f.kind == kind) for kind in KINDS}
    scored = sum(len(a.cases) for a in audits)
    unexplained = sum(1 for f in findings if f.kind in ("conformance", "agreement")
                      and not f.explained)
    print(
        f"audit: {len(audits)} metrics, {scored} cases, {len(findings)} findings ("
        + ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
        + f"; {unexplained} unexplained)"
        + (f"; wrote {args.out}/findings.json" if args.out else "")
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="metricdiff", description=__doc__)
    parser.add_argument("--version", action="version", version=f"metricdiff {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = commands.add_parser("score", help="score a corpus with one implementation")
    score.add_argument("--impl", default="reference", help="implementation (see `impls`)")
    score.add_argument("--metric", default="bleu", choices=METRICS,
                       help="bleu, rouge-1 .. rouge-9, rouge-l, rouge-lsum, rouge-w, rouge-s, "
                       "rouge-su; in ROUGE input a literal \\n separates sentences")
    score.add_argument("-o", "--option", action="append", default=[], metavar="AXIS=VALUE",
                       help="set a convention axis (see shared/CONVENTIONS.md)")
    score.add_argument("--hyp", required=True, help="hypotheses, one per line ('-' = stdin)")
    score.add_argument("--ref", action="append", required=True,
                       help="references, one per line; repeat for several per segment")
    score.add_argument("--sentences", action="store_true", help="also score each line")
    score.add_argument("--format", choices=("text", "json"), default="text")
    score.set_defaults(run=cmd_score)

    impls = commands.add_parser("impls", help="list implementations and their profiles")
    impls.add_argument("--format", choices=("text", "json"), default="text")
    impls.set_defaults(run=cmd_impls)

    audit = commands.add_parser(
        "audit", help="every implementation on shared cases; disagreements explained"
    )
    audit.add_argument("--metric", action="append", choices=METRICS,
                       help="audit this metric (repeatable; default: bleu and every ROUGE)")
    audit.add_argument("--impl", action="append", help="only these implementations")
    audit.add_argument("--fixtures", help="fixture folder (default: fixtures/, used unless "
                       "--hyp or --generate is given alone)")
    audit.add_argument("--hyp", help="your hypotheses, one segment per line")
    audit.add_argument("--ref", action="append", default=[], help="your references")
    audit.add_argument("--generate", type=int, default=0, metavar="N",
                       help="add N Hypothesis-generated cases per metric")
    audit.add_argument("--seed", type=int, default=0, help="seed of the generated cases")
    audit.add_argument("--jobs", type=int, default=1, help="worker processes")
    audit.add_argument("--timeout", type=float, default=120.0,
                       help="seconds one implementation may take on one batch")
    audit.add_argument("--out", help="write findings.json and results.jsonl here, and "
                       "journal.jsonl (every case's outcome as it is scored) as it goes")
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
    audit.set_defaults(run=cmd_audit)

    check = commands.add_parser("check", help="run every implementation on the fixtures")
    check.add_argument("--fixtures", default="fixtures", help="folder of fixture files")
    check.add_argument("--impl", action="append", help="only these implementations")
    check.add_argument("--out", default="reports", help="folder for check.md and check.json")
    check.set_defaults(run=cmd_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except (InputError, FixtureError, ConventionError, AdapterUnavailable) as error:
        print(f"metricdiff: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ImplementationFailed as error:
        print(f"metricdiff: error: {error}", file=sys.stderr)
        return EXIT_IMPLEMENTATION_FAILED
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())

"""``metricdiff rank``: several systems on one test set, ranked under every
implementation with confidence intervals and paired significance tests, and
whether each pair's order holds across implementations and conventions."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from metricdiff import limits
from metricdiff.cases.case import Case
from metricdiff.cases.files import read_corpus
from metricdiff.cases.prepared import warn_if_prepared
from metricdiff.cli._common import Commands, add_jobs, seconds, whole_number
from metricdiff.cli.compare import samples_for
from metricdiff.errors import InputError
from metricdiff.impls import check_named, chosen_metrics
from metricdiff.profiles.metrics import METRICS


def named_files(pairs: Sequence[str]) -> dict[str, str]:
    """``--hyp NAME=FILE`` options as name -> file, in order; a name given twice,
    or an option without ``=``, is a one-line error."""
    named: dict[str, str] = {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not name or not path:
            raise InputError(f"--hyp {pair!r}: expected NAME=FILE, e.g. --hyp baseline=base.txt")
        if name in named:
            raise InputError(f"--hyp {pair!r}: system {name!r} is given twice")
        named[name] = path
    return named


def read_systems(args: argparse.Namespace) -> dict[str, Case]:
    """Each system's corpus (its hypotheses, the shared references), in the order
    given: the first is the baseline.  At least two systems, of the same length."""
    if args.jsonl is not None:
        if args.hyp or args.ref:
            raise InputError(f"{args.jsonl}:0: --jsonl replaces --hyp and --ref; give one or "
                             "the other")
        from metricdiff.cases.jsonl import DEFAULT_REF_FIELD, read_jsonl

        fields = args.hyp_field or []
        systems = {field: read_jsonl(args.jsonl, field, args.ref_field or DEFAULT_REF_FIELD)
                   for field in dict.fromkeys(fields)}
        where = args.jsonl
    else:
        if args.hyp_field or args.ref_field:
            raise InputError("--hyp-field and --ref-field name keys of --jsonl's objects; "
                             "give --jsonl FILE")
        if not args.ref:
            raise InputError("no references: give --ref FILE (repeat for several per segment)")
        systems = {name: read_corpus(path, args.ref)
                   for name, path in named_files(args.hyp or []).items()}
        where = args.ref[0]
    if len(systems) < 2:
        raise InputError("rank needs at least two systems: --hyp NAME=FILE twice or more "
                         "(or --jsonl FILE with --hyp-field KEY twice or more)")
    sizes = {name: len(case.hyps) for name, case in systems.items()}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"{name} {size}" for name, size in sizes.items())
        raise InputError(f"{where}:0: the systems have different numbers of segments "
                         f"({listed}); they must translate the same test set")
    return systems


def run(args: argparse.Namespace) -> int:
    from metricdiff.comparison.corpus import DEFAULT_METRICS
    from metricdiff.conclusions.rank import rank_corpus
    from metricdiff.conclusions.rank_render import render
    from metricdiff.conclusions.resampling import DEFAULTS, SACREBLEU_SEED, Resampling

    metrics = chosen_metrics(args.metric, args.impl, DEFAULT_METRICS)
    check_named(args.impl or [], metrics)
    systems = read_systems(args)
    schemes = {}
    for family, default in DEFAULTS.items():
        scheme = args.resample or default.scheme
        seed = args.seed if args.seed is not None else (
            SACREBLEU_SEED if scheme == "bootstrap-sacrebleu" else 0)
        schemes[family] = Resampling.parse(
            scheme, seed, default.samples if args.samples is None else args.samples,
            args.trials)
    for name, case in systems.items():
        warn_if_prepared(case.hyps, case.refs, name=name)
    samples = {metric: {name: samples_for(case, [metric])[metric]
                        for name, case in systems.items()} for metric in metrics}
    ranking = rank_corpus(samples, args.impl, report=args.report, resampling=schemes,
                          test=args.test, all_pairs=args.all_pairs, workers=args.jobs,
                          timeout=args.timeout)
    if args.format == "json":
        sys.stdout.write(json.dumps(ranking.to_dict()["metrics"], ensure_ascii=False,
                                    indent=1) + "\n")
    else:
        sys.stdout.write(render(ranking, args.format))
    return 0


def register(commands: Commands) -> None:
    rank = commands.add_parser(
        "rank", help="several systems under every implementation: intervals, paired tests, "
        "and whether each order holds")
    rank.add_argument("--metric", action="append", choices=METRICS,
                      help="rank on this metric (repeatable; default: bleu, rouge-1, rouge-2, "
                      "rouge-l, rouge-lsum)")
    rank.add_argument("--impl", action="append",
                      help="only these implementations, besides the paper's profile "
                      "(repeatable; default: every available one, see `impls`)")
    group = rank.add_argument_group(
        "input", "the systems and the references they share (docs/inputs.md); the first "
        "system is the baseline")
    group.add_argument("--hyp", action="append", metavar="NAME=FILE",
                       help="a system's output, one segment per line (repeat: two or more)")
    group.add_argument("--ref", action="append", default=[], metavar="FILE",
                       help="references, one per line (repeat for several per segment)")
    group.add_argument("--jsonl", metavar="FILE", help="instead of --hyp/--ref: one JSON "
                       "object per segment, each system's output under its own key")
    group.add_argument("--hyp-field", action="append", metavar="KEY",
                       help="--jsonl's key of a system's output, which names the system "
                       "(repeat: two or more)")
    group.add_argument("--ref-field", metavar="KEY",
                       help="--jsonl's key of the references (default: ref)")
    rank.add_argument("--test", choices=("bootstrap", "ar", "both"), default="both",
                      help="paired bootstrap resampling, approximate randomization, or both "
                      "(default)")
    rank.add_argument("--all-pairs", action="store_true",
                      help="test every pair of systems, not only each against the baseline")
    rank.add_argument("--resample", metavar="SCHEME",
                      help="the resampling scheme, a bootstrap value of the corpus_average "
                      "axis: bootstrap-sacrebleu (BLEU's default), bootstrap-median "
                      "(rouge-score's, ROUGE's default), bootstrap-mean, bootstrap-rouge155")
    rank.add_argument("--seed", help="bootstrap_seed (default: 12345 under sacrebleu's "
                      "scheme, as SACREBLEU_SEED; 0 otherwise)")
    rank.add_argument("--samples", help="bootstrap_samples (default: 1000)")
    rank.add_argument("--trials", type=whole_number(1, limits.MAX_TRIALS), default=10_000,
                      help="approximate randomization trials (default: 10000)")
    rank.add_argument("--report", choices=("f", "recall", "precision"), default="f",
                      help="the ROUGE number ranked, the same for every implementation "
                      "(default: f)")
    rank.add_argument("--format", choices=("text", "md", "json"), default="text")
    add_jobs(rank, 2, "worker processes for the implementations (default: 2)")
    rank.add_argument("--timeout", type=seconds, default=120.0, metavar="SECONDS",
                      help="seconds one implementation may take on one system (default: "
                      "120; inf: no limit)")
    rank.set_defaults(run=run)

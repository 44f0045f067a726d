"""``metricdiff reproduce``: which implementation and profile give a printed
score on the system output and its references, and whether a signature fits it."""

from __future__ import annotations

import argparse
import json
import sys

from metricdiff.cases.prepared import warn_if_prepared
from metricdiff.cli._common import Commands, add_input_options, add_jobs, read_input, seconds
from metricdiff.profiles.metrics import METRICS


def run(args: argparse.Namespace) -> int:
    from metricdiff.conclusions.render import render_reproduction
    from metricdiff.conclusions.reproduce import Printed, reproduce_score

    Printed.parse(args.score)  # a bad number is an error before anything is read
    corpus = read_input(args).for_metric(args.metric)
    warn_if_prepared(corpus.hyps, corpus.refs)
    result = reproduce_score(args.score, corpus.sample, args.metric, args.impl,
                             args.signature, args.jobs, args.timeout)
    if args.format == "json":
        sys.stdout.write(json.dumps(result.to_dict(), ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(render_reproduction(result, args.format))
    return 0


def register(commands: Commands) -> None:
    parser = commands.add_parser(
        "reproduce", help="which implementation and profile give a printed score")
    parser.add_argument("score", help="the score as printed, e.g. 27.3 or 0.4173")
    parser.add_argument("--metric", choices=METRICS, default="bleu",
                        help="the metric the score is of (default: bleu)")
    parser.add_argument("--impl", action="append",
                        help="only these implementations as starting points (repeatable; "
                        "default: every available one)")
    parser.add_argument("--signature", metavar="SIGNATURE",
                        help="also check the score against this signature: ours, or "
                        "sacrebleu's ('nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|"
                        "version:2.6.0')")
    add_input_options(parser, "; the system output whose score was printed")
    parser.add_argument("--format", choices=("text", "md", "json"), default="text")
    add_jobs(parser, 2, "worker processes for the implementations (default: 2)")
    parser.add_argument("--timeout", type=seconds, default=120.0, metavar="SECONDS",
                        help="seconds one implementation may take (default: 120; inf: no "
                        "limit)")
    parser.set_defaults(run=run)

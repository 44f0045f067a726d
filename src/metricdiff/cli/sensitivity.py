"""``metricdiff sensitivity``: how far each convention moves the score on your
corpus, one axis value at a time from the paper's profile, then the pairs of
axes that interact: a table for a paper's appendix."""

from __future__ import annotations

import argparse
import json
import sys

from metricdiff.cases.prepared import warn_if_prepared
from metricdiff.cli._common import Commands, add_input_options, read_input, whole_number
from metricdiff.profiles.metrics import METRICS


def run(args: argparse.Namespace) -> int:
    from metricdiff.conclusions.render import render_sensitivity
    from metricdiff.conclusions.sensitivity import sensitivity_of

    corpus = read_input(args)
    warn_if_prepared(corpus.hyps, corpus.refs)
    metrics = list(dict.fromkeys(args.metric or ["bleu"]))
    results = [sensitivity_of(corpus.for_metric(metric).sample, metric, args.report)
               for metric in metrics]
    if args.format == "json":
        sys.stdout.write(json.dumps([r.to_dict() for r in results], ensure_ascii=False,
                                    indent=1) + "\n")
    else:
        sys.stdout.write("\n".join(render_sensitivity(r, args.format, args.top)
                                   for r in results))
    return 0


def register(commands: Commands) -> None:
    parser = commands.add_parser(
        "sensitivity", help="how far each convention moves the score on your corpus")
    parser.add_argument("--metric", action="append", choices=METRICS,
                        help="the metric (repeatable; default: bleu)")
    add_input_options(parser, "; the text whose sensitivity is measured")
    parser.add_argument("--report", choices=("f", "recall", "precision"), default="f",
                        help="the ROUGE number a paper quotes (default: f)")
    parser.add_argument("--top", type=whole_number(1), default=15,
                        help="rows shown of each table (default: 15; --format json has all)")
    parser.add_argument("--format", choices=("text", "md", "json"), default="text")
    parser.set_defaults(run=run)

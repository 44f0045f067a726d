"""``metricdiff compare``: every implementation's corpus score, and every gap
between two of them split into the contribution of each convention axis."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from metricdiff.atomic import folder_lock, write_group
from metricdiff.cases.case import Case, Sample
from metricdiff.cli._common import (
    Commands,
    add_input_options,
    add_jobs,
    output_folder,
    plural,
    read_input,
    seconds,
)
from metricdiff.errors import OutputError
from metricdiff.impls import check_named, chosen_metrics
from metricdiff.profiles.metrics import METRICS

#: What ``--out`` writes.
OUT_FILES = {"json": "compare.json", "md": "compare.md", "text": "compare.txt"}


def samples_for(corpus: Case, metrics: Sequence[str]) -> dict[str, Sample]:
    """Each metric's view of the corpus (``Case.for_metric``): ROUGE reads a literal
    ``\\n`` in a line as a sentence break, BLEU reads the line as it is."""
    return {metric: corpus.for_metric(metric).sample for metric in metrics}


def run(args: argparse.Namespace) -> int:
    from metricdiff.comparison.corpus import DEFAULT_METRICS, compare_corpus
    from metricdiff.comparison.render import render

    metrics = chosen_metrics(args.metric, args.impl, DEFAULT_METRICS)
    check_named(args.impl or [], metrics)
    corpus = read_input(args)
    out = output_folder(args.out) if args.out else None
    comparison = compare_corpus(samples_for(corpus, metrics), args.impl, args.report,
                                args.jobs, args.timeout)
    texts = {
        "json": json.dumps(comparison.to_dict()["metrics"], ensure_ascii=False, indent=1) + "\n",
        "md": render(comparison, "md"),
        "text": render(comparison, "text"),
    }
    sys.stdout.write(texts[args.format])
    if out is not None:
        # The three files of one run together, atomically: a full disk or a FIFO
        # in the folder leaves the previous ones whole, never a mix of two runs.
        try:
            with folder_lock(out):
                write_group({Path(out, name): texts[fmt] for fmt, name in OUT_FILES.items()})
        except OSError as error:
            raise OutputError(f"--out {out}: cannot write {', '.join(OUT_FILES.values())}: "
                              f"{error.strerror or error}") from None
        print(f"compare: {plural(len(metrics), 'metric')}, {plural(len(corpus.hyps), 'segment')}; "
              f"wrote {', '.join(str(Path(out, name)) for name in OUT_FILES.values())}",
              file=sys.stderr)
    return 0


def register(commands: Commands) -> None:
    compare = commands.add_parser(
        "compare", help="every implementation's corpus score; each gap split by convention")
    compare.add_argument("--metric", action="append", choices=METRICS,
                         help="compare this metric (repeatable; default: bleu, rouge-1, "
                         "rouge-2, rouge-l, rouge-lsum)")
    compare.add_argument("--impl", action="append",
                         help="only these implementations, besides the paper's profile "
                         "(repeatable; default: every available one, see `impls`)")
    add_input_options(compare)
    compare.add_argument("--report", choices=("f", "recall", "precision"), default="f",
                         help="the ROUGE number compared, the same for every implementation "
                         "(default: f)")
    compare.add_argument("--format", choices=("text", "md", "json"), default="text")
    compare.add_argument("--out", help="also write compare.json, compare.md and compare.txt here")
    add_jobs(compare, 2, "worker processes for the implementations (default: 2)")
    compare.add_argument("--timeout", type=seconds, default=120.0, metavar="SECONDS",
                         help="seconds one implementation may take on one metric (default: "
                         "120; inf: no limit)")
    compare.set_defaults(run=run)

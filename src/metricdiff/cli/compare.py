"""``metricdiff compare``: every implementation's corpus score, and every gap
between two of them split into the contribution of each convention axis."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from metricdiff.cases.case import Case, Sample
from metricdiff.cli._common import (
    Commands,
    add_input_options,
    computes,
    output_folder,
    plural,
    read_input,
)
from metricdiff.impls import chosen_metrics
from metricdiff.profiles import ConventionError
from metricdiff.profiles.metrics import METRICS

#: What ``--out`` writes.
OUT_FILES = {"json": "compare.json", "md": "compare.md", "text": "compare.txt"}


def samples_for(corpus: Case, metrics: Sequence[str]) -> dict[str, Sample]:
    """Each metric's view of the corpus (``Case.for_metric``): ROUGE reads a literal
    ``\\n`` in a line as a sentence break, BLEU reads the line as it is."""
    return {metric: corpus.for_metric(metric).sample for metric in metrics}


def warn_prepared(corpus: Case, name: str = "") -> None:
    """``warning: ...`` on stderr when the corpus looks prepared already
    (``cases/prepared.py``); ``name``: the system's, when there are several."""
    from metricdiff.cases.prepared import prepared_input

    found = prepared_input(corpus.hyps, corpus.refs)
    if found is not None:
        print(f"warning: {name + ': ' if name else ''}{found.message()}", file=sys.stderr)


def _check_impls(impls: Sequence[str], metrics: Sequence[str]) -> None:
    """A named implementation that is unknown, or computes none of the metrics,
    is an error before anything is scored."""
    from metricdiff.impls import families_of

    for name in impls:
        families_of(name)  # an unknown name is an error, not a silent no-show
        if not any(computes(name, metric) for metric in metrics):
            raise ConventionError(f"{name} computes none of: {', '.join(metrics)}")


def run(args: argparse.Namespace) -> int:
    from metricdiff.comparison.corpus import DEFAULT_METRICS, compare_corpus
    from metricdiff.comparison.render import render

    metrics = chosen_metrics(args.metric, args.impl, DEFAULT_METRICS)
    _check_impls(args.impl or [], metrics)
    corpus = read_input(args)
    warn_prepared(corpus)
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
        for fmt, name in OUT_FILES.items():
            Path(out, name).write_text(texts[fmt], encoding="utf-8")
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
    compare.add_argument("--jobs", type=int, default=2,
                         help="worker processes for the implementations (default: 2)")
    compare.add_argument("--timeout", type=float, default=120.0,
                         help="seconds one implementation may take on one metric")
    compare.set_defaults(run=run)

"""``metricdiff compare``: every implementation's corpus score, and its gap to
the paper's profile split into the contribution of each convention axis; the
gap between two implementations too, for the pairs asked for (``--pair``) or
every pair when at most four are named."""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from metricdiff.atomic import folder_lock, write_group
from metricdiff.cases.case import Case, Sample
from metricdiff.cases.prepared import warn_if_prepared
from metricdiff.cli._common import (
    Commands,
    add_cache_option,
    add_input_options,
    add_jobs,
    add_pair_option,
    add_progress_option,
    computes,
    isatty,
    output_folder,
    plural,
    read_input,
    score_cache,
    seconds,
)
from metricdiff.errors import ConventionError, MetricdiffWarning, OutputError
from metricdiff.impls import check_named, chosen_metrics
from metricdiff.markdown_text import code
from metricdiff.profiles.metrics import METRICS
from metricdiff.progress import Progress
from metricdiff.wording import from_cache

#: What ``--out`` writes.
OUT_FILES = {"json": "compare.json", "md": "compare.md", "text": "compare.txt"}


def samples_for(corpus: Case, metrics: Sequence[str]) -> dict[str, Sample]:
    """Each metric's view of the corpus (``Case.for_metric``): ROUGE reads a literal
    ``\\n`` in a line as a sentence break, BLEU reads the line as it is."""
    return {metric: corpus.for_metric(metric).sample for metric in metrics}


def _check_pairs(impls: Sequence[str], metrics: Sequence[str],
                 pairs: Sequence[tuple[str, str]]) -> None:
    """A pair naming an unknown implementation, one that takes no part, or two
    that share no metric compared here is an error before anything is scored."""
    from metricdiff.impls import families_of

    for pair in pairs:
        for name in pair:
            families_of(name)
            if impls and name not in impls and name != "reference":
                raise ConventionError(f"--pair {','.join(pair)}: {name} is not among the "
                                      f"--impl named ({', '.join(impls)})")
        if not any(all(computes(name, metric) for name in pair) for metric in metrics):
            raise ConventionError(f"--pair {','.join(pair)}: no metric compared here "
                                  f"({', '.join(metrics)}) is computed by both")


def run(args: argparse.Namespace) -> int:
    from metricdiff.comparison.corpus import DEFAULT_METRICS, compare_corpus
    from metricdiff.comparison.detokenized import check_lang, with_detokenized
    from metricdiff.comparison.render import render
    from metricdiff.scoring.worker import warm_up

    warm_up()  # the workers' start-up runs beside the reading and the profiles
    metrics = chosen_metrics(args.metric, args.impl, DEFAULT_METRICS)
    check_named(args.impl or [], metrics)
    _check_pairs(args.impl or [], metrics, args.pair)
    if args.lang is not None:
        check_lang(args.lang)
    corpus = read_input(args)
    prepared = warn_if_prepared(corpus.hyps, corpus.refs)
    out = output_folder(args.out) if args.out else None
    show = args.progress if args.progress is not None else isatty(sys.stderr)
    line = Progress("compare", sys.stderr) if show else None
    try:
        with score_cache(args, "compare") as cache:
            samples = samples_for(corpus, metrics)
            comparison = compare_corpus(samples, args.impl, args.report, args.jobs,
                                        args.timeout, pairs=args.pair, progress=line)
            comparison = with_detokenized(comparison, samples, prepared, args.lang, args.impl,
                                          args.report, args.jobs, args.timeout)
            cached = None if cache is None else (cache.counts, str(cache.folder))
    except BaseException:
        if line is not None:
            line.interrupted()
        raise
    texts = {
        "json": json.dumps(comparison.to_dict()["metrics"], ensure_ascii=False, indent=1) + "\n",
        "md": render(comparison, "md"),
        "text": render(comparison, "text"),
    }
    if cached is not None:  # the last line of what a reader sees, and of the files
        counts, folder = cached
        texts["md"] += f"\n{from_cache(counts.hits, counts.asked, code(folder, table=False))}.\n"
        texts["text"] += f"\n{from_cache(counts.hits, counts.asked, folder)}.\n"
    sys.stdout.write(texts[args.format])
    if args.format == "json":  # text and Markdown say it under each table
        said = (text for found in comparison.metrics for text in found.lost_input_lines())
        for text in dict.fromkeys(said):  # shown as `metricdiff: warning: ...` (cli.main)
            warnings.warn(text, MetricdiffWarning, stacklevel=1)
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
        "compare", help="every implementation's corpus score; its gap to the paper split "
        "by convention")
    compare.add_argument("--metric", action="append", choices=METRICS,
                         help="compare this metric (repeatable; default: bleu, rouge-1, "
                         "rouge-2, rouge-l, rouge-lsum)")
    compare.add_argument("--impl", action="append",
                         help="only these implementations, besides the paper's profile "
                         "(repeatable; default: every available one, see `impls`); with "
                         "at most four, every pair's gap is split too")
    add_pair_option(compare, "each implementation's gap to the paper is split always")
    add_input_options(compare)
    compare.add_argument("--report", choices=("f", "recall", "precision"), default="f",
                         help="the ROUGE number compared, the same for every implementation "
                         "(default: f)")
    compare.add_argument("--lang", help="the input's language, for the detokenizer that shows "
                         "what tokenized input does to each score (sacremoses, the moses "
                         "extra; default: en, assumed and said)")
    compare.add_argument("--format", choices=("text", "md", "json"), default="text")
    compare.add_argument("--out", help="also write compare.json, compare.md and compare.txt here")
    add_jobs(compare, 2, "worker processes for the implementations (default: 2)")
    compare.add_argument("--timeout", type=seconds, default=120.0, metavar="SECONDS",
                         help="seconds one implementation may take on one metric (default: "
                         "120; inf: no limit)")
    add_progress_option(compare, "comparing")
    add_cache_option(compare)
    compare.set_defaults(run=run)

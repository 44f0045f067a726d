"""How long ``metricdiff compare`` takes, against the implementations' own scoring
in the same run.

    python benchmarks/bench_compare.py [--jobs 2] [--metric bleu --metric rouge-l]

On the real translations of ``benchmarks/data/translations`` (332 segment
pairs), every available implementation (the Perl script included) scores BLEU,
ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum in worker processes while the reference
works out every pair's attribution.  Printed: the whole comparison's wall time,
the wall time of the implementations' scoring inside it, and their ratio (how
much the attribution adds to what scoring with the libraries costs anyway).
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench_audit import timed  # the benchmarks' directory is on sys.path
from metricdiff.cases.files import read_corpus
from metricdiff.cli.compare import samples_for
from metricdiff.comparison import corpus as compare_module
from metricdiff.scoring.execution import shutdown_workers

DATA = Path(__file__).resolve().parent / "data" / "translations"
METRICS = ("bleu", "rouge-1", "rouge-2", "rouge-l", "rouge-lsum")


def run(metrics: Sequence[str], jobs: int) -> dict[str, Any]:
    corpus = read_corpus(str(DATA / "hyp.txt"), [str(DATA / "ref.txt")])
    samples = samples_for(corpus, metrics)
    peers, restore = timed(compare_module, "score_in_workers")
    start = time.perf_counter()
    try:
        found = compare_module.compare_corpus(samples, workers=jobs)
    finally:
        restore()
    total = time.perf_counter() - start
    impls = sorted({s.impl for m in found.metrics for s in m.scores if s.score is not None})
    failed = sorted({f"{s.impl}: {s.error}" for m in found.metrics for s in m.scores
                     if s.score is None})
    return {"total": total, "peers": sum(peers), "impls": impls, "failed": failed,
            "segments": len(corpus.hyps),
            "gaps": sum(len(m.gaps) for m in found.metrics)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metric", action="append", choices=METRICS)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    found = run(args.metric or METRICS, args.jobs)
    shutdown_workers()
    print(f"{found['segments']} segments, {', '.join(args.metric or METRICS)}; "
          f"{len(found['impls'])} implementations scored: {', '.join(found['impls'])}; "
          f"{found['gaps']} gaps attributed")
    for failure in found["failed"]:
        print(f"could not score: {failure}")
    print(f"compare: {found['total']:.1f} s; the implementations' own scoring in it: "
          f"{found['peers']:.1f} s; ratio {found['total'] / found['peers']:.2f}")


if __name__ == "__main__":
    main()

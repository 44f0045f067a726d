"""``metricdiff compare`` as a user runs it, against the implementations' own
scoring of the same work (``floor.py``), both measured in this run.

    python benchmarks/bench_compare.py                # 500 real pairs
    python benchmarks/bench_compare.py --pairs 200    # fewer
    python benchmarks/bench_compare.py --repeat 3     # three rounds, each ratio printed

Issue 26 asks that ``compare`` with its default metrics (BLEU, ROUGE-1, ROUGE-2,
ROUGE-L, ROUGE-Lsum) and every available implementation take at most 1.3 times
its floor on 500 real pairs.  The pairs are ``floor.real_pairs``: the 332 real
translation pairs of ``data/translations`` and 168 of them the other way round.
Each round runs ``metricdiff compare --hyp H --ref R --jobs 2`` in a fresh
process (wall time), then the floor: each implementation's corpus score of
each metric under its declared profile, alone in a fresh process, two at a
time, CPU seconds over the two cores, measured before and after ``compare``
and the mean taken (``floor.around``).  It prints

    RATIO compare default 500-real-pairs wall/own-scoring-floor X (target <= 1.3; ...)

with the machine's load before and after.  Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from floor import (
    CORES,
    Work,
    around,
    available_impls,
    command,
    drift,
    fixed_cost,
    fixed_ratio,
    floor_of,
    load,
    own_costs,
    print_costs,
    real_pairs,
    run_timed,
    start_ratio,
)

METRICS = ("bleu", "rouge-1", "rouge-2", "rouge-l", "rouge-lsum")
TARGET = 1.3


def compare_wall(hyp: Path, ref: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``metricdiff compare`` (a fresh process)."""
    return run_timed(command("compare", "--hyp", str(hyp), "--ref", str(ref), "--jobs",
                             str(CORES)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    impls = available_impls()
    print(f"compare: {args.pairs} real pairs, {', '.join(METRICS)}, {len(impls)} "
          f"implementations: {', '.join(impls)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="metricdiff-bench-compare-") as folder:
        hyp, ref = real_pairs(args.pairs, Path(folder))
        work = Work("compare", METRICS, hyp=str(hyp), ref=str(ref))
        for _ in range(args.repeat):
            first = own_costs(impls, work)
            before = load()
            wall, cpu = compare_wall(hyp, ref)
            between = load()
            fixed, fixed_cpu = fixed_cost(compare_wall, Path(folder))
            then = own_costs(impls, work)
            costs = around(first, then)
            print_costs(costs)
            print(drift(first, then), flush=True)
            floor = floor_of(costs.scoring)
            print(f"compare: {wall:.1f} s wall, {cpu:.1f} CPU-s; floor {floor:.1f} s "
                  f"({sum(costs.scoring.values()):.1f} CPU-s over {CORES} cores)", flush=True)
            print(f"RATIO compare default {args.pairs}-real-pairs wall/own-scoring-floor "
                  f"{wall / max(floor, 1e-9):.2f} (target <= {TARGET}; {wall:.1f} s / "
                  f"{floor:.1f} s; in CPU {cpu / CORES / max(floor, 1e-9):.2f}; {before} "
                  f"before, {between} after compare, {load()} after the floor)", flush=True)
            print(f"compare on 1 real pair (the fixed cost): {fixed:.1f} s wall, "
                  f"{fixed_cpu:.1f} CPU-s", flush=True)
            print(fixed_ratio(f"compare default {args.pairs}-real-pairs", wall, fixed, floor),
                  flush=True)
            print(start_ratio(f"compare default {args.pairs}-real-pairs", wall, costs, TARGET),
                  flush=True)


if __name__ == "__main__":
    main()

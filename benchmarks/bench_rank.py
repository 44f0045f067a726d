"""``metricdiff rank`` against the implementations' own per-segment scoring of
the same systems (``floor.py``), both measured in the same run.

    python benchmarks/bench_rank.py            # 3 systems x 500 real pairs
    python benchmarks/bench_rank.py --quick    # 3 systems x 150 pairs
    python benchmarks/bench_rank.py --repeat 3 # three rounds, each ratio printed

The systems are ``tests/helpers.py``'s ``system_variants``: the real
translations of ``data/translations`` (its 332 pairs, then the same pairs with
the two translations' roles swapped), a better and a worse variant of them.
Each round measures, one after the other:

1. **rank**: ``metricdiff rank --metric bleu --metric rouge-l`` with every
   available implementation, 1,000 bootstrap resamples and 10,000 randomization
   trials (the defaults), ``--jobs 2``, in a fresh process: its wall time, and
   the CPU seconds of it and every process below it (``floor.run_timed``);
2. **the fixed cost** no ``rank`` can avoid: the same command on 3 systems of
   one pair each (starting metricdiff, its forkserver importing the peers, each
   worker loading its implementations, the isolated peers' own interpreters);
3. **the floor**, as ``floor.py`` defines it (work ``rank``): each
   implementation scoring every segment of the three systems under its declared
   profile, alone in a fresh process, CPU seconds over the two cores.

It prints ``RATIO rank 3x500 bleu+rouge-l wall/own-scoring-floor`` (target
<= 1.5) with rank's CPU seconds over the cores against the floor beside it
(``in CPU``), then ``RATIO rank 3x500 bleu+rouge-l wall/(floor+fixed-cost)``:
the same wall time against the floor plus the fixed cost, and the machine's
load average before rank, after it and after the floor.  Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from floor import (
    CORES,
    Work,
    available_impls,
    command,
    floor_of,
    load,
    own_costs,
    print_costs,
    run_timed,
)

ROOT = Path(__file__).resolve().parent.parent
METRICS = ("bleu", "rouge-l")
TARGET = 1.5


def systems(size: int) -> tuple[dict[str, list[str]], list[str]]:
    sys.path.insert(0, str(ROOT / "tests"))
    from helpers import system_variants

    return system_variants(size)


def write(folder: Path, size: int) -> tuple[list[str], Work]:
    """The systems and references as files: ``rank``'s input options, and the
    floor's work on them."""
    found, refs = systems(size)
    argv, files = [], []
    for name, lines in found.items():
        path = folder / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv += ["--hyp", f"{name}={path}"]
        files.append(str(path))
    ref = folder / "ref.txt"
    ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
    return [*argv, "--ref", str(ref)], Work("rank", METRICS, ref=str(ref), systems=tuple(files))


def rank_timed(inputs: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``metricdiff rank`` on ``inputs`` (a fresh process)."""
    return run_timed(command("rank", *(f"--metric={m}" for m in METRICS), *inputs,
                             "--format", "json", "--jobs", str(CORES)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="150 pairs")
    parser.add_argument("--size", type=int, help="pairs per system (default 500)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    size = args.size or (150 if args.quick else 500)
    impls = available_impls()
    print(f"rank: 3 systems x {size} real pairs, {' + '.join(METRICS)}, {len(impls)} "
          f"implementations: {', '.join(impls)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="metricdiff-bench-rank-") as folder:
        inputs, work = write(Path(folder), size)
        (Path(folder) / "one").mkdir()
        tiny, _ = write(Path(folder) / "one", 1)
        for _ in range(args.repeat):
            before = load()
            wall, cpu = rank_timed(inputs)
            between = load()
            fixed, fixed_cpu = rank_timed(tiny)
            costs = own_costs(impls, work)
            print_costs(costs)
            floor = floor_of(costs.scoring)
            print(f"rank: {wall:.1f} s wall, {cpu:.1f} CPU-s; fixed cost (3 systems x 1 "
                  f"pair): {fixed:.1f} s wall, {fixed_cpu:.1f} CPU-s; floor {floor:.1f} s "
                  f"({sum(costs.scoring.values()):.1f} CPU-s over {CORES} cores)", flush=True)
            print(f"RATIO rank 3x{size} bleu+rouge-l wall/own-scoring-floor "
                  f"{wall / max(floor, 1e-9):.2f} (target <= {TARGET}; {wall:.1f} s / "
                  f"{floor:.1f} s; in CPU {cpu / CORES / max(floor, 1e-9):.2f}; {before} "
                  f"before, {between} after rank, {load()} after the floor)", flush=True)
            print(f"RATIO rank 3x{size} bleu+rouge-l wall/(floor+fixed-cost) "
                  f"{wall / max(floor + fixed, 1e-9):.2f} ({wall:.1f} s / ({floor:.1f} s + "
                  f"{fixed:.1f} s); in CPU {cpu / max(floor * CORES + fixed_cpu, 1e-9):.2f})",
                  flush=True)


if __name__ == "__main__":
    main()

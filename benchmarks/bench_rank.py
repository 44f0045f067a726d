"""``metricdiff rank`` against the implementations' own per-segment scoring of
the same systems, in the same run.

    python benchmarks/bench_rank.py            # 3 systems x 500 real pairs
    python benchmarks/bench_rank.py --quick    # 3 systems x 150 pairs

The systems are ``tests/helpers.py``'s ``system_variants``: the real
translations of ``data/translations`` (its 332 pairs, then the same pairs with
the two translations' roles swapped), a better and a worse variant of them.
Measured:

1. **rank**: ``metricdiff rank --metric bleu --metric rouge-l`` with every
   available implementation, 1,000 bootstrap resamples and 10,000 randomization
   trials (the defaults), ``--jobs 2``, wall time of the whole process;
2. **the floor**, as ``bench_main_job.py`` defines it: each implementation
   scoring every segment of the three systems under its declared profile (what
   ``rank`` asks of it), alone in a fresh process, CPU seconds of that process
   and its children, summed over the implementations and divided by the two
   cores.

It prints ``RATIO rank 3x500 bleu+rouge-l wall/own-scoring-floor`` (target
<= 1.5), rank's CPU seconds (read from ``/proc`` while it runs: a lower bound,
since a program a worker starts and reaps between two readings, a Perl run, is
missed) and one ``own cost`` line per implementation.  Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_main_job import CORES, _cpu  # the benchmarks' directory is on sys.path

ROOT = Path(__file__).resolve().parent.parent
METRICS = ("bleu", "rouge-l")
TARGET = 1.5


def systems(size: int) -> tuple[dict[str, list[str]], list[str]]:
    sys.path.insert(0, str(ROOT / "tests"))
    from helpers import system_variants

    return system_variants(size)


def write(folder: Path, size: int) -> list[str]:
    """The systems and references as files; ``rank``'s input options."""
    found, refs = systems(size)
    argv = []
    for name, lines in found.items():
        path = folder / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv += ["--hyp", f"{name}={path}"]
    (folder / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    return [*argv, "--ref", str(folder / "ref.txt")]


def rank_run(inputs: list[str]) -> tuple[float, float]:
    """Wall seconds of ``metricdiff rank``, and the CPU seconds of its process tree
    (its worker processes are its grandchildren, which nobody waits for at exit, so
    ``getrusage`` would miss them: ``/proc`` is read while it runs instead)."""
    command = [sys.executable, "-c", "import sys; from metricdiff.cli import main; "
               "sys.exit(main(sys.argv[1:]))", "rank", *(f"--metric={m}" for m in METRICS),
               *inputs, "--format", "json", "--jobs", str(CORES)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    seen: dict[int, float] = {}
    while process.poll() is None:
        seen.update(tree_cpu(process.pid))
        time.sleep(0.2)
    wall = time.perf_counter() - start
    if process.returncode:
        raise SystemExit(f"rank failed with exit status {process.returncode}")
    return wall, sum(seen.values())


def tree_cpu(root: int) -> dict[int, float]:
    """CPU seconds (user + system) so far of ``root`` and every process below it."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents, cpu = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        parents[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
    below = {root}
    grown = True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in below and pid not in below:
                below.add(pid)
                grown = True
    return {pid: cpu[pid] for pid in below if pid in cpu}


def participants() -> list[str]:
    """Every implementation ``rank`` runs on the metrics (the reference included)."""
    from metricdiff.comparison.corpus import entrants

    return list(dict.fromkeys(e.name for metric in METRICS for e in entrants(metric, None, "f")
                              if e.options is not None))


def own_cost(impl: str, size: int) -> float:
    """CPU seconds ``impl`` needs to score every segment of the three systems under
    its declared profile, on every metric of ``METRICS`` it has (call it in a fresh
    process)."""
    from metricdiff.comparison.corpus import entrants

    found, refs = systems(size)
    total = 0.0
    for metric in METRICS:
        for entrant in entrants(metric, [impl], "f"):
            if entrant.name != impl or entrant.options is None:
                continue
            from metricdiff.impls import get_adapter

            adapter = get_adapter(impl, metric)
            for hyps in found.values():
                cases = [((hyp,), ((ref,),)) for hyp, ref in zip(hyps, refs, strict=True)]
                before = _cpu()
                adapter.score_cases(metric, cases, entrant.options)
                total += _cpu() - before
    return total


def own_cost_in_child(impl: str, size: int) -> float:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import bench_rank as b; "
            "print(b.own_cost(sys.argv[2], int(sys.argv[3])))")
    done = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), impl,
                           str(size)], check=True, capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="150 pairs")
    parser.add_argument("--size", type=int, help="pairs per system (default 500)")
    args = parser.parse_args()
    size = args.size or (150 if args.quick else 500)
    with tempfile.TemporaryDirectory(prefix="metricdiff-rank-") as folder:
        wall, cpu = rank_run(write(Path(folder), size))
    print(f"rank (3 systems x {size} pairs, {' + '.join(METRICS)}): {wall:.1f} s wall, "
          f"at least {cpu:.1f} CPU-s in its processes", flush=True)
    impls = participants()
    with ThreadPoolExecutor(CORES) as pool:
        costs = dict(zip(impls, pool.map(lambda impl: own_cost_in_child(impl, size), impls),
                         strict=True))
    for impl, seconds in sorted(costs.items(), key=lambda item: -item[1]):
        print(f"own cost {impl}: {seconds:.1f} CPU-s on every segment of the 3 systems")
    floor = sum(costs.values()) / CORES
    print(f"floor (own costs / {CORES} cores): {floor:.1f} s")
    load = os.getloadavg()[0]
    print(f"RATIO rank 3x{size} bleu+rouge-l wall/own-scoring-floor {wall / max(floor, 1e-9):.2f} "
          f"(target <= {TARGET}; {wall:.0f} s, floor {floor:.0f} s, {len(impls)} "
          f"implementations, cores {os.cpu_count()}, load {load:.1f})")


if __name__ == "__main__":
    main()

"""Every benchmark at a quick size, then one summary of the ratios they print.

    python benchmarks/run_all.py                  # what `make bench` runs
    python benchmarks/run_all.py --only bench_score.py

Runs each ``benchmarks/bench_*.py`` that exists with ``--quick`` where it has
that option, one after the other (they time things, so they must not share the
CPUs), shows its output as it comes, and collects the lines beginning
``RATIO `` (a label, the ratio, and a note in brackets).  A script that fails
is reported in the summary and the others still run; the exit status is 1 when
any failed.  Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent


def quick(script: Path) -> list[str]:
    """``--quick`` for a script that has the option (its source names it), else
    nothing: that script's default size is its quick one."""
    return ["--quick"] if '"--quick"' in script.read_text(encoding="utf-8") else []


def run(script: Path, extra: Sequence[str]) -> tuple[int, list[str], float]:
    """The script's exit status, its RATIO lines and its wall time; its output is
    passed through as it comes."""
    start = time.perf_counter()
    ratios = []
    with subprocess.Popen([sys.executable, str(script), *quick(script), *extra], cwd=HERE.parent,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          bufsize=1) as process:
        assert process.stdout is not None
        for line in process.stdout:
            print(f"  {line}", end="", flush=True)
            if line.startswith("RATIO "):
                ratios.append(line[len("RATIO "):].rstrip())
    return process.returncode, ratios, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[],
                        help="run only this script (repeatable), e.g. bench_score.py")
    args, extra = parser.parse_known_args(argv)
    scripts = sorted(HERE.glob("bench_*.py"))
    if args.only:
        scripts = [script for script in scripts if script.name in args.only]
    summary: list[str] = []
    failed = []
    for script in scripts:
        print(f"== {' '.join([script.name, *quick(script)])}", flush=True)
        status, ratios, seconds = run(script, extra)
        if status != 0:
            failed.append(script.name)
        summary += [f"{script.name}: {ratio}" for ratio in ratios]
        print(f"== {script.name}: exit {status}, {len(ratios)} ratio(s), {seconds:.0f} s\n")
    print("Summary of the ratios (ours / theirs unless the label says otherwise):")
    for line in summary or ["(no script printed a RATIO line)"]:
        print(f"  {line}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""A user's corpus through the whole audit, as a user runs it, against issue 11's
minute.

    python benchmarks/bench_user_corpus.py            # the 332 real pairs of data/translations
    python benchmarks/bench_user_corpus.py --quick    # the first 100 of them

Issue 11 asks for 500 pairs times BLEU and ROUGE-1/2/L/Lsum/W/SU (every default
metric) in about a minute on 2 cores.  This script runs ``metricdiff audit --hyp
data/translations/hyp.txt --ref data/translations/ref.txt --jobs 2`` with the
nine implementations of ``bench_main_job.ORIGINAL`` (the Perl script included),
once with minimal examples (the default) and once with ``--no-minimise``, each
a fresh process, and prints:

* ``RATIO user-corpus default wall-per-500-pairs/60s``: the default audit's wall
  time scaled to 500 pairs (linearly: each line is a case of its own), over 60 s;
* ``RATIO user-corpus default/no-minimise``: what minimal examples cost (the
  issue's target is at most 2).

Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_main_job import CORES, ORIGINAL

DATA = Path(__file__).resolve().parent / "data" / "translations"
TARGET_PAIRS = 500
TARGET_SECONDS = 60.0


def audit(hyp: Path, ref: Path, out: Path, minimise: bool) -> float:
    """Wall seconds of one ``metricdiff audit`` of the files, a fresh process."""
    command = [sys.executable, "-c", "import sys; from metricdiff.cli import main; "
               "sys.exit(main(sys.argv[1:]))", "audit", "--hyp", str(hyp), "--ref",
               str(ref), "--jobs", str(CORES), "--no-progress", "--out", str(out)]
    for name in ORIGINAL:
        command += ["--impl", name]
    if not minimise:
        command.append("--no-minimise")
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first 100 pairs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="metricdiff-user-corpus-") as folder:
        hyp, ref = DATA / "hyp.txt", DATA / "ref.txt"
        pairs = len(hyp.read_text(encoding="utf-8").splitlines())
        if args.quick:
            pairs = 100
            hyp, ref = Path(folder) / "hyp.txt", Path(folder) / "ref.txt"
            for name, path in (("hyp.txt", hyp), ("ref.txt", ref)):
                lines = (DATA / name).read_text(encoding="utf-8").splitlines()[:pairs]
                path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        default = audit(hyp, ref, Path(folder) / "default", minimise=True)
        bare = audit(hyp, ref, Path(folder) / "bare", minimise=False)
    print(f"user's corpus: {pairs} real pairs, nine implementations, every default metric, "
          f"--jobs {CORES}: {default:.1f} s default, {bare:.1f} s --no-minimise")
    scaled = default * TARGET_PAIRS / pairs
    print(f"RATIO user-corpus default wall-per-{TARGET_PAIRS}-pairs/{TARGET_SECONDS:.0f}s "
          f"{scaled / TARGET_SECONDS:.2f} (target about 1; {default:.1f} s for {pairs} "
          f"pairs, {scaled:.0f} s scaled to {TARGET_PAIRS})")
    print(f"RATIO user-corpus default/no-minimise {default / bare:.2f} (target <= 2; "
          f"{pairs} pairs)")


if __name__ == "__main__":
    main()

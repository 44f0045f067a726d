"""Memory of ``metricdiff score`` and ``audit`` on large corpora, and the Ray
executor on one node against two.

Run ``python benchmarks/bench_memory.py`` (score on 100,000 and 1,000,000
segments, the audit on 10,000), or ``--quick`` (10,000 and 100,000; the audit on
1,000).  See ``benchmarks/README.md``.  Every command runs as a child process
of its own, and its peak memory is the child's resident-set high-water mark as
``wait4`` reports it (the kernel's ``ru_maxrss``, the figure ``/usr/bin/time -v``
prints).  Each ratio is printed on a line of its own beginning ``RATIO``;
nothing asserts a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bleu import corpus  # the same generated news-like corpus

#: The metric sets whose memory is measured: BLEU under 13a, and three ROUGE metrics.
SCORE_RUNS = {
    "bleu-13a": ["--metric", "bleu", "-o", "tokenize=13a"],
    "rouge-1/2/l": ["--metric", "rouge-1", "--metric", "rouge-2", "--metric", "rouge-l"],
}
#: Issue 11's limits: the score peak at 10N over the peak at N, the audit's peak.
FLAT_LIMIT = 1.2
AUDIT_LIMIT_BYTES = 1 << 30


def write_corpus(directory: Path, segments: int) -> tuple[Path, Path]:
    """``segments`` lines of hypotheses and references (``bench_bleu.corpus``)."""
    hyp, ref = directory / f"h{segments}.txt", directory / f"r{segments}.txt"
    if not hyp.exists():
        with hyp.open("w", encoding="utf-8") as hyps, ref.open("w", encoding="utf-8") as refs:
            for line, (first, *_) in corpus(segments):
                hyps.write(line + "\n")
                refs.write(first + "\n")
    return hyp, ref


def metricdiff(*argv: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from metricdiff.cli import main; "
            "sys.exit(main(sys.argv[1:]))", *argv]


def peak(command: Sequence[str]) -> tuple[int, float]:
    """Run ``command``; its peak resident set in bytes and its wall time."""
    main, _, seconds = tree_peak(command)
    return main, seconds


def tree_peak(command: Sequence[str], every: float = 0.2) -> tuple[int, int, float]:
    """Run ``command``; the peak resident set of its process in bytes (``wait4``),
    the peak of the sum over it and every process below it (its worker processes:
    what "on one machine" needs; their proportional set sizes, read from
    ``/proc`` every ``every`` seconds),
    and its wall time."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    os.set_blocking(child.stderr.fileno(), False)  # read as it comes: never a full pipe
    error, summed = b"", 0
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        error += child.stderr.read() or b""
        if pid:
            break
        summed = max(summed, sum(_resident(each) for each in _tree(child.pid)))
        time.sleep(every)
    seconds = time.perf_counter() - start
    child.stderr.close()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        text = error.decode("utf-8", "replace")
        raise SystemExit(f"{' '.join(command[3:])}: exit {child.returncode}\n{text}")
    main = usage.ru_maxrss * 1024
    return main, max(summed, main), seconds


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux's ``/proc``; just ``pid`` elsewhere)."""
    found, index = [pid], 0
    while index < len(found):
        try:
            children = Path(f"/proc/{found[index]}/task/{found[index]}/children").read_text()
        except OSError:
            children = ""
        found += [int(each) for each in children.split()]
        index += 1
    return found


def _resident(pid: int) -> int:
    """The process's proportional set size in bytes now (``Pss``: pages shared
    with the processes it forked count a share each, so that the sum over a
    tree is what the machine holds; ``VmRSS`` where the kernel gives no Pss;
    0 when gone)."""
    for name, field in (("smaps_rollup", "Pss:"), ("status", "VmRSS:")):
        try:
            for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
        except (OSError, ValueError):
            continue
    return 0


def mib(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB"


def bench_score(directory: Path, base: int) -> dict[str, int]:
    """``score`` on ``base`` and 10 * ``base`` segments: each peak, and their ratio."""
    peaks = {}
    for size in (base, 10 * base):
        hyp, ref = write_corpus(directory, size)
        for name, options in SCORE_RUNS.items():
            peaks[name, size], seconds = peak(metricdiff("score", "--hyp", str(hyp),
                                                         "--ref", str(ref), *options))
            print(f"score {name} {size:,} segments: {mib(peaks[name, size])} peak, "
                  f"{seconds:.1f} s", flush=True)
    for name in SCORE_RUNS:
        ratio = peaks[name, 10 * base] / peaks[name, base]
        print(f"RATIO score peak-rss {name} {_size(10 * base)}/{_size(base)} {ratio:.2f} "
              f"(target <= {FLAT_LIMIT})", flush=True)
    return {name: peaks[name, base] for name in SCORE_RUNS}


def bench_sacrebleu(directory: Path, segments: int, ours: int) -> None:
    """sacrebleu's own command line on the same corpus, against ``score``'s peak."""
    if shutil.which("sacrebleu", path=str(Path(sys.executable).parent)) is None:
        print("sacrebleu's command line is not installed: skipped", flush=True)
        return
    hyp, ref = write_corpus(directory, segments)
    theirs, seconds = peak([str(Path(sys.executable).parent / "sacrebleu"), str(ref), "-i",
                            str(hyp), "-m", "bleu", "-tok", "13a", "-b"])
    print(f"sacrebleu CLI {segments:,} segments: {mib(theirs)} peak, {seconds:.1f} s",
          flush=True)
    print(f"RATIO sacrebleu-cli/score peak-rss bleu-13a {_size(segments)} "
          f"{theirs / ours:.2f}", flush=True)


def bench_audit(directory: Path, segments: int, metrics: Sequence[str],
                impls: Sequence[str]) -> None:
    """``audit --jobs 2 --no-minimise`` on ``segments`` lines, each of ``metrics``
    (default BLEU and ROUGE-1) in a run of its own, of ``impls`` (default every
    available implementation): the peak of the main process and of it with its
    workers, and the journal's size against the results'."""
    hyp, ref = write_corpus(directory, segments)
    chosen = [option for impl in impls for option in ("--impl", impl)]
    for metric in metrics:
        out = directory / f"audit{segments}-{metric}"
        main, summed, seconds = tree_peak(metricdiff(
            "audit", "--hyp", str(hyp), "--ref", str(ref), "--metric", metric, *chosen,
            "--jobs", "2", "--no-minimise", "--out", str(out)))
        journal = (out / "journal.jsonl").stat().st_size
        results = (out / "results.jsonl").stat().st_size
        print(f"audit {metric} {segments:,} segments: {mib(main)} peak of the main process, "
              f"{mib(summed)} with its workers, {seconds:.1f} s; journal {mib(journal)}, "
              f"results {mib(results)}", flush=True)
        size = _size(segments)
        print(f"RATIO audit {metric} peak-rss main {size}/1GiB "
              f"{main / AUDIT_LIMIT_BYTES:.2f} (target < 1)", flush=True)
        print(f"RATIO audit {metric} peak-rss main+workers {size}/1GiB "
              f"{summed / AUDIT_LIMIT_BYTES:.2f} (target < 1)", flush=True)
        print(f"RATIO audit {metric} journal/results bytes {size} {journal / results:.2f} "
              "(target <= 1)", flush=True)


def bench_ray(directory: Path, segments: int) -> None:
    """The same audit on a Ray cluster of one node and of two (one CPU each,
    ``ray.cluster_utils.Cluster``): the speed-up, as information.  On one
    machine the second node shares its cores, so it shows the overhead."""
    try:
        from ray.cluster_utils import Cluster
    except ImportError:
        print("ray is not installed: the one node / two nodes comparison is skipped",
              flush=True)
        return
    hyp, ref = write_corpus(directory, segments)
    took = {}
    for nodes in (1, 2):
        cluster = Cluster(initialize_head=True,
                          head_node_args={"num_cpus": 1, "include_dashboard": False})
        try:
            for _ in range(nodes - 1):
                cluster.add_node(num_cpus=1)
            cluster.wait_for_nodes()
            _, took[nodes] = peak(metricdiff(
                "audit", "--hyp", str(hyp), "--ref", str(ref), "--metric", "bleu",
                "--impl", "reference", "--impl", "sacrebleu", "--impl", "nltk",
                "--no-minimise", "--jobs", "2", "--executor", "ray",
                "--ray-address", str(cluster.address), "--out", str(directory / f"ray{nodes}")))
        finally:
            cluster.shutdown()
        print(f"audit on Ray, {nodes} node(s), {segments:,} segments: {took[nodes]:.1f} s",
              flush=True)
    print(f"RATIO audit ray speed-up 2-nodes/1-node {_size(segments)} "
          f"{took[1] / took[2]:.2f} (information)", flush=True)


def _size(segments: int) -> str:
    for unit, name in ((1_000_000, "M"), (1_000, "k")):
        if segments >= unit and segments % unit == 0:
            return f"{segments // unit}{name}"
    return str(segments)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="score on 10,000 and 100,000 segments, the audits on 1,000")
    parser.add_argument("--segments", type=int, help="score's smaller corpus (default "
                        "100,000; the larger is ten times as many)")
    parser.add_argument("--audit-segments", type=int,
                        help="the audit's corpus (default 10,000, --quick 1,000)")
    parser.add_argument("--audit-metric", action="append", choices=("bleu", "rouge-1",
                        "rouge-2", "rouge-l", "rouge-lsum"), help="audit this metric, in a "
                        "run of its own (repeatable; default bleu and rouge-1)")
    parser.add_argument("--audit-impl", action="append", default=[], metavar="IMPL",
                        help="only these implementations in the audits (repeatable; "
                        "default every available one)")
    parser.add_argument("--skip", action="append", default=[],
                        choices=("score", "sacrebleu", "audit", "ray"),
                        help="leave a part out (repeatable)")
    parser.add_argument("--keep", metavar="DIR", help="write the corpora here and keep them")
    args = parser.parse_args()
    base = args.segments or (10_000 if args.quick else 100_000)
    audited = args.audit_segments or (1_000 if args.quick else 10_000)
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(args.keep or temporary)
        directory.mkdir(parents=True, exist_ok=True)
        ours = bench_score(directory, base) if "score" not in args.skip else {}
        if "sacrebleu" not in args.skip and "bleu-13a" in ours:
            bench_sacrebleu(directory, base, ours["bleu-13a"])
        if "audit" not in args.skip:
            bench_audit(directory, audited, args.audit_metric or ["bleu", "rouge-1"],
                        args.audit_impl)
        if "ray" not in args.skip:
            bench_ray(directory, audited)


if __name__ == "__main__":
    main()

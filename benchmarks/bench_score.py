"""``metricdiff score`` with the reference against the peers, side by side: the
ratios of issue 11's ROUGE and BLEU targets.

    python benchmarks/bench_score.py            # 10,000 ROUGE pairs, 100,000 BLEU segments
    python benchmarks/bench_score.py --quick    # 10,000 and 20,000, one run each

* ROUGE, whole processes (start-up included on both sides): ``metricdiff score
  --metric rouge-1 --metric rouge-2 --metric rouge-l -o tokenize=rouge-score``
  against one process running rouge-score's ``RougeScorer(['rouge1', 'rouge2',
  'rougeL'])`` over the pairs and averaging R, P and F (the reference's macro
  corpus average).  Target: at most 0.33.
* ROUGE in-process: ``metricdiff.score`` for the three metrics against the Rust
  ``rouge-score-rs`` (``score_batch``), inputs in memory.  Moonshot: at most 5.
* BLEU, whole processes: ``metricdiff score --metric bleu -o tokenize=13a``
  against sacrebleu's command line (``-tok 13a -b``).
* BLEU in-process: ``metricdiff.score('reference', 'bleu', ...)`` against the
  Rust ``bleuscore.compute`` (13a).  Moonshot: at most 1.

Each timing is the best of ``--repeat`` runs, the two sides alternating, each
run in a fresh process.  A peer that is not installed skips its row with a
message.  The lines beginning ``RATIO`` are what ``benchmarks/run_all.py``
collects.  Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import bench_bleu
import bench_rouge

ROUGE_METRICS = ("rouge-1", "rouge-2", "rouge-l")


# --------------------------------------------------------------------------- peers, run as
# ``python bench_score.py --peer NAME HYP REF`` (one fresh process each)


def _lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def peer_rouge_score(hyp_path: str, ref_path: str) -> str:
    """rouge-score's three types over the pairs, R, P and F averaged per type."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    scores = [scorer.score(ref, hyp) for hyp, ref in zip(_lines(hyp_path), _lines(ref_path),
                                                          strict=True)]
    return " ".join(
        f"{kind}={sum(s[kind].fmeasure for s in scores) / len(scores):.6f}"
        for kind in ("rouge1", "rouge2", "rougeL"))


def in_process_reference_rouge(hyp_path: str, ref_path: str) -> str:
    import metricdiff

    hyps, refs = _lines(hyp_path), [[ref] for ref in _lines(ref_path)]
    start = time.perf_counter()
    scores = [metricdiff.score("reference", metric, hyps, refs,
                               options={"tokenize": "rouge-score"}).corpus["fmeasure"]
              for metric in ROUGE_METRICS]
    seconds = time.perf_counter() - start
    return f"{seconds} " + " ".join(f"{s:.6f}" for s in scores)


def in_process_rouge_score_rs(hyp_path: str, ref_path: str) -> str:
    from rouge_score_rs import rouge_scorer

    hyps, refs = _lines(hyp_path), _lines(ref_path)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    start = time.perf_counter()
    scores = scorer.score_batch(refs, hyps)
    means = [sum(s[kind].fmeasure for s in scores) / len(scores)
             for kind in ("rouge1", "rouge2", "rougeL")]
    seconds = time.perf_counter() - start
    return f"{seconds} " + " ".join(f"{s:.6f}" for s in means)


def in_process_reference_bleu(hyp_path: str, ref_path: str) -> str:
    import metricdiff

    hyps, refs = _lines(hyp_path), [[ref] for ref in _lines(ref_path)]
    start = time.perf_counter()
    result = metricdiff.score("reference", "bleu", hyps, refs, options={"tokenize": "13a"})
    return f"{time.perf_counter() - start} {result.score:.6f}"


def in_process_bleuscore(hyp_path: str, ref_path: str) -> str:
    import bleuscore

    hyps, refs = _lines(hyp_path), [[ref] for ref in _lines(ref_path)]
    start = time.perf_counter()
    result = bleuscore.compute(references=refs, predictions=hyps, max_order=4, smooth=False)
    return f"{time.perf_counter() - start} {100 * result['bleu']:.6f}"


PEERS = {
    "rouge-score": peer_rouge_score,
    "reference-rouge-api": in_process_reference_rouge,
    "rouge-score-rs": in_process_rouge_score_rs,
    "reference-bleu-api": in_process_reference_bleu,
    "bleuscore": in_process_bleuscore,
}
#: The Python package each peer row needs, for the skip message.
NEEDS = {"rouge-score": "rouge_score", "rouge-score-rs": "rouge_score_rs",
         "bleuscore": "bleuscore", "sacrebleu-cli": "sacrebleu"}


# --------------------------------------------------------------------------- measuring


def _metricdiff() -> list[str]:
    """The ``metricdiff`` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("metricdiff")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from metricdiff.cli import main; sys.exit(main())"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command: Sequence[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds and stdout of one process."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip()[-500:]}")
    return wall, _children_cpu() - cpu, done.stdout


def side_by_side(commands: dict[str, list[str]], repeat: int) -> dict[str, tuple[float, float,
                                                                                    str]]:
    """The fastest of ``repeat`` runs of each command (wall, its CPU, its output),
    the commands alternating so that a change of load hits both."""
    best: dict[str, tuple[float, float, str]] = {}
    for _ in range(repeat):
        for name, command in commands.items():
            run = run_once(command)
            if name not in best or run[0] < best[name][0]:
                best[name] = run
    return best


def _peer(name: str, hyp: Path, ref: Path) -> list[str]:
    return [sys.executable, __file__, "--peer", name, str(hyp), str(ref)]


def _missing(*rows: str) -> str | None:
    for row in rows:
        module = NEEDS.get(row)
        if module and importlib.util.find_spec(module) is None:
            return f"{row} is not installed (pip install {module.replace('_', '-')})"
    return None


def ratio_line(label: str, ours: float, theirs: float, note: str) -> None:
    print(f"RATIO {label} {ours / theirs:.2f} ({note})", flush=True)


# --------------------------------------------------------------------------- the comparisons


def write_corpora(folder: Path, pairs: int, segments: int, seed: int) -> dict[str, Path]:
    paths = {name: folder / f"{name}.txt" for name in ("rh", "rr", "bh", "br")}
    hyps, refs = bench_rouge.materialise(pairs, seed)
    paths["rh"].write_text("\n".join(hyps) + "\n", encoding="utf-8")
    paths["rr"].write_text("\n".join(refs) + "\n", encoding="utf-8")
    bleu_hyps, bleu_refs = bench_bleu.materialise(segments, 1, seed)
    paths["bh"].write_text("\n".join(bleu_hyps) + "\n", encoding="utf-8")
    paths["br"].write_text("\n".join(seg[0] for seg in bleu_refs) + "\n", encoding="utf-8")
    return paths


def whole_processes(label: str, ours: list[str], peer: str, theirs: list[str], repeat: int,
                    target: str) -> None:
    """Our command against the peer's, side by side; prints both and the RATIO."""
    skip = _missing(peer)
    if skip:
        print(f"  skipped: {skip}")
        return
    best = side_by_side({"reference-cli": ours, peer: theirs}, repeat)
    for name, (wall, cpu, _) in best.items():
        print(f"  {name:<16} {wall:7.2f} s wall {cpu:7.2f} s CPU")
    mine, other = best["reference-cli"], best[peer]
    ratio_line(label, mine[0], other[0], f"{target}CPU {mine[1] / other[1]:.2f}")


def in_process(label: str, ours: str, peer: str, hyp: Path, ref: Path, repeat: int,
               target: str) -> None:
    """Our in-process call against the peer's, each timed inside its own process
    (inputs read first); prints both, with their scores, and the RATIO."""
    skip = _missing(peer)
    if skip:
        print(f"  skipped: {skip}")
        return
    calls = side_by_side({name: _peer(name, hyp, ref) for name in (ours, peer)}, repeat)
    seconds = {name: float(out.split()[0]) for name, (_, _, out) in calls.items()}
    for name, (_, _, out) in calls.items():
        print(f"  {name:<20} {seconds[name]:7.3f} s   scores {' '.join(out.split()[1:])}")
    ratio_line(label, seconds[ours], seconds[peer], target)


def rouge(paths: dict[str, Path], pairs: int, repeat: int) -> None:
    print(f"\nROUGE-1/2/L on {pairs:,} pairs, whole processes, best of {repeat}", flush=True)
    metrics = [arg for metric in ROUGE_METRICS for arg in ("--metric", metric)]
    whole_processes(
        "score rouge-1/2/L reference-cli/rouge-score",
        [*_metricdiff(), "score", *metrics, "-o", "tokenize=rouge-score",
         "--hyp", str(paths["rh"]), "--ref", str(paths["rr"])],
        "rouge-score", _peer("rouge-score", paths["rh"], paths["rr"]), repeat,
        "target <= 0.33; ")
    print(f"\nROUGE-1/2/L on {pairs:,} pairs, in-process, inputs in memory", flush=True)
    in_process("score rouge in-process reference/rouge-score-rs", "reference-rouge-api",
               "rouge-score-rs", paths["rh"], paths["rr"], repeat,
               "moonshot <= 5; rouge-score-rs's score_batch uses every core")


def bleu(paths: dict[str, Path], segments: int, repeat: int) -> None:
    print(f"\nBLEU (13a) on {segments:,} segments, whole processes, best of {repeat}", flush=True)
    sacrebleu = Path(sys.executable).with_name("sacrebleu")
    whole_processes(
        "score bleu reference-cli/sacrebleu",
        [*_metricdiff(), "score", "--metric", "bleu", "-o", "tokenize=13a",
         "--hyp", str(paths["bh"]), "--ref", str(paths["br"])],
        "sacrebleu-cli", [str(sacrebleu), str(paths["br"]), "-i", str(paths["bh"]),
                          "-tok", "13a", "-b"], repeat, "")
    print(f"\nBLEU (13a) on {segments:,} segments, in-process, inputs in memory", flush=True)
    in_process("score bleu reference/bleuscore", "reference-bleu-api", "bleuscore",
               paths["bh"], paths["br"], repeat, "moonshot <= 1")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000, help="ROUGE pairs (10,000)")
    parser.add_argument("--segments", type=int, default=100_000, help="BLEU segments (100,000)")
    parser.add_argument("--quick", action="store_true",
                        help="10,000 pairs (the target's size), 20,000 segments, one run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side, best kept (3)")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--skip", action="append", default=[], choices=("rouge", "bleu"))
    parser.add_argument("--peer", nargs=3, metavar=("NAME", "HYP", "REF"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer:
        name, hyp, ref = args.peer
        print(PEERS[name](hyp, ref))
        return 0
    pairs, segments = (10_000, 20_000) if args.quick else (args.pairs, args.segments)
    repeat = 1 if args.quick else args.repeat
    print(f"metricdiff score speed: Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as folder:
        paths = write_corpora(Path(folder), pairs, segments, args.seed)
        if "rouge" not in args.skip:
            rouge(paths, pairs, repeat)
        if "bleu" not in args.skip:
            bleu(paths, segments, repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())

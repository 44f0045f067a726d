"""Speed and memory of the reference corpus BLEU against sacrebleu and NLTK.

Run ``python benchmarks/bench_bleu.py`` (100,000 segments), ``--quick`` (10,000,
a smoke test) or ``--large`` (1,000,000).  See ``benchmarks/README.md`` for what
is measured and how to read the table.

Every measurement runs in a fresh process (multiprocessing, spawn), so that no
cache, no interned string and no allocator state of one measurement helps or
hurts another: sacrebleu memoises its tokenizers with ``functools.lru_cache``, and
so does the reference's 13a tokenizer; a second run in the same process would hit
those caches.  Time is measured without
tracemalloc (which slows allocation-heavy code by a large factor); peak memory
is measured in separate runs with tracemalloc on.  Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import math
import os
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

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
development university business power number order service group country health law
school court economic minister news week national general members million percent
support service children family research program question security energy history
problem area market
""".split()  # noqa: SIM905

_SYLLABLES = """
ka ri to mi na so le ve an ol ar en ti po ru de sa mo li ne ta co ba ge fi ro
el in un ex pre con tra ver str ing tion ment ous al er ly ic ist ive age ful
""".split()  # noqa: SIM905

_CLOSERS = (".", ".", ".", ".", "?", "!")


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    """A fixed word list: common English words first (the most frequent), then
    made-up words of 2-4 syllables, some capitalised as names are."""
    words = list(dict.fromkeys(_COMMON_WORDS))
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
        if rng.random() < 0.08:
            word = word.capitalize()
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def _number(rng: random.Random) -> str:
    """A number as it appears in news text: '.' and ',' inside, a range, a unit."""
    form = rng.random()
    if form < 0.35:
        return str(rng.randint(1, 99))
    if form < 0.50:
        return f"{rng.randint(1, 99)}.{rng.randint(0, 99)}"
    if form < 0.65:
        return f"{rng.randint(1, 999)},{rng.randint(0, 999):03d}"
    if form < 0.75:
        year = rng.randint(1950, 2020)
        return f"{year}-{year + rng.randint(1, 9)}"
    if form < 0.87:
        return f"{rng.randint(1, 99)}%"
    return f"${rng.randint(1, 500)}"


@functools.cache
def _word_list(seed: int) -> tuple[list[str], list[float]]:
    """The vocabulary and its cumulative Zipf-like weights (the k-th word has weight
    1 / (k + 2)).  Cached, so that a measurement can build it beforehand."""
    vocab = _vocabulary(random.Random(seed + 1), 8000)
    return vocab, list(itertools.accumulate(1.0 / (k + 2) for k in range(len(vocab))))


@dataclass
class _Generator:
    """Draws sentences and their edited copies from one random.Random."""

    rng: random.Random
    vocab: list[str]
    cum_weights: list[float]

    def words(self, k: int) -> list[str]:
        return self.rng.choices(self.vocab, cum_weights=self.cum_weights, k=k)

    def decorate(self, words: list[str]) -> list[str]:
        """Attach punctuation, numbers, quotes and the like to bare words."""
        rng = self.rng
        out = []
        for word in words:
            roll = rng.random()
            if roll < 0.035:
                word = _number(rng)
            elif roll < 0.09:
                word += ","
            elif roll < 0.10:
                word = f'"{word}"'
            elif roll < 0.11:
                word = f"({word})"
            elif roll < 0.125:
                word += rng.choice(("'s", "n't", ":", ";"))
            elif roll < 0.14:
                word = f"{word}-{self.words(1)[0]}"
            out.append(word)
        out[0] = out[0][:1].upper() + out[0][1:]
        out[-1] += rng.choice(_CLOSERS)
        return out

    def sentence(self) -> list[str]:
        # Lengths of news sentences: mean ~20 words, clipped to 5..40.
        length = min(40, max(5, round(self.rng.gauss(20.0, 8.0))))
        return self.decorate(self.words(length))

    def edit(self, tokens: list[str], rate: float) -> list[str]:
        """A translation-like copy: words substituted, dropped, inserted, swapped;
        never identical to ``tokens`` (a repeated line would let sacrebleu's
        tokenizer cache hit)."""
        rng = self.rng
        out: list[str] = []
        for token in tokens:
            roll = rng.random()
            if roll < rate:
                out.append(self.words(1)[0])
            elif roll < rate * 1.3:
                continue
            elif roll < rate * 1.6:
                out.extend((token, self.words(1)[0]))
            else:
                out.append(token)
        if len(out) > 3 and rng.random() < 0.3:
            i = rng.randrange(len(out) - 1)
            out[i], out[i + 1] = out[i + 1], out[i]
        if not out or out == tokens:
            out = [*tokens[:-1], self.words(1)[0]]
        return out


def corpus(
    segments: int, refs_per_segment: int = 1, seed: int = 12345
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """``segments`` pairs (hypothesis, references), reproducible from ``seed``.

    A generator: nothing is kept between segments, so a streaming consumer runs in
    constant memory.  The first reference is a fresh sentence; the hypothesis is it
    with ~25% of its words edited; further references are lighter edits of the
    first (paraphrases).  No two lines of a segment are the same.
    """
    gen = _Generator(random.Random(seed), *_word_list(seed))
    for _ in range(segments):
        ref = gen.sentence()
        lines = [" ".join(ref)]
        for rate in [0.12] * (refs_per_segment - 1) + [0.25]:
            line = " ".join(gen.edit(ref, rate))
            while line in lines:
                line = " ".join(gen.edit(ref, rate))
            lines.append(line)
        yield lines[-1], tuple(lines[:-1])


def streams(
    segments: int, refs_per_segment: int, seed: int
) -> tuple[Iterator[str], Iterator[Sequence[str]]]:
    """Hypotheses and references as two lock-step generators over one corpus (for
    the reference's ``corpus_bleu(hyps, refs, ...)``); ``tee`` buffers one pair."""
    left, right = itertools.tee(corpus(segments, refs_per_segment, seed))
    return (hyp for hyp, _ in left), (refs for _, refs in right)


def materialise(
    segments: int, refs_per_segment: int, seed: int
) -> tuple[list[str], list[tuple[str, ...]]]:
    hyps, refs = [], []
    for hyp, seg_refs in corpus(segments, refs_per_segment, seed):
        hyps.append(hyp)
        refs.append(seg_refs)
    return hyps, refs


# --------------------------------------------------------------------------- implementations

# The reference runs with each peer's declared default profile (the adapters'
# ``default_options``), with the comparison's tokenizer: sacrebleu 2.6.0 is tok 13a,
# smoothing exp, all_zero zero, empty_order zero, closest reference length with
# ties to the shorter; NLTK 3.10.4 (no smoothing function) is tok none, smoothing
# float-min, empty_order denominator-one, all_zero zero.
PEER_ADAPTERS = {
    "reference-sacrebleu": "metricdiff.impls.peers.sacrebleu:SacrebleuAdapter",
    "reference-nltk": "metricdiff.impls.peers.nltk:NltkAdapter",
}


def peer_options(impl: str, tokenize: str) -> Any:
    """The options under which the reference behaves as the peer of ``impl``."""
    import importlib

    import attrs

    module, name = PEER_ADAPTERS[impl].split(":")
    adapter = getattr(importlib.import_module(module), name)()
    return attrs.evolve(adapter.default_options("bleu"), tokenize=tokenize)


def reference_has_tokenizer(name: str) -> bool:
    from metricdiff.impls.text.tokenizers import get_tokenizer
    from metricdiff.profiles import ConventionError

    try:
        get_tokenizer(name)
    except ConventionError:
        return False
    return True


@dataclass
class Task:
    """One measurement: which implementation, on what input, timed or traced."""

    impl: str  # reference-sacrebleu | reference-nltk | sacrebleu | nltk | corpus-info
    tokenize: str
    segments: int
    refs: int
    seed: int
    mode: str = "time"  # time | memory
    stream: bool = False  # reference only: read the corpus from the generator


def _prepare(task: Task) -> tuple[Callable[[], Any], Callable[[Any], dict[str, Any]]]:
    """Build the inputs and import the tokenizer module (outside any measurement);
    return the call to measure and the function that reads its result afterwards."""
    if task.impl.startswith("reference"):
        from metricdiff.impls.reference import bleu
        from metricdiff.impls.text.tokenizers import get_tokenizer

        options = peer_options(task.impl, task.tokenize)
        get_tokenizer(task.tokenize)  # imports the module; its cache starts empty
        if task.stream:
            _word_list(task.seed)  # the generator's word list, built beforehand

            def run() -> Any:
                hyps, refs = streams(task.segments, task.refs, task.seed)
                return bleu.corpus_bleu(hyps, refs, options)

        else:
            hyps, refs = materialise(task.segments, task.refs, task.seed)

            def run() -> Any:
                return bleu.corpus_bleu(hyps, refs, options)

        return run, lambda result: _reference_result(result, task.tokenize)

    if task.impl == "sacrebleu":
        import sacrebleu
        from sacrebleu.metrics.bleu import _get_tokenizer

        _get_tokenizer(task.tokenize)  # imports the module; its cache starts empty
        hyps, refs = materialise(task.segments, task.refs, task.seed)
        ref_streams = [[seg[k] for seg in refs] for k in range(task.refs)]
        del refs

        def run() -> Any:
            return sacrebleu.corpus_bleu(hyps, ref_streams, tokenize=task.tokenize)

        def report(result: Any) -> dict[str, Any]:
            return {
                "score": result.score,
                "counts": list(result.counts),
                "totals": list(result.totals),
                "sys_len": result.sys_len,
                "ref_len": result.ref_len,
                "cache": _sacrebleu_cache_info() if task.tokenize == "13a" else {},
            }

        return run, report

    if task.impl == "nltk":
        import warnings

        from nltk.translate.bleu_score import corpus_bleu

        warnings.simplefilter("ignore")  # method0 warns about orders without matches
        hyps, refs = materialise(task.segments, task.refs, task.seed)
        # Tokenized with str.split here, outside the measurement: NLTK takes tokens.
        hyp_tokens = [hyp.split() for hyp in hyps]
        ref_tokens = [[ref.split() for ref in seg] for seg in refs]
        del hyps, refs

        def run() -> Any:
            return corpus_bleu(ref_tokens, hyp_tokens)

        return run, lambda score: {"score": 100.0 * score}

    raise ValueError(task.impl)


def _reference_result(result: Any, tokenize: str) -> dict[str, Any]:
    return {
        "score": result.score,
        "counts": list(result.counts),
        "totals": list(result.totals),
        "sys_len": result.sys_len,
        "ref_len": result.ref_len,
        "cache": _reference_cache_info(tokenize),
    }


def _reference_cache_info(tokenize: str) -> dict[str, int]:
    """Hits, misses and size of the reference tokenizer's lru_cache, if it has one."""
    from metricdiff.impls.text.tokenizers import get_tokenizer

    cached = getattr(get_tokenizer(tokenize), "_cached", None)
    if cached is None or not hasattr(cached, "cache_info"):
        return {}
    stats = cached.cache_info()
    return {"hits": stats.hits, "misses": stats.misses, "size": stats.currsize}


def _sacrebleu_cache_info() -> dict[str, int]:
    """Hits and misses of sacrebleu's lru_cache'd tokenizers in this process."""
    info: dict[str, int] = {}
    try:
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
        from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp
    except ImportError:
        return info
    stats = Tokenizer13a.__call__.cache_info()
    info.update(hits=stats.hits, misses=stats.misses, size=stats.currsize)
    stats = TokenizerRegexp.__call__.cache_info()
    info.update(re_hits=stats.hits, re_misses=stats.misses)
    return info


def measure(task: Task) -> dict[str, Any]:
    """Runs in a fresh process: prepare the inputs, then time or trace one call."""
    if task.impl == "corpus-info":
        return _corpus_info(task)
    run, report = _prepare(task)
    gc.collect()
    if task.mode == "memory":
        tracemalloc.start()
        raw = run()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        measured = {"peak": peak}
    else:
        start, cpu_start = time.perf_counter(), time.process_time()
        raw = run()
        measured = {
            "seconds": time.perf_counter() - start,
            "cpu": time.process_time() - cpu_start,
        }
    return {**report(raw), **measured, "maxrss": _max_rss()}


def _max_rss() -> int:
    """This process's resident-set high-water mark in bytes.  VmHWM belongs to the
    address space, so it starts afresh at exec; ru_maxrss (the fallback) may carry
    the parent's peak over on Linux."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _corpus_info(task: Task) -> dict[str, Any]:
    """Size of the corpus, how long generating it takes, and whether lines repeat."""
    start = time.perf_counter()
    lines = tokens = 0
    seen: set[int] = set()
    for hyp, refs in corpus(task.segments, task.refs, task.seed):
        for line in (hyp, *refs):
            lines += 1
            tokens += len(line.split())
            seen.add(hash(line))
    return {
        "lines": lines,
        "distinct": len(seen),
        "tokens": tokens,
        "generate_seconds": time.perf_counter() - start,
    }


def in_fresh_process(task: Task) -> dict[str, Any]:
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(measure, task).result()


def best_of(task: Task, repeat: int) -> dict[str, Any]:
    """Fastest of ``repeat`` runs, each in its own fresh process."""
    runs = [in_fresh_process(task) for _ in range(repeat)]
    return min(runs, key=lambda run: run["seconds"])


# --------------------------------------------------------------------------- report


def _size(size: float) -> str:
    if size >= 2**20:
        return f"{size / 2**20:.1f} MiB"
    return f"{size / 2**10:.1f} KiB"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "n/a"


@dataclass
class Comparison:
    title: str
    reference: Task
    peer: Task
    peer_name: str
    note: str
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)


def run_comparison(comp: Comparison, repeat: int) -> bool:
    """Measure both sides; print the table; True when the scores agree."""
    for name, task in (("reference", comp.reference), (comp.peer_name, comp.peer)):
        print(f"  measuring {name} ...", flush=True)
        timed = best_of(task, repeat)
        traced = in_fresh_process(Task(**{**task.__dict__, "mode": "memory"}))
        comp.rows[name] = {**timed, "peak": traced["peak"], "maxrss": timed["maxrss"]}
    ref, peer = comp.rows["reference"], comp.rows[comp.peer_name]
    print(f"\n{comp.title}\n  {comp.note}")
    print(
        f"  {'implementation':<28}{'time':>9}{'CPU':>9}{'peak (tracemalloc)':>20}"
        f"{'max RSS':>12}    score"
    )
    for name, row in comp.rows.items():
        print(
            f"  {name:<28}{row['seconds']:8.2f}s{row['cpu']:8.2f}s{_size(row['peak']):>20}"
            f"{_size(row['maxrss']):>12}    {row['score']:.12f}"
        )
    print(
        f"  {'reference / ' + comp.peer_name:<28}{_ratio(ref['seconds'], peer['seconds']):>9}"
        f"{_ratio(ref['cpu'], peer['cpu']):>9}{_ratio(ref['peak'], peer['peak']):>20}"
        f"{_ratio(ref['maxrss'], peer['maxrss']):>12}    (<= 1.0: the reference is faster "
        "/ smaller)"
    )
    agree = math.isclose(ref["score"], peer["score"], rel_tol=1e-9, abs_tol=1e-9)
    detail = ""
    if "counts" in peer:
        same_stats = (
            ref["counts"] == peer["counts"]
            and ref["totals"] == peer["totals"]
            and ref["sys_len"] == peer["sys_len"]
            and ref["ref_len"] == peer["ref_len"]
        )
        agree = agree and same_stats
        detail = "; counts, totals and lengths " + ("identical" if same_stats else "DIFFER")
        if not same_stats:
            for name, row in (("reference", ref), (comp.peer_name, peer)):
                detail += (
                    f"\n    {name}: counts {row['counts']} totals {row['totals']} "
                    f"c={row['sys_len']} r={row['ref_len']}"
                )
    print(
        f"  scores {'agree' if agree else 'DISAGREE'}: |difference| = "
        f"{abs(ref['score'] - peer['score']):.3g}{detail}"
    )
    for name, row in comp.rows.items():
        cache = row.get("cache", {})
        if cache.get("misses"):
            print(
                f"  {name}'s lru_cache'd 13a tokenizer in the timed run: "
                f"{cache['hits']:,} hits, {cache['misses']:,} misses, "
                f"{cache['size']:,} lines held at the end"
            )
    print()
    return agree


def flatness(args: argparse.Namespace, tokenize: str, base: int) -> bool:
    """Peak memory of the reference streaming N and 10N segments from the generator.

    Measured as the fresh process's resident-set high-water mark (no tracing, so the
    10N run takes plain time), or with ``--flatness-tracemalloc`` as the tracemalloc
    peak (exact Python heap, but several times slower).  With a caching tokenizer
    (13a keeps up to 65,536 lines, as sacrebleu's does) the peak grows until that
    cache is full and is flat from then on; ``none`` has no cache, so it shows the
    streaming computation alone.  True when flat."""
    traced = args.flatness_tracemalloc
    key, what = ("peak", "tracemalloc peak") if traced else ("maxrss", "max RSS")
    flat = True
    for tok in dict.fromkeys((tokenize, "none")):
        print(
            f"Memory flatness: the reference streaming from the generator "
            f"(tokenize={tok}, sacrebleu profile), {what}"
        )
        peaks, caches = [], []
        for segments in (base, 10 * base):
            print(f"  measuring {segments:,} segments ...", flush=True)
            task = Task("reference-sacrebleu", tok, segments, args.refs, args.seed)
            task.mode, task.stream = ("memory" if traced else "time"), True
            result = in_fresh_process(task)
            peaks.append(result[key])
            cache = result.get("cache", {})
            caches.append(cache.get("size"))
            held = f", its 13a cache holds {cache['size']:,} lines" if cache else ""
            print(
                f"  {segments:>11,} segments: {what} {_size(result[key])}{held}, "
                f"score {result['score']:.6f}"
            )
        ratio = peaks[1] / peaks[0]
        cache_grew = caches[0] is not None and caches[1] != caches[0]
        verdict = "flat" if ratio < 1.25 else "GROWS"
        if verdict == "GROWS" and cache_grew:
            verdict = "grows with the bounded tokenizer cache, which was not full at N"
        else:
            flat = flat and ratio < 1.25
        print(f"  {what}(10N) / {what}(N) = {ratio:.2f}: {verdict}\n")
    return flat


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--segments", type=int, default=100_000, help="segments (default 100,000)")
    size.add_argument(
        "--quick",
        action="store_const",
        dest="segments",
        const=10_000,
        help="10,000 segments: a smoke test",
    )
    size.add_argument(
        "--large", action="store_const", dest="segments", const=1_000_000, help="1,000,000 segments"
    )
    parser.add_argument("--refs", type=int, default=1, help="references per segment (default 1)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="timed runs per implementation, best kept (default 3 up to 10,000 segments, else 1)",
    )
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument(
        "--tokenize",
        choices=("auto", "13a", "none"),
        default="auto",
        help="tokenizer of the sacrebleu comparison; auto = 13a once the "
        "reference has it, else none",
    )
    parser.add_argument(
        "--flatness-base",
        type=int,
        default=None,
        help="N of the flatness check, which runs N and 10N (default: --segments, at most 100,000)",
    )
    parser.add_argument(
        "--flatness-tracemalloc",
        action="store_true",
        help="measure the flatness check with tracemalloc (exact, several times slower) "
        "instead of the process's max RSS",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=("sacrebleu", "nltk", "flatness"),
        help="leave a part out",
    )
    args = parser.parse_args(argv)
    if args.segments < 1 or args.refs < 1:
        parser.error("--segments and --refs must be at least 1")
    repeat = args.repeat or (3 if args.segments <= 10_000 else 1)

    tokenize = args.tokenize
    if tokenize == "auto":
        tokenize = "13a" if reference_has_tokenizer("13a") else "none"
    elif not reference_has_tokenizer(tokenize):
        parser.error(f"the reference has no {tokenize!r} tokenizer yet")

    import nltk
    import sacrebleu

    info = in_fresh_process(Task("corpus-info", "none", args.segments, args.refs, args.seed))
    print(
        f"metricdiff BLEU benchmark: {args.segments:,} segments x {args.refs} reference(s), "
        f"seed {args.seed}, best of {repeat} timed run(s), Python {sys.version.split()[0]}, "
        f"sacrebleu {sacrebleu.__version__}, nltk {nltk.__version__}, {os.cpu_count()} CPUs"
    )
    print(
        f"corpus: {info['lines']:,} lines ({info['distinct']:,} distinct), "
        f"{info['tokens'] / info['lines']:.1f} whitespace tokens per line; generating it "
        f"takes {info['generate_seconds']:.2f}s (outside every timed region below)\n"
    )
    if tokenize != "13a" and args.tokenize == "auto":
        print(
            "NOTE: the reference has no 13a tokenizer yet; the sacrebleu comparison uses "
            "tokenize=none on both sides.\n"
        )

    common = dict(segments=args.segments, refs=args.refs, seed=args.seed)
    comparisons = []
    if "sacrebleu" not in args.skip:
        comparisons.append(
            Comparison(
                f"Reference vs sacrebleu.corpus_bleu(hyps, [refs], tokenize={tokenize!r})",
                Task("reference-sacrebleu", tokenize, **common),
                Task("sacrebleu", tokenize, **common),
                f"sacrebleu-{sacrebleu.__version__}",
                f"both tokenize {tokenize} inside the timed call; inputs are lists built "
                "before it; each run in a fresh process on distinct lines, so lru_cache'd "
                "tokenizers start empty and cannot hit",
            )
        )
    if "sacrebleu" not in args.skip and tokenize != "none":
        comparisons.append(
            Comparison(
                "Reference vs sacrebleu.corpus_bleu(hyps, [refs], tokenize='none'): "
                "n-gram counting without the tokenizer",
                Task("reference-sacrebleu", "none", **common),
                Task("sacrebleu", "none", **common),
                f"sacrebleu-{sacrebleu.__version__}",
                "both split on whitespace inside the timed call",
            )
        )
    if "nltk" not in args.skip:
        comparisons.append(
            Comparison(
                "Reference (tokenize none) vs nltk corpus_bleu on pre-split tokens",
                Task("reference-nltk", "none", **common),
                Task("nltk", "none", **common),
                f"nltk-{nltk.__version__}",
                "NLTK's input is split with str.split before the timed call (NLTK takes tokens); "
                "the reference splits its strings inside the timed call",
            )
        )
    agree = all([run_comparison(comp, repeat) for comp in comparisons])
    flat = True
    if "flatness" not in args.skip:
        flat = flatness(args, tokenize, args.flatness_base or min(args.segments, 100_000))
    return 0 if agree and flat else 1


if __name__ == "__main__":
    sys.exit(main())

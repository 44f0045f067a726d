"""The floor every benchmark of issue 26 measures its wall time against: what the
implementations' own scoring of the same work costs.

One definition everywhere: each implementation, in a fresh process of its own,
scores exactly what the command asks of it -- every participant the command
runs (its declared profile; for the audit also its variants and its stemmed
profile), on every metric it has, on the command's cases -- and its CPU
seconds, the process's and its children's (the Perl scripts run as children),
are summed over the implementations and divided by the cores used: no run of
those implementations on this machine can end sooner.  The implementations run
two at a time, one per core, while nothing else of the benchmark runs.

The work (``Work``):

* ``main``: the main job's cases (``make report``'s audit): the bundled fixtures
  and ``--generate N --seed 0`` per metric, every case scored as a corpus, the
  costly peers capped as the audit caps them (``audit_generated_cases``);
* ``audit``: a user's corpus as ``metricdiff audit --hyp --ref`` scores it: every
  line a case, and the whole corpus one more (per-segment scores included);
* ``compare``: a user's corpus as ``metricdiff compare`` scores it: one corpus
  score per implementation and metric, under its declared profile with ROUGE
  reporting F;
* ``rank``: several systems on one test set as ``metricdiff rank`` scores them:
  every segment of every system (``systems``, the hypothesis files) a case,
  under each implementation's declared profile with ROUGE reporting F.

Nothing here asserts a time.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import attrs

CORES = 2
SEED = 0
HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "translations"


@attrs.frozen
class Work:
    """What the implementations are asked to score (see the module's docstring)."""

    kind: str  # "main", "audit", "compare" or "rank"
    metrics: tuple[str, ...]
    generate: int = 0  # main
    hyp: str = ""  # audit, compare
    ref: str = ""  # audit, compare, rank
    systems: tuple[str, ...] = ()  # rank: each system's hypothesis file

    def to_json(self) -> str:
        return json.dumps(attrs.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Work:
        data = json.loads(text)
        return cls(**{**data, "metrics": tuple(data["metrics"]),
                      "systems": tuple(data.get("systems", ()))})


def real_pairs(count: int, folder: Path) -> tuple[Path, Path]:
    """``count`` real translation pairs written to ``folder/hyp.txt`` and ``ref.txt``:
    the 332 pairs of ``data/translations`` as they are, then as many again as
    needed the other way round (the reference translation as the hypothesis):
    each pair is two independent published translations of one verse either way,
    and no pair repeats."""
    hyps = (DATA / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = (DATA / "ref.txt").read_text(encoding="utf-8").splitlines()
    pairs = list(zip(hyps, refs, strict=True))
    pairs += [(ref, hyp) for hyp, ref in pairs]
    if count > len(pairs):
        raise ValueError(f"data/translations has {len(pairs)} pairs both ways, not {count}")
    hyp_file, ref_file = folder / "hyp.txt", folder / "ref.txt"
    hyp_file.write_text("".join(f"{h}\n" for h, _ in pairs[:count]), encoding="utf-8")
    ref_file.write_text("".join(f"{r}\n" for _, r in pairs[:count]), encoding="utf-8")
    return hyp_file, ref_file


def fixed_cost(timed: Callable[[Path, Path], tuple[float, float]],
               folder: Path) -> tuple[float, float]:
    """Wall and CPU seconds of the command's fixed cost, which no corpus size
    changes: ``timed(hyp, ref)`` -- the same command, the same implementations
    and metrics -- on one real pair (``folder/one``).  What it spends is
    starting metricdiff, importing and checking the peers, the forkserver and a
    worker per implementation loading its library, and each (implementation,
    metric) call's own set-up: a floor of its own that the own-scoring floor
    does not count."""
    one = folder / "one"
    one.mkdir(parents=True, exist_ok=True)
    return timed(*real_pairs(1, one))


def fixed_ratio(label: str, wall: float, fixed: float, floor: float) -> str:
    """The RATIO line of ``wall`` against the fixed cost plus the own-scoring floor."""
    return (f"RATIO {label} wall/(fixed+own-scoring-floor) "
            f"{wall / max(fixed + floor, 1e-9):.2f} (information: {wall:.1f} s / "
            f"({fixed:.1f} s fixed, the same command on 1 real pair, + {floor:.1f} s floor))")


def _cpu() -> float:
    mine = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def _asked(impl: str, work: Work) -> list[tuple[str, Any, Any, list[Any]]]:
    """(metric, adapter, options, cases) of every scoring ``work`` asks of ``impl``."""
    from metricdiff.auditing.cases import fixture_cases, generated_cases, user_cases
    from metricdiff.auditing.participants import participants
    from metricdiff.cases.bundled import fixtures_folder
    from metricdiff.cases.files import read_corpus
    from metricdiff.cases.fixtures import load_all
    from metricdiff.comparison.corpus import entrants
    from metricdiff.impls import computes, resolve

    fixtures = load_all(fixtures_folder()) if work.kind == "main" else []
    corpus = read_corpus(work.hyp, [work.ref]) if work.hyp else None
    systems = [read_corpus(hyp, [work.ref]) for hyp in work.systems]
    asked = []
    for metric in work.metrics:
        if not computes(impl, metric):
            continue
        if work.kind == "rank":  # as conclusions.rank._requests asks it
            for entrant in entrants(metric, [impl], "f"):
                if entrant.name != impl or entrant.options is None:
                    continue
                for system in systems:
                    hyps, refs = system.for_metric(metric).sample
                    cases = [((hyp,), (tuple(seg),)) for hyp, seg in zip(hyps, refs, strict=True)]
                    asked.append((metric, resolve(impl, metric), entrant.options, cases))
            continue
        if work.kind == "compare":
            assert corpus is not None
            for entrant in entrants(metric, [impl], "f"):
                if entrant.name == impl and entrant.options is not None:
                    asked.append((metric, resolve(impl, metric), entrant.options,
                                  [corpus.for_metric(metric).sample]))
            continue
        people, _ = participants(metric, [impl])
        if work.kind == "main":
            generated = generated_cases(metric, work.generate, SEED)
            cases = [c.sample for c in [*fixture_cases(fixtures, metric), *generated]]
        else:
            assert corpus is not None
            cases = [c.sample for c in user_cases(corpus, work.hyp, metric)]
        for person in people:
            adapter = resolve(person.impl, metric)
            cap = adapter.cost.audit_generated_cases  # as the audit runs it (--all-cases aside)
            taken = cases
            if work.kind == "main" and cap is not None and cap < work.generate:
                taken = cases[: len(cases) - work.generate + cap]
            asked.append((metric, adapter, person.options, taken))
    return asked


def own_cost(impl: str, work: Work) -> tuple[float, float]:
    """CPU seconds ``impl`` needs for ``work``, in this process (call it in a fresh
    one): its scoring calls, and this whole process's CPU seconds (its start-up
    is in the difference: ``own_costs``)."""
    scoring = 0.0
    for metric, adapter, options, cases in _asked(impl, work):
        adapter.ensure_available()  # its imports: not its scoring
        before = _cpu()
        adapter.score_cases(metric, cases, options)
        scoring += _cpu() - before
    return scoring, _cpu()


def own_cost_in_child(impl: str, work: Work) -> tuple[float, float]:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import floor; "
            "print(*floor.own_cost(sys.argv[2], floor.Work.from_json(sys.argv[3])))")
    done = subprocess.run([sys.executable, "-c", code, str(HERE), impl, work.to_json()],
                          check=True, capture_output=True, text=True)
    scoring, whole = done.stdout.strip().splitlines()[-1].split()
    return float(scoring), float(whole)


@attrs.frozen
class Costs:
    """Implementation -> CPU seconds of its scoring of the work (``scoring``: the
    floor every RATIO line of issue 26 names), and of its start-up (``start``):
    what its fresh process spends besides scoring, over what the reference's
    spends (the reference imports no library: its process is Python, metricdiff
    and the cases read)."""

    scoring: dict[str, float]
    start: dict[str, float]


def own_costs(impls: tuple[str, ...], work: Work) -> Costs:
    """Each implementation's costs of its part of ``work``, each in a fresh
    process, two at a time (one per core); the reference's too, for the start-up."""
    names = impls if "reference" in impls else (*impls, "reference")
    with ThreadPoolExecutor(CORES) as pool:
        costs = dict(zip(names, pool.map(lambda impl: own_cost_in_child(impl, work), names),
                         strict=True))
    scoring, whole = costs["reference"]
    base = whole - scoring
    return Costs({impl: costs[impl][0] for impl in impls},
                 {impl: max(costs[impl][1] - costs[impl][0] - base, 0.0) for impl in impls})


def around(first: Costs, then: Costs) -> Costs:
    """The mean of the costs measured before the command and after it.  Over
    one evening the same floor drifted from 172 s to 145 s, and a floor measured
    on one side only carries the drift into the ratio; on both sides, a steady
    drift cancels.  ``drift`` says how far the two were apart."""
    def mean(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
        return {impl: (a[impl] + b[impl]) / 2 for impl in a}

    return Costs(mean(first.scoring, then.scoring), mean(first.start, then.start))


def drift(first: Costs, then: Costs) -> str:
    """The two floors of ``around``, for the RATIO lines."""
    return (f"floor {floor_of(first.scoring):.1f} s before the command, "
            f"{floor_of(then.scoring):.1f} s after it, their mean taken")


def floor_of(costs: dict[str, float]) -> float:
    return sum(costs.values()) / CORES


def start_ratio(label: str, wall: float, costs: Costs, target: float) -> str:
    """The RATIO line of ``wall`` against the floor with the implementations'
    start-up in it: their imports (jury's Hugging Face stack, 2.6 CPU-s) are
    as much the cost of running them as their scoring, and a command that runs
    them cannot end before both are done.  Where the start-up is as large as
    the scoring (``compare`` on 500 lines), a target on the scoring alone
    cannot be met by any run of these implementations; this is the floor that
    stops it, measured in the same run."""
    start = sum(costs.start.values()) / CORES
    floor = floor_of(costs.scoring) + start
    return (f"RATIO {label} wall/own-start-up+scoring-floor {wall / max(floor, 1e-9):.2f} "
            f"(target <= {target}; {wall:.1f} s / ({start:.1f} s start-up + "
            f"{floor - start:.1f} s scoring))")


def available_impls() -> tuple[str, ...]:
    """Every implementation that can run here, as the commands' default takes them."""
    from metricdiff.impls import adapter_names, families_of, get_adapter

    names = []
    for name in adapter_names():
        families = families_of(name)
        metric = "bleu" if "bleu" in families else "rouge-1"
        if get_adapter(name, metric).unavailable_reason() is None:
            names.append(name)
    return tuple(names)


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes), as a note says them."""
    try:
        return "load " + " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        one, five, fifteen = os.getloadavg()
        return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def print_costs(costs: Costs) -> None:
    for impl, seconds in sorted(costs.scoring.items(), key=lambda item: -item[1]):
        print(f"  own cost {impl}: {seconds:.1f} CPU-s scoring, {costs.start[impl]:.1f} "
              "CPU-s start-up", flush=True)


#: Linux's CPU accounting of a group of processes (cgroup v1), where the benchmark
#: may make a group: it counts every descendant of the command, the workers
#: forked by its forkserver included, which no ``wait`` of ours reports.
CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def run_timed(argv: list[str]) -> tuple[float, float]:
    """Run ``argv`` (output discarded; exit status 1, an audit's "could not score
    ...", is said on a line and accepted): its wall seconds, and the CPU seconds of it
    and all its descendants (a cpuacct group of its own where one can be made;
    else what ``wait`` reports: the command and the descendants it waited for,
    which leaves out the workers of its forkserver -- NaN then)."""
    group = CPUACCT / f"metricdiff-bench-{os.getpid()}-{time.monotonic_ns()}"
    try:
        group.mkdir()
    except OSError:
        start = time.perf_counter()
        _run(argv)
        return time.perf_counter() - start, math.nan
    try:
        wrapped = ["sh", "-c", f'echo $$ > "{group}/cgroup.procs" && exec "$@"', "sh", *argv]
        start = time.perf_counter()
        _run(wrapped)
        wall = time.perf_counter() - start
        deadline = time.monotonic() + 30  # the forkserver outlives the command briefly
        while (group / "cgroup.procs").read_text().strip() and time.monotonic() < deadline:
            time.sleep(0.2)
        cpu = int((group / "cpuacct.usage").read_text()) / 1e9
    finally:
        for pid in (group / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):  # a straggler goes back to the root group
                (CPUACCT / "cgroup.procs").write_text(pid)
        with contextlib.suppress(OSError):
            group.rmdir()
    return wall, cpu


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode == 1:  # e.g. an implementation with no result on any case
        print(f"  (exit status 1: {done.stderr.strip().splitlines()[-1][-300:]})", flush=True)
    elif done.returncode != 0:
        raise subprocess.CalledProcessError(done.returncode, argv, stderr=done.stderr)


def command(*argv: str) -> list[str]:
    """``metricdiff ARGV`` as a fresh process of this interpreter."""
    return [sys.executable, "-c", "import sys; from metricdiff.cli import main; "
            "sys.exit(main(sys.argv[1:]))", *argv]

"""The execution layer: misbehaving implementations become recorded outcomes.

The adapters of ``fake_adapters.py`` raise, call ``sys.exit``, hang, ``os._exit``,
SIGKILL themselves, or return NaN, a recall of 1.5 or a negative count on marker
inputs; every such case must get its status and every other case its exact
result.  Timeouts are ``NO_HANG``, which only a hang exceeds, except in the tests
of hangs: there ``HANG_TIMEOUT``, and each hanging case costs about twice that (its
chunk, then itself alone), so they are marked slow.  The ROUGE-1.5.5 tests check
that ``score_cases`` gives what ``corpus_score`` gives case by case, in one Perl
run; they skip without Perl.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

import fake_adapters
from fake_adapters import HANG_TIMEOUT, MARKERS, NO_HANG, expected
from metricdiff.impls import get_adapter
from metricdiff.impls.peers import rouge155
from metricdiff.impls.peers.rouge155 import CaseFailure, Rouge155Adapter
from metricdiff.profiles import BleuOptions, RougeOptions
from metricdiff.profiles.metrics import with_variant
from metricdiff.scoring.execution import run_jobs, shutdown_workers
from metricdiff.scoring.jobs import CRASH, INVALID, MAX_ERROR, OK, TIMEOUT, CaseResult, Job
from metricdiff.scoring.validate import describe, validate
from metricdiff.statistics import BleuResult, RougeResult

ROUGE1 = with_variant(RougeOptions(), "rouge-1")


def fake_job(hyps: list[str], cls: str = "MisbehavingAdapter", label: str = "declared") -> Job:
    return Job(
        impl="fake",
        metric="rouge-1",
        options=ROUGE1,
        cases=[((hyp,), (("a reference",),)) for hyp in hyps],
        label=label,
        adapter_path=f"fake_adapters:{cls}",
    )


def fine(i: int) -> str:
    return " ".join(["word"] * (i % 7)) or "x"


# --------------------------------------------------------------------------
# validate and describe


def bleu(**changes: object) -> BleuResult:
    fields: dict[str, object] = {
        "score": 35.0, "precisions": (60.0, 40.0, 30.0, 20.0), "bp": 0.9, "sys_len": 10,
        "ref_len": 11.0, "counts": (6, 4, 3, 2), "totals": (10, 9, 8, 7),
    }
    fields.update(changes)
    return BleuResult(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        (bleu(), None),
        (bleu(score=112.5, precisions=(150.0, 100.0, 100.0, 100.0)), None),  # smoothing
        (bleu(score=0.0, precisions=(0.0,) * 4, counts=(0,) * 4), None),
        (bleu(score=math.nan), "score is NaN"),
        (bleu(bp=math.inf), "bp is inf"),
        (bleu(score=-1.0), "score -1 is negative"),
        (bleu(precisions=(60.0, -1.0, 30.0, 20.0)), "precisions[1] -1 is negative"),
        (bleu(counts=(6, -4, 3, 2)), "negative count: counts[1] = -4"),
        (bleu(ref_len=-2.0), "negative count: ref_len = -2"),
        (bleu(score="35"), None),  # a numeric string is a number to float()
        (bleu(score=None), "score is not a number (None)"),
        (RougeResult(0.5, 0.25, 1 / 3, 1.0, 4.0, 2.0), None),
        (RougeResult(1.0 + 1e-12, 1.0, 1.0), None),  # float rounding
        (RougeResult(0.0, 0.0, 0.0), None),
        (RougeResult(1.3, 0.5, 0.5), "recall 1.3 outside [0, 1]"),
        (RougeResult(0.5, -0.1, 0.5), "precision -0.1 outside [0, 1]"),
        (RougeResult(0.5, 0.5, math.nan), "fmeasure is NaN"),
        (RougeResult(0.5, 0.5, 0.5, -1.0), "negative count: matches = -1"),
        (RougeResult(math.nan, 2.0, 0.5), "recall is NaN; precision 2 outside [0, 1]"),
        (0.5, "returned float, not a BleuResult or RougeResult"),
        (None, "returned NoneType, not a BleuResult or RougeResult"),
    ],
)
def test_validate(result: object, problem: str | None) -> None:
    assert validate(result) == problem


def test_describe_is_one_short_line() -> None:
    assert describe(ValueError("bad\n  input\ttoday")) == "ValueError: bad input today"
    assert describe(KeyError()) == "KeyError"
    long = describe(RuntimeError("x" * 1000))
    assert len(long) == MAX_ERROR and long.startswith("RuntimeError: xxx")


# --------------------------------------------------------------------------
# Misbehaviour in worker processes


def check(results: list[CaseResult], hyps: list[str]) -> None:
    assert len(results) == len(hyps)
    for hyp, got in zip(hyps, results, strict=True):
        marker = hyp.split()[0]
        status = MARKERS.get(marker, OK)
        assert got.status == status, (hyp, got)
        if status == OK:
            assert got.result == expected([hyp]) and got.error == ""
        else:
            assert got.result is None and got.error
            assert "\n" not in got.error and len(got.error) <= MAX_ERROR


ERRORS = {
    "RAISE": "ValueError: bad input on two lines",
    "SYSEXIT": "SystemExit: 2",
    "HANG": f"no result within {HANG_TIMEOUT:g} s",
    "EXIT": "process died with exit code 3",
    "KILL": "process killed by signal SIGKILL",
    "NAN": "recall is NaN",
    "RECALL15": "recall 1.5 outside [0, 1]",
    "NEGCOUNT": "negative count: matches = -1",
}


@pytest.mark.slow
def test_every_misbehaviour_is_recorded_and_isolated() -> None:
    # Chunks of 4 (the adapter's batch_size): each bad case spoils its chunk,
    # whose other cases must still get their results on the one-by-one retry.
    hyps = [fine(i) for i in range(30)]
    for position, marker in zip((1, 5, 6, 12, 17, 22, 27, 29), MARKERS, strict=True):
        hyps[position] = f"{marker} here"
    reference_cases = [
        (("the cat sat on the mat",), (("the cat is on the mat", "a cat sat"),)),
        (("a b c", "d e"), (("a b", None), ("d e f",))),
    ]
    jobs = [
        fake_job(hyps),
        Job("reference", "rouge-1", ROUGE1, reference_cases, label="declared"),
        fake_job(["fine", "RAISE"], cls="UnavailableAdapter"),
        fake_job([fine(i) for i in range(9)], label="second"),
    ]
    results = run_jobs(jobs, workers=2, timeout=HANG_TIMEOUT)
    assert len(results) == len(jobs)

    check(results[0], hyps)
    for hyp, got in zip(hyps, results[0], strict=True):
        if hyp.split()[0] in ERRORS:
            assert got.error == ERRORS[hyp.split()[0]], hyp

    reference = get_adapter("reference", "rouge-1")
    assert [r.result for r in results[1]] == [
        reference.corpus_score("rouge-1", hyps_, refs_, ROUGE1)
        for hyps_, refs_ in reference_cases
    ]
    assert {r.status for r in results[1]} == {OK}

    assert results[2] == [
        CaseResult(CRASH, None, "AdapterUnavailable: unavailable: install: pip install nothing")
    ] * 2
    check(results[3], [fine(i) for i in range(9)])


@pytest.mark.slow
def test_a_hang_in_a_big_chunk_costs_only_its_case() -> None:
    hyps = [fine(i) for i in range(50)]
    hyps[33] = "HANG now"
    [results] = run_jobs([fake_job(hyps, cls="BigBatchAdapter")], workers=1,
                         timeout=HANG_TIMEOUT)
    check(results, hyps)
    assert results[33] == CaseResult(TIMEOUT, None, ERRORS["HANG"])


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for a reaper does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_timeout_kills_what_the_implementation_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "child.pid"
    monkeypatch.setenv("METRICDIFF_FAKE_PIDFILE", str(pidfile))
    [[result]] = run_jobs([fake_job(["x"], cls="ChildHangAdapter")], timeout=HANG_TIMEOUT)
    assert result == CaseResult(TIMEOUT, None, ERRORS["HANG"])
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + NO_HANG  # killed at once; waits only for the reaper
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


def test_workers_are_reused_across_chunks() -> None:
    jobs = [fake_job([fine(i) for i in range(40)], cls="CountingAdapter") for _ in range(3)]
    results = run_jobs(jobs, workers=2, timeout=NO_HANG)
    scored = [r.result for job in results for r in job]
    assert len(scored) == 120
    pids = {r.hyp_total for r in scored if isinstance(r, RougeResult)}
    assert 1 <= len(pids) <= 2  # 30 chunks, at most two processes


def test_idle_workers_serve_the_next_call() -> None:
    def pid() -> float:
        [[result]] = run_jobs([fake_job(["x"], cls="CountingAdapter")], timeout=NO_HANG)
        assert isinstance(result.result, RougeResult)
        return result.result.hyp_total

    shutdown_workers()
    first = pid()
    assert pid() == first
    shutdown_workers()
    assert pid() != first


def test_workers_see_the_current_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # Started before the variable is set, a forkserver holds the old environment.
    run_jobs([fake_job(["x"], cls="EnvAdapter")], timeout=NO_HANG)
    monkeypatch.setenv("METRICDIFF_FAKE_VALUE", "7")
    [[result]] = run_jobs([fake_job(["x"], cls="EnvAdapter")], timeout=NO_HANG)
    assert result == CaseResult(OK, RougeResult(0.5, 0.5, 0.5, 7.0))
    monkeypatch.delenv("METRICDIFF_FAKE_VALUE")
    [[result]] = run_jobs([fake_job(["x"], cls="EnvAdapter")], timeout=NO_HANG)
    assert result == CaseResult(INVALID, None, "negative count: matches = -1")


def test_each_worker_s_thread_pools_get_its_share_of_the_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: two workers each running fast-bleu with an OpenMP thread per
    core took 2-12 s on 300 sentences that take 0.1 s alone.  A worker's
    library thread pools are sized to its share of the cores (the cores over the
    workers, at least one), unless the user has sized them."""
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    cores = len(os.sched_getaffinity(0))
    for workers in (1, 2):
        [[result]] = run_jobs([fake_job(["x"], cls="ThreadsAdapter")], workers=workers,
                              timeout=NO_HANG)
        assert result.result is not None
        assert result.result.matches == max(1, cores // workers)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")  # the user's own choice stands
    [[result]] = run_jobs([fake_job(["x"], cls="ThreadsAdapter")], workers=2, timeout=NO_HANG)
    assert result.result is not None and result.result.matches == 3


def test_the_pool_orders_and_shares_out_what_it_cannot_read_as_it_would_the_rest() -> None:
    """The pool's line (the costliest first) and its affinity (the cases a worker
    scored) read a job's declared cost and hash its cases; an adapter whose
    ``cost`` is no ``Cost``, or cases given in lists, are scored as any other:
    its chunks keep their place, theirs get no affinity."""
    hyps = [fine(i) for i in range(5)]
    odd = fake_job(hyps, cls="OddCostAdapter")
    listed = attrs.evolve(fake_job(hyps), cases=[([h], [["a reference"]]) for h in hyps])
    expected_results = run_jobs([fake_job(hyps)], timeout=None)[0]
    assert run_jobs([odd, listed], workers=2, timeout=NO_HANG) == [expected_results] * 2


def test_in_process_and_pool_agree_on_what_they_both_can_survive() -> None:
    hyps = [fine(i) for i in range(13)]
    for position, marker in ((0, "RAISE"), (4, "SYSEXIT"), (7, "NAN"), (12, "RECALL15")):
        hyps[position] = marker
    hyps[9] = "NEGCOUNT x"
    jobs = [fake_job(hyps), fake_job(hyps[::-1])]
    in_process = run_jobs(jobs, timeout=None)
    check(in_process[0], hyps)
    check(in_process[1], hyps[::-1])
    assert run_jobs(jobs, workers=1, timeout=NO_HANG) == in_process
    assert run_jobs(jobs, workers=2, timeout=None) == in_process


def test_empty_and_unknown() -> None:
    assert run_jobs([], workers=2) == []
    assert run_jobs([fake_job([])], workers=2, timeout=NO_HANG) == [[]]
    [results] = run_jobs(
        [Job("no-such-impl", "rouge-1", ROUGE1, [(("a",), (("a",),))])], timeout=NO_HANG
    )
    assert results[0].status == CRASH and "unknown implementation" in results[0].error
    with pytest.raises(ValueError, match="workers"):
        run_jobs([], workers=0)
    with pytest.raises(ValueError, match="timeout"):
        run_jobs([], timeout=0)


def test_job_freezes_its_cases() -> None:
    job = Job("reference", "bleu", BleuOptions(), [(["a b"], [["a b", None]])])
    assert job.cases == ((("a b",), (("a b", None),)),)
    hash(job)


def test_fake_adapter_module_is_importable() -> None:
    assert fake_adapters.MisbehavingAdapter.cost.batch_size == 4


# --------------------------------------------------------------------------
# ROUGE-1.5.5: all cases in one Perl run

UNAVAILABLE = Rouge155Adapter().unavailable_reason()

ROUGE155_CASES: list[tuple[list[str], list[list[str | None]]]] = [
    (["the cat sat on the mat"], [["the cat is on the mat"]]),
    (["a b c", "hello world\nsecond line"], [["a b d", None], ["hello there world", "x y"]]),
    ([], []),
    (["police killed the gunman"], [["police kill the gunman", "the gunman was shot"]]),
    (["only a hypothesis"], [[None]]),
    (["two", "segments"], [["two"]]),  # malformed: one reference set for two segments
    (["nothing to see"], [[""]]),  # an empty reference: kills ROUGE-W
]


@pytest.fixture(scope="module")
def r155(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rouge155Adapter]:
    if UNAVAILABLE is not None:
        pytest.skip(f"ROUGE-1.5.5.pl cannot run here: {UNAVAILABLE}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        rouge155.data_dir.cache_clear()
        yield Rouge155Adapter()
    rouge155.data_dir.cache_clear()


def per_case(adapter: Rouge155Adapter, metric: str, options: RougeOptions) -> list[object]:
    outcomes: list[object] = []
    for hyps, refs in ROUGE155_CASES:
        try:
            outcomes.append(adapter.corpus_score(metric, hyps, refs, options))
        except Exception as error:
            outcomes.append(error)
    return outcomes


def same(a: object, b: object) -> bool:
    if isinstance(a, BaseException):
        return type(a) is type(b) and str(a) == str(b)
    return a == b


@pytest.mark.parametrize(
    ("metric", "batches", "processes"),
    [("rouge-1", [6], 1), ("rouge-lsum", [6], 1), ("rouge-w", [4], 2)],
)
def test_rouge155_score_cases_is_one_run_and_equals_corpus_score(
    r155: Rouge155Adapter,
    monkeypatch: pytest.MonkeyPatch,
    metric: str,
    batches: list[int],
    processes: int,
) -> None:
    options = r155.default_options(metric)
    expected_outcomes = per_case(r155, metric, options)  # also builds the data dir
    rouge155.shared.forget()  # the runs of segments not remembered (rouge155/shared.py)

    runs: list[int] = []
    popens: list[object] = []
    real_batch, real_popen = rouge155.run.run_batch, subprocess.Popen

    def counting_batch(cases, *args):  # type: ignore[no-untyped-def]
        runs.append(len(cases))
        return real_batch(cases, *args)

    def counting_popen(*args, **kwargs):  # type: ignore[no-untyped-def]
        popens.append(args)
        return real_popen(*args, **kwargs)

    monkeypatch.setattr(rouge155.run, "run_batch", counting_batch)
    monkeypatch.setattr(subprocess, "Popen", counting_popen)
    outcomes = r155.score_cases(metric, ROUGE155_CASES, options)
    monkeypatch.undo()

    # One Perl run for the 6 segments of the well-formed cases: a counts process
    # alone, whose counts give R, P and F (run.printed_scores; for ROUGE-W
    # run.weighted_scores, which these counts decide).  ROUGE-W also runs each
    # segment with an empty reference (cases 4 and 6) alone, as score_segments
    # always does, both as forked children of one guard.pl process
    # (rouge155/guarded.py): 1 + 1.
    assert runs == batches and len(popens) == processes
    assert len(outcomes) == len(expected_outcomes)
    for got, want in zip(outcomes, expected_outcomes, strict=True):
        assert same(got, want), (got, want)
    assert isinstance(outcomes[5], ValueError)  # the malformed case alone
    assert isinstance(outcomes[6], RougeResult) == (metric != "rouge-w")
    assert isinstance(outcomes[4], RougeResult) == (metric != "rouge-w")


@pytest.mark.parametrize("metric", ["rouge-l", "rouge-w"])
def test_rouge155_runs_a_repeated_segment_once(
    r155: Rouge155Adapter, monkeypatch: pytest.MonkeyPatch, metric: str
) -> None:
    # As an audit of a user's corpus has them: each line a case, and the same
    # lines again in the whole corpus.  "nothing to see" against an empty
    # reference kills ROUGE-W and goes to the guarded process.
    hyps = ["the cat sat on the mat", "nothing to see", "police killed the gunman"]
    refs: list[list[str | None]] = [["the cat is on the mat"], [""], ["the gunman"]]
    options = r155.default_options(metric)
    alone = [r155.score_segments(metric, [hyp], [seg], options)[0]
             for hyp, seg in zip(hyps, refs, strict=True)]

    rouge155.shared.forget()  # the runs of segments not remembered (rouge155/shared.py)
    written: list[int] = []
    real_batch, real_alone = rouge155.run.run_batch, rouge155.guarded.run_alone

    def counting_batch(cases, *args):  # type: ignore[no-untyped-def]
        written.append(len(cases))
        return real_batch(cases, *args)

    def counting_alone(cases, *args):  # type: ignore[no-untyped-def]
        written.append(len(cases))
        return real_alone(cases, *args)

    monkeypatch.setattr(rouge155.run, "run_batch", counting_batch)
    monkeypatch.setattr(rouge155.guarded, "run_alone", counting_alone)
    twice = r155.score_segments(metric, hyps + hyps, refs + refs, options)
    monkeypatch.undo()

    assert sum(written) == 3  # each distinct segment written once
    for index, outcome in enumerate(twice):
        expected = alone[index % 3]
        if isinstance(expected, CaseFailure):  # ROUGE-W's death, at both positions
            assert outcome == attrs.evolve(expected, index=index)
        else:
            assert outcome == expected
    assert isinstance(twice[4], CaseFailure) == (metric == "rouge-w")


def test_rouge155_through_run_jobs(r155: Rouge155Adapter) -> None:
    options = r155.default_options("rouge-1")
    job = Job("rouge155", "rouge-1", options, ROUGE155_CASES[:5])
    [results] = run_jobs([job], workers=1, timeout=60.0)
    assert [r.status for r in results] == [OK] * 5
    assert [r.result for r in results] == r155.score_cases("rouge-1", ROUGE155_CASES[:5], options)


def test_warm_up_starts_the_forkserver_that_the_first_workers_then_come_from() -> None:
    """Issue 26: ``compare``'s first worker waited ~0.8 s for the forkserver to
    import every installed peer, which it started only once the corpus was read
    and every profile worked out.  ``warm_up`` starts it at once; the pool then
    forks its workers from that same server (its pid is unchanged), and they
    score.  In a fresh interpreter, where no server runs yet."""
    code = """if True:
        import multiprocessing.forkserver as forkserver
        from metricdiff.scoring.worker import warm_up
        from metricdiff.scoring.execution import run_jobs
        from metricdiff.scoring.jobs import Job
        from metricdiff.profiles.metrics import paper_options
        server = forkserver._forkserver
        before = server._forkserver_pid
        warm_up()
        started = server._forkserver_pid
        job = Job("reference", "bleu", paper_options("bleu"), [(("a b c d",), (("a b c d",),))])
        [[outcome]] = run_jobs([job], workers=2, timeout=60)
        print(before, started is not None, started == server._forkserver_pid,
              outcome.result.score)
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    # BLEU of a hypothesis equal to its reference is 100 (Papineni et al. 2002, §2.3)
    assert done.stdout.split() == ["None", "True", "True", "100.0"]

"""``--executor ray``: the same results as the local worker processes, on Ray.

One local Ray instance (2 CPUs) serves the whole module; the tests that need
it skip without Ray.  The misbehaving adapters of ``fake_adapters.py`` must give
exactly the outcomes, error texts included, that ``run_jobs`` gives locally;
``metricdiff audit --executor ray`` must write the same ``findings.json`` and
``results.jsonl`` byte for byte, and the same journal.  Without Ray,
``--executor ray`` is a one-line error naming the extra.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_execution import ROUGE1, check, fake_job, fine

import metricdiff
from fake_adapters import HANG_TIMEOUT, MARKERS, NO_HANG
from helpers import corpus_files
from metricdiff.cli import main
from metricdiff.impls import AdapterUnavailable
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.executors import RAY_INSTALL, RayExecutor, open_executor
from metricdiff.scoring.jobs import CaseResult, Job
from metricdiff.statistics import RougeResult


@pytest.fixture(scope="module")
def executor() -> Iterator[RayExecutor]:
    pytest.importorskip("ray", reason=f"ray is not installed ({RAY_INSTALL})")
    with RayExecutor("local", num_cpus=2) as started:
        assert started.started and started.same_machine
        yield started


def both(jobs: list[Job], executor: RayExecutor, workers: int = 1,
         timeout: float | None = NO_HANG) -> tuple[list[list[CaseResult]], list[list[CaseResult]]]:
    """``run_jobs`` locally and on Ray; on Ray, ``on_result`` must see every
    case once, with its final outcome."""
    seen: dict[tuple[int, int], CaseResult] = {}

    def on_result(job: int, case: int, result: CaseResult) -> None:
        assert (job, case) not in seen
        seen[job, case] = result

    local = run_jobs(jobs, workers=workers, timeout=timeout)
    remote = run_jobs(jobs, workers=workers, timeout=timeout, on_result=on_result,
                      executor=executor)
    assert seen == {(j, c): r for j, row in enumerate(remote) for c, r in enumerate(row)}
    return local, remote


@pytest.mark.slow
def test_misbehaviour_gives_the_same_outcomes_as_locally(executor: RayExecutor) -> None:
    hyps = [fine(i) for i in range(14)]
    for position, marker in zip((1, 2, 5, 6, 8, 10, 12, 13), MARKERS, strict=True):
        hyps[position] = f"{marker} here"
    jobs = [
        fake_job(hyps),
        Job("reference", "rouge-1", ROUGE1, [(("the cat sat",), (("the cat is",),))]),
        fake_job(["fine", "RAISE", *(fine(i) for i in range(9))], cls="UnavailableAdapter"),
        fake_job([fine(i) for i in range(9)], cls="BigBatchAdapter"),
        fake_job([]),
    ]
    local, remote = both(jobs, executor, workers=2, timeout=HANG_TIMEOUT)
    assert remote == local  # statuses and error texts, in input order
    check(remote[0], hyps)
    assert "unavailable" in remote[2][0].error and len(set(remote[2])) == 1


@pytest.mark.slow
def test_without_a_timeout(executor: RayExecutor) -> None:
    hyps = ["RAISE", "SYSEXIT", "NAN", "NEGCOUNT x", "fine", "two words"]
    local, remote = both([fake_job(hyps)], executor, timeout=None)  # local: in process
    assert remote == local
    check(remote[0], hyps)


@pytest.mark.slow
def test_workers_get_this_process_environment(
    executor: RayExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("METRICDIFF_FAKE_VALUE", "7")
    [[result]] = run_jobs([fake_job(["x"], cls="EnvAdapter")], timeout=NO_HANG, executor=executor)
    assert result == CaseResult("ok", RougeResult(0.5, 0.5, 0.5, 7.0))


@pytest.mark.slow
def test_an_on_result_that_raises_stops_the_run(executor: RayExecutor) -> None:
    def stop(job: int, case: int, result: CaseResult) -> None:
        raise KeyboardInterrupt

    jobs = [fake_job([fine(i) for i in range(12)]), fake_job(["HANG"])]
    with pytest.raises(KeyboardInterrupt):
        run_jobs(jobs, workers=2, timeout=30.0, on_result=stop, executor=executor)
    # The cancelled tasks leave Ray able to serve the next run.
    [[result]] = run_jobs([fake_job(["x"])], timeout=NO_HANG, executor=executor)
    assert result.ok


@pytest.mark.slow
def test_a_running_ray_is_joined_and_left_running(executor: RayExecutor) -> None:
    import ray

    with RayExecutor() as joined:
        assert not joined.started and joined.same_machine  # every node is this machine
        [[result]] = run_jobs([fake_job(["x"])], timeout=NO_HANG, executor=joined)
        assert result.ok
    assert ray.is_initialized()


@pytest.mark.slow
def test_workers_with_another_metricdiff_are_refused(
    executor: RayExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(metricdiff._version, "__version__", "0.0.0-other")
    with pytest.raises(AdapterUnavailable, match=r"Ray workers run metricdiff \S+, this is 0.0"):
        RayExecutor().start()  # joins the running Ray, and leaves it running
    [[result]] = run_jobs([fake_job(["x"])], timeout=NO_HANG, executor=executor)
    assert result.ok


def write_inputs(directory: Path) -> list[str]:
    files = corpus_files(directory, "the cat sat on the mat.\na dog , ran in the park\nhello "
                         "world again\nit is what it is\n", "the cat sat on the mat\na dog ran "
                         "in the park\nhello world , again\nit is what it was\n")
    return [*files, "--metric", "bleu", "--generate", "3",
            "--impl", "reference", "--impl", "sacrebleu", "--impl", "nltk"]


@pytest.mark.slow
def test_audit_writes_the_same_findings_as_locally(
    executor: RayExecutor, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = write_inputs(tmp_path)
    out, said = {}, {}
    for name in ("local", "ray"):
        out[name] = tmp_path / name
        argv = ["audit", *inputs, "--jobs", "2", "--executor", name, "--out", str(out[name]),
                "--progress"]
        assert main(argv) == 0
        captured = capsys.readouterr()
        assert "bleu: scoring" in captured.err  # the progress line
        said[name] = (captured.out.replace(str(out[name]), "OUT"),
                      [line for line in captured.err.splitlines()
                       # the progress line: how explaining is drawn depends on
                       # whether it runs here (Ray) or in a forked child (local)
                       if "scoring" not in line and "explaining" not in line])
    assert said["ray"] == said["local"]  # nothing from Ray on stdout or stderr
    findings = (out["local"] / "findings.json").read_bytes()
    assert json.loads(findings)  # there is something to compare
    assert (out["ray"] / "findings.json").read_bytes() == findings
    assert (out["ray"] / "results.jsonl").read_bytes() == (out["local"] / "results.jsonl"
                                                           ).read_bytes()
    journals = [sorted((out[n] / "journal.jsonl").read_text().splitlines()) for n in out]
    assert journals[0] == journals[1] and journals[0]
    assert executor.started  # the CLI joined the module's Ray and left it running


def test_without_ray_the_cli_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError
    argv = ["audit", "--metric", "bleu", "--generate", "2", "--executor", "ray",
            "--out", str(tmp_path / "out")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("metricdiff: error: --executor ray")
    assert RAY_INSTALL in err
    assert not (tmp_path / "out").exists()  # stopped before anything was written


def test_local_is_no_executor_and_names_are_checked() -> None:
    with open_executor("local") as local:
        assert local is None
    with pytest.raises(ValueError, match="unknown executor"), open_executor("dask"):
        pass

"""``metricdiff audit --out DIR``'s journal, ``--resume`` and ``--progress``.

An interrupted audit is simulated by cutting its journal: the last half of the
lines gone, and the last line left cut mid-JSON, as a kill during a write
leaves it.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

import metricdiff.findings.witness
import metricdiff.impls as adapters
from helpers import run
from metricdiff.auditing.journal import JOURNAL_NAME, Journal, ProgressLine, case_digest
from metricdiff.errors import MetricdiffWarning
from metricdiff.impls.base import References
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter
from metricdiff.profiles import BleuOptions
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import CaseResult, Job
from metricdiff.statistics import BleuResult, RougeResult

HYPS = ["the cat sat on the mat.", "a dog, ran in the park", "hello world , again",
        "it is what it is", "no match here at all"]
REFS = ["the cat sat on the mat", "a dog ran in the park", "hello world again",
        "it is what it was", "nothing in common"]


def write_inputs(directory: Path) -> list[str]:
    hyp, ref = directory / "h.txt", directory / "r.txt"
    hyp.write_text("".join(f"{line}\n" for line in HYPS), encoding="utf-8")
    ref.write_text("".join(f"{line}\n" for line in REFS), encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(ref), "--metric", "bleu"]


def audit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run(capsys, "audit", *argv)


def journal_rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def row_key(row: dict[str, object]) -> tuple[object, ...]:
    return tuple(row[k] for k in ("metric", "impl", "label", "options", "case"))


def interrupt(journal: Path, keep: int) -> None:
    """Keep the first ``keep`` lines, the last of them cut in the middle."""
    lines = journal.read_bytes().splitlines(keepends=True)
    assert len(lines) > keep >= 1
    kept = b"".join(lines[: keep - 1]) + lines[keep - 1][: len(lines[keep - 1]) // 2]
    journal.write_bytes(kept)


# ------------------------------------------------------------------ resuming


@pytest.mark.slow
def test_a_resumed_audit_gives_the_same_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sacrebleu")
    inputs = [*write_inputs(tmp_path), "--impl", "reference", "--impl", "sacrebleu"]
    first = tmp_path / "first"
    status, _, _ = audit(capsys, *inputs, "--out", str(first))
    assert status == 0
    expected = (first / "findings.json").read_bytes()
    assert json.loads(expected)  # reference and sacrebleu part on tokenization
    rows = journal_rows(first / JOURNAL_NAME)
    # 5 lines + the corpus; reference, sacrebleu, reference-as-sacrebleu, and
    # sacrebleu's audited intl variant with the reference as it
    assert len(rows) == 6 * 5
    assert len({row_key(r) for r in rows}) == len(rows)

    second = tmp_path / "second"
    second.mkdir()
    (second / JOURNAL_NAME).write_bytes((first / JOURNAL_NAME).read_bytes())
    interrupt(second / JOURNAL_NAME, len(rows) // 2)
    status, _, _ = audit(capsys, *inputs, "--out", str(second), "--resume")
    assert status == 0
    assert (second / "findings.json").read_bytes() == expected
    resumed = journal_rows(second / JOURNAL_NAME)  # every line whole again
    assert len({row_key(r) for r in resumed}) == len(resumed) == len(rows)
    assert sorted(map(json.dumps, resumed)) == sorted(map(json.dumps, rows))
    assert (second / "results.jsonl").read_bytes() == (first / "results.jsonl").read_bytes()


def test_without_resume_the_journal_starts_afresh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    inputs = [*write_inputs(tmp_path), "--impl", "reference", "--no-minimise"]
    for _ in range(2):
        assert audit(capsys, *inputs, "--out", str(out))[0] == 0
    assert len(journal_rows(out / JOURNAL_NAME)) == 6


def test_resume_needs_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = audit(capsys, *write_inputs(tmp_path), "--resume")
    assert status != 0
    assert "--resume needs --out" in err


def test_a_broken_journal_is_read_as_far_as_it_is_whole(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_NAME
    job = Job("reference", "rouge-1", adapters.get_adapter(
        "reference", "rouge-1").options("rouge-1", {}), [(("a b",), (("a c",),))])
    from metricdiff.auditing.journal import job_case_key

    key = job_case_key(job, job.cases[0])
    journal = Journal(path)
    outcome = CaseResult("ok", RougeResult(0.5, 0.5, 0.5, 1.0, 2.0, 2))
    journal.record(key, outcome)
    journal.record(key, outcome)  # once per key
    journal.close()
    whole = path.read_bytes()
    assert whole.count(b"\n") == 1
    path.write_bytes(whole + b"not json\n" + b'{"metric": "rouge-1", "im')
    with pytest.warns(MetricdiffWarning, match="1 line not an outcome metricdiff writes"):
        journal = Journal(path, resume=True)  # the cut line is not counted: it was cut
    assert journal.get(key) == outcome
    assert type(journal.get(key).result.ref_total) is int  # type: ignore[union-attr]
    journal.close()
    assert path.read_bytes() == whole + b"not json\n"  # the cut line is gone


def test_results_round_trip_through_json() -> None:
    bleu = BleuResult(12.5, (50.0, 25.0), 1.0, 4, 4.0, (2, 1), (4, 3))
    rouge = RougeResult(0.25, 0.5, 1 / 3, 1.0, 2.0, 4.0)
    for result in (bleu, rouge):
        text = json.dumps(result.to_json())
        again = type(result).from_json(json.loads(text))
        assert again == result
        assert json.dumps(again.to_json()) == text


# ----------------------------------------------- resumed cases are not rescored


class CountingBleuAdapter(ReferenceBleuAdapter):
    """The reference's BLEU, noting every case it scores in ``$METRICDIFF_FAKE_CALLS``
    (workers get the parent's environment with every chunk)."""

    name = "counting"

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        with open(os.environ["METRICDIFF_FAKE_CALLS"], "a", encoding="utf-8") as out:
            out.write(json.dumps(case_digest(hyps, refs)) + "\n")
        return super().corpus_score(metric, hyps, refs, options)


COUNTING = f"{CountingBleuAdapter.__module__}:{CountingBleuAdapter.__name__}"


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Register ``counting`` for BLEU, as ``test_audit.crashy`` does; the file
    its calls are written to."""
    import sys

    module = sys.modules[CountingBleuAdapter.__module__]
    monkeypatch.setitem(sys.modules, "metricdiff.impls._test_counting", module)
    monkeypatch.setitem(adapters._REGISTRY, "counting",
                        {"bleu": "_test_counting:CountingBleuAdapter"})

    def job(impl: str, *args: object, **kwargs: object) -> Job:
        if impl == "counting":
            kwargs["adapter_path"] = COUNTING
        return Job(impl, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(metricdiff.findings.witness, "Job", job)
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("METRICDIFF_FAKE_CALLS", str(calls))
    return calls


def read_calls(path: Path) -> list[str]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.slow
def test_resumed_cases_are_not_scored_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], counting: Path
) -> None:
    out = tmp_path / "out"
    inputs = [*write_inputs(tmp_path), "--impl", "reference", "--impl", "counting",
              "--no-minimise", "--out", str(out)]
    assert audit(capsys, *inputs)[0] == 0
    first_calls = read_calls(counting)
    assert len(first_calls) == 6  # 5 lines and the corpus, once each
    expected = (out / "findings.json").read_bytes()

    journal = out / JOURNAL_NAME
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    mine = [i for i, line in enumerate(lines) if json.loads(line)["impl"] == "counting"]
    dropped = mine[::2]  # every other one of counting's cases
    journal.write_text("".join(line for i, line in enumerate(lines) if i not in dropped),
                       encoding="utf-8")
    counting.unlink()

    assert audit(capsys, *inputs, "--resume")[0] == 0
    again = read_calls(counting)
    assert sorted(again) == sorted(json.loads(lines[i])["case"] for i in dropped)
    assert (out / "findings.json").read_bytes() == expected
    rows = journal_rows(journal)
    assert len({row_key(r) for r in rows}) == len(rows) == len(lines)

    # Nothing left to score: nothing is scored.
    counting.unlink()
    assert audit(capsys, *inputs, "--resume")[0] == 0
    assert read_calls(counting) == []
    assert len(journal_rows(journal)) == len(lines)


# ------------------------------------------------------------------ run_jobs


@pytest.mark.parametrize(("workers", "timeout"), [(1, None), (2, 20.0)])
def test_on_result_reports_every_case_once(workers: int, timeout: float | None) -> None:
    from metricdiff.impls import get_adapter

    options = get_adapter("reference", "rouge-1").options("rouge-1", {})
    words = ["FINE a", "RAISE b", "FINE c d", "NAN e", "FINE f", "FINE g h", "FINE i"]
    cases = [((w,), (("x",),)) for w in words]
    jobs = [Job("misbehaving", "rouge-1", options, cases, adapter_path=f"fake_adapters:{cls}")
            for cls in ("MisbehavingAdapter", "BigBatchAdapter")]
    seen: list[tuple[int, int, CaseResult]] = []
    results = run_jobs(jobs, workers=workers, timeout=timeout,
                       on_result=lambda j, c, r: seen.append((j, c, r)))
    assert sorted((j, c) for j, c, _ in seen) == [(j, c) for j in range(2)
                                                  for c in range(len(cases))]
    for job, case, outcome in seen:
        assert results[job][case] == outcome
    assert [r.status for r in results[0]] == [
        "ok", "crash", "ok", "invalid-output", "ok", "ok", "ok"]


# ------------------------------------------------------------------ progress


def test_progress_with_the_flag_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inputs = [*write_inputs(tmp_path), "--impl", "reference", "--no-minimise"]
    status, stdout, err = audit(capsys, *inputs, "--progress")
    assert status == 0
    assert "bleu: scoring 6/6 (case, implementation) runs" in err and "runs/s" in err
    assert "scoring" not in stdout
    # stderr is not a terminal here: no progress unless asked for
    for extra in ([], ["--no-progress"]):
        status, _, err = audit(capsys, *inputs, *extra)
        assert status == 0
        assert "scoring" not in err and "runs/s" not in err


def test_progress_line_on_a_terminal_redraws_in_place() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    line = ProgressLine("rouge-1", 10, 4, stream, interval=0.0)
    for _ in range(6):
        line.advance()
    line.finish()
    text = stream.getvalue()
    assert text.count("\r") == 7 and text.endswith("\n") and text.count("\n") == 1
    assert "rouge-1: scoring 10/10 (case, implementation) runs" in text
    assert "(4 from the journal)" in text


def test_a_repeated_line_is_journalled_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Lines 1 and 3 are the same pair, so they are one job-case: the journal
    # has one line per key, whichever of the two was scored first.
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat\na dog ran\nthe cat sat\n", encoding="utf-8")
    ref.write_text("the cat is here\na dog ran\nthe cat is here\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = ["--hyp", str(hyp), "--ref", str(ref), "--metric", "bleu", "--impl", "reference",
            "--impl", "sacrebleu", "--no-minimise", "--out", str(out)]
    assert audit(capsys, *argv)[0] == 0
    rows = journal_rows(out / JOURNAL_NAME)
    keys = [row_key(row) for row in rows]
    assert len(set(keys)) == len(keys)
    # Per job: 2 distinct lines and the corpus (3 lines and a corpus, 4 cases).
    jobs = {key[:4] for key in keys}
    assert len(keys) == 3 * len(jobs)

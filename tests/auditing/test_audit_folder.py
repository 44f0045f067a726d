"""An audit's ``--out`` folder when things go wrong (issue 27): a run cut short
leaves the files of one run, never a mix (item 9); SIGTERM is handled as Ctrl-C
is (item 9); ``--resume`` checks the journal's rows (item 11); a journal that
cannot be written is one line (item 15), one removed mid-run is written again
(item 29); an implementation that fails on several metrics is named once
(item 29)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import metricdiff.auditing.output as audit_output
from helpers import corpus_files, file_size_limit, kill_group, run
from metricdiff.auditing.journal import Journal

SENTENCE = "the cat sat on the mat"
PREVIOUS = "the previous, complete file\n"


def corpus(tmp_path: Path) -> list[str]:
    """Two segments, the first identical to its reference."""
    return corpus_files(tmp_path, f"{SENTENCE}\na dog ran\n", f"{SENTENCE}\nthe dog ran\n")


# ------------------------------------------ item 9: the files of one run, or none


def test_a_write_cut_short_keeps_all_three_files_of_the_previous_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cut while writing results.jsonl: findings.json must not be the new run's
    beside the previous run's audit.json (``report --from`` then told of one run's
    cases and another's findings).  Before, findings.json was already replaced."""
    for name in ("findings.json", "results.jsonl", "audit.json"):
        (tmp_path / name).write_text(PREVIOUS, encoding="utf-8")

    def rows_then_terminated(_audit: object) -> Iterator[dict[str, str]]:
        yield {"row": "0"}
        raise KeyboardInterrupt  # SIGTERM arrives as a KeyboardInterrupt too (cli.main)

    monkeypatch.setattr(audit_output, "findings_json", lambda _audits: [{"new": True}])
    monkeypatch.setattr(audit_output, "audit_json", lambda _audits: {"new": True})
    monkeypatch.setattr(audit_output, "result_rows", rows_then_terminated)
    with pytest.raises(KeyboardInterrupt):
        audit_output.write_findings(tmp_path, [SimpleNamespace()])  # type: ignore[list-item]
    assert {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()} == dict.fromkeys(
        ["findings.json", "results.jsonl", "audit.json"], PREVIOUS)


SLOW_ROUGE = """
import time

def f(hyps, refs, metric):
    if metric == "bleu":
        return {"score": 10.0}
    time.sleep(600)
    return {"fmeasure": 0.5}

f.metrics = ("bleu", "rouge-1")
"""


def test_sigterm_is_handled_as_ctrl_c(tmp_path: Path) -> None:
    """SIGTERM while the second metric scores: exit status 143 and one line, what
    was printed is on stdout, the first metric's files and reports are whole,
    no temporary file is left, and nothing keeps running.  Before, the process
    died where it stood (status -15)."""
    (tmp_path / "slow.py").write_text(SLOW_ROUGE, encoding="utf-8")
    out = tmp_path / "out"
    argv = [sys.executable, "-c", "import sys; from metricdiff.cli import main; "
            "sys.exit(main())", "audit", "--metric", "bleu", "--metric", "rouge-1",
            "--impl", "reference", "--impl", "python:slow.py:f", *corpus(tmp_path),
            "--no-minimise", "--out", str(out)]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while not (out / "audit.json").exists():  # bleu is done and written
            assert time.monotonic() < deadline and process.poll() is None, "no bleu"
            time.sleep(0.1)
        time.sleep(1.0)  # rouge-1 is scoring, in its worker
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        kill_group(process.pid)
    assert process.returncode == 143, (process.returncode, stderr)
    assert stderr.splitlines()[-1].startswith(
        f"metricdiff: terminated; the reports of bleu are in {out}"), stderr
    assert "== bleu: reference, python:slow.py:f" in stdout
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
    about = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert [m["metric"] for m in about["metrics"]] == ["bleu"]
    assert (out / "report.md").exists()


# ------------------------------------------------- item 11: --resume's journal


def audited(tmp_path: Path, capsys: pytest.CaptureFixture[str], *more: str
            ) -> tuple[int, str, str]:
    return run(capsys, "audit", "--metric", "bleu", "--impl", "reference", *corpus(tmp_path),
               "--no-minimise", "--out", tmp_path / "out", *more)


def edit_journal(path: Path, edit: Any) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    lines = [edit(row) if index == 0 else json.dumps(row) for index, row in enumerate(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("edit", [
    # The first row's score made NaN (JSON's NaN token): a spurious finding before.
    lambda row: json.dumps({**row, "result": {**row["result"], "score": float("nan")}}),
    # A string where a number belongs: a traceback before.
    lambda row: json.dumps({**row, "result": {**row["result"], "score": "73.1"}}),
    # An unknown status.
    lambda row: json.dumps({**row, "status": "fine"}),
    # Deep nesting, in a field read for nothing: a RecursionError before.
    lambda row: json.dumps(row)[:-1] + ', "x": ' + "[" * 20_000 + "]" * 20_000 + "}",
    # A number of 5000 digits: a ValueError before.
    lambda row: json.dumps(row)[:-1] + ', "x": ' + "9" * 5000 + "}",
])
def test_resume_checks_the_journal_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any
) -> None:
    status, first, err = audited(tmp_path, capsys)
    assert status == 0 and ", 0 findings" in first, (first, err)
    edit_journal(tmp_path / "out" / "journal.jsonl", edit)
    status, again, err = audited(tmp_path, capsys, "--resume")
    # The edited row is no outcome: its case is scored again, and said so.
    assert status == 0 and again == first, (again, err)
    assert "journal.jsonl: 1 line not an outcome metricdiff writes" in err, err


# -------------------------------- items 15 and 29: the journal cannot be written


def test_a_journal_on_a_full_disk_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A journal row is about 400 bytes: the second does not fit.  Before, the
    # OSError of the append came out as a traceback.
    with file_size_limit(600):
        status, out, err = audited(tmp_path, capsys)
    assert status == 2, (status, out, err)
    last = err.splitlines()[-1]
    assert last.startswith("metricdiff: error: ") and "journal.jsonl: cannot write the " \
        "journal: File too large" in last, err


def test_a_journal_removed_mid_run_is_written_again_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The --out folder deleted while the audit runs: the journal (every case
    scored so far) is written again from the file still open, and said so.
    Before, the rows went to the deleted file, silently lost."""
    real = Journal.record
    calls = []

    def record_then_remove(self: Journal, *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        calls.append(1)
        if len(calls) == 2:  # the user deletes the folder after two cases
            for item in self.path.parent.iterdir():
                item.unlink()
            self.path.parent.rmdir()

    monkeypatch.setattr(Journal, "record", record_then_remove)
    status, _out, err = audited(tmp_path, capsys)
    assert status == 0, err
    journal = tmp_path / "out" / "journal.jsonl"
    assert len(journal.read_text(encoding="utf-8").splitlines()) == len(calls) > 2
    assert f"{journal} was removed while the audit ran; it is written again, with every " \
           "case scored so far" in err, err


# ------------------------------------------ item 29: a failure named once


def test_an_implementation_that_fails_on_two_metrics_is_named_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--metric", "rouge-1",
                           "--impl", "reference", "--impl", "cmd:false {hyp} {ref}",
                           *corpus(tmp_path), "--no-minimise")
    assert status == 1, err
    summary = out.splitlines()[-1]
    assert summary.count("cmd:false") == 1, summary
    assert summary.endswith("; could not score cmd:false {hyp} {ref} (no result on any case)")

"""Hostile and careless inputs, in one place: what a new user (or an attacker
writing the data) might hand metricdiff, and what must come of it.  The next
hostile input has its home here.

Grouped by what the input attacks:

* report.md: data that tries to become live Markdown or HTML;
* output files: a write cut short (Ctrl-C, a full disk) must leave the previous
  complete file, or none;
* option values that make no sense (``--timeout 0``, ``--jobs 0``...): one-line
  errors, not tracebacks;
* input files: standard input named twice, a UTF-8 byte order mark;
* wording: counts of one.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import metricdiff.audit.output as audit_output
from metricdiff.cli import main
from metricdiff.cli._user_impls import write_inferred
from metricdiff.reports import audit_reports
from metricdiff.reports import check as check_report

GOLDEN = Path(__file__).resolve().parent / "golden" / "audit_small"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def usage_error(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    """The one line a usage error prints (argparse exits with status 2)."""
    with pytest.raises(SystemExit) as exited:
        main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert exited.value.code == 2, err
    assert err.startswith("metricdiff: error: ") and err.count("\n") == 1, err
    return err


# ------------------------------------------- output files: a write cut short


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Files this process writes cannot grow past ``limit`` bytes, as on a full
    disk: a write beyond it fails with EFBIG (SIGXFSZ ignored) after writing what
    fits."""
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


#: Smaller than every file the writers below make, larger than what they replace.
LIMIT = 1024
PREVIOUS = "the previous, complete file\n"


def big(text: str) -> str:
    """Text longer than ``LIMIT`` bytes."""
    return text * (2 * LIMIT // len(text) + 1)


def writers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Each output file writer (one call writing into ``tmp_path``), by the name of
    the file whose write fails first; inputs large enough to pass ``LIMIT``."""
    fixture = {"id": "conv_x", "description": big("long "), "hyps": [], "refs": []}
    monkeypatch.setattr(audit_output, "fixture_of", lambda _finding, _witness: fixture)
    audits: Any = [SimpleNamespace(findings=[None], witnesses=[None])]
    inference: Any = SimpleNamespace(to_json=lambda: {"note": big("long ")})
    return {
        "report.md": lambda: audit_reports.write_reports(GOLDEN, tmp_path),
        "check.md": lambda: check_report.write_reports(tmp_path, [], [],
                                                       {"x": big("signature ")}),
        "inferred.json": lambda: write_inferred(tmp_path, [inference]),
        "found.toml": lambda: audit_output.save_fixtures(tmp_path, audits),
    }


@pytest.mark.parametrize("name", ["report.md", "check.md", "inferred.json", "found.toml"])
def test_a_write_cut_short_leaves_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    write = writers(tmp_path, monkeypatch)[name]
    (tmp_path / name).write_text(PREVIOUS, encoding="utf-8")
    with file_size_limit(LIMIT), pytest.raises((OSError, ValueError)):
        write()
    assert (tmp_path / name).read_text(encoding="utf-8") == PREVIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temporary file left


def test_ctrl_c_while_writing_results_jsonl_leaves_the_previous_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: a SIGINT during the write of a long results.jsonl left it
    at 0 bytes (and no audit.json), after which ``report --from`` failed."""
    for name in ("findings.json", "results.jsonl", "audit.json"):
        (tmp_path / name).write_text(PREVIOUS, encoding="utf-8")

    def rows_then_interrupted(_audit: object) -> Iterator[dict[str, str]]:
        for index in range(1000):
            yield {"row": str(index)}
        raise KeyboardInterrupt

    monkeypatch.setattr(audit_output, "findings_json", lambda _audits: [{"new": True}])
    monkeypatch.setattr(audit_output, "result_rows", rows_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        audit_output.write_findings(tmp_path, [SimpleNamespace()])  # type: ignore[list-item]
    assert (tmp_path / "results.jsonl").read_text(encoding="utf-8") == PREVIOUS
    assert (tmp_path / "audit.json").read_text(encoding="utf-8") == PREVIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "audit.json", "findings.json", "results.jsonl"]

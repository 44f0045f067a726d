"""``results.jsonl`` after each metric: the rows of the metrics written before are
copied from the file, not encoded again, and the file is the one a single write
of every metric gives (the independent computation: ``write_findings`` with
nothing kept)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metricdiff.auditing import output as audit_output
from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.metric import MetricAudit, audit_metric
from metricdiff.cases import Case
from metricdiff.reports.model import RESULTS_NAME

pytestmark = pytest.mark.filterwarnings("ignore")


def _audit(metric: str) -> MetricAudit:
    case = Case(("the cat sat on the mat",), (("the cat is on the mat",),), id="c0",
                origin="user")
    return audit_metric(metric, [case], AuditConfig(["reference"], workers=1, timeout=120,
                                                    minimise=False))


def test_results_kept_from_the_last_write_equal_one_write_of_everything(tmp_path: Path) -> None:
    audits = [_audit("bleu"), _audit("rouge-1")]
    step, whole = tmp_path / "step", tmp_path / "whole"
    audit_output.write_findings(step, audits[:1])
    audit_output.write_findings(step, audits, kept=1)
    audit_output.write_findings(whole, audits)
    written = (step / RESULTS_NAME).read_bytes()
    assert written == (whole / RESULTS_NAME).read_bytes()
    # Both metrics' rows, the earlier one first.
    metrics = [json.loads(line)["metric"] for line in written.decode("utf-8").splitlines()]
    assert metrics[0] == "bleu" and metrics[-1] == "rouge-1"


def test_nothing_kept_when_the_file_is_not_there(tmp_path: Path) -> None:
    audits = [_audit("bleu"), _audit("rouge-1")]
    audit_output.write_findings(tmp_path / "whole", audits)
    audit_output.write_findings(tmp_path / "fresh", audits, kept=1)  # no file to keep from
    assert (tmp_path / "fresh" / RESULTS_NAME).read_bytes() == (
        tmp_path / "whole" / RESULTS_NAME
    ).read_bytes()


def test_results_removed_during_the_audit_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """results.jsonl deleted between two metrics: the first metric's rows are no
    longer in memory (dropped once written), so the second write cannot redo
    them; the audit says so on one line, with no traceback."""
    from metricdiff.cli import EXIT_USAGE, main

    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat on the mat\na dog ran\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\nthe dog ran\n", encoding="utf-8")
    out = tmp_path / "out"
    real = audit_output.write_findings
    writes = []

    def write_then_lose(folder: Path, audits: list[MetricAudit], kept: int = 0,
                        extra: dict[str, str] | None = None) -> list[Path]:
        written = real(folder, audits, kept, extra)
        writes.append(len(audits))
        if len(writes) == 1:
            (folder / RESULTS_NAME).unlink()  # the user removes it meanwhile
        return written

    monkeypatch.setattr(audit_output, "write_findings", write_then_lose)
    status = main(["audit", "--hyp", str(hyp), "--ref", str(ref), "--impl", "reference",
                   "--metric", "bleu", "--metric", "rouge-1", "--no-minimise", "--jobs", "1",
                   "--no-progress", "--out", str(out)])
    error = capsys.readouterr().err.strip().splitlines()
    assert status == EXIT_USAGE
    assert error[-1].startswith("metricdiff: error: ")
    assert "results.jsonl: removed while the audit ran" in error[-1]
    assert "--resume" in error[-1]
    assert not any("Traceback" in line for line in error)

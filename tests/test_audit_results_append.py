"""``results.jsonl`` after each metric: the rows of the metrics written before are
copied from the file, not encoded again, and the file is the one a single write
of every metric gives (the independent computation: ``write_findings`` with
nothing kept)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metricdiff.audit import output as audit_output
from metricdiff.audit.config import AuditConfig
from metricdiff.audit.metric import MetricAudit, audit_metric
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

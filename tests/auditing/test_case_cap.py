"""A costly peer (``Cost.audit_generated_cases``: pyrouge, jury) takes only the
first generated cases of an audit, every fixture and user case still, and the
audit says so; the cases it did not run are no findings; ``--all-cases`` lifts it."""

from __future__ import annotations

import pytest

from metricdiff.auditing.cases import fixture_cases, generated_cases
from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.metric import audit_metric
from metricdiff.cases.bundled import fixtures_folder
from metricdiff.impls.declarations import Cost


@pytest.fixture
def capped_peer(monkeypatch):
    pytest.importorskip("rouge_metric")
    from metricdiff.impls.peers.rouge_metric_py import RougeMetricPyAdapter

    monkeypatch.setattr(RougeMetricPyAdapter, "cost",
                        Cost(audit_generated_cases=3, audit_reason="a test's cap"))
    return "rouge-metric-py"


def cases():
    fixtures = fixture_cases(fixtures_folder(), "rouge-1")[:4]
    return fixtures + generated_cases("rouge-1", 8, 0)


@pytest.mark.parametrize("all_cases", [False, True])
def test_a_costly_peer_takes_the_first_generated_cases_only(capped_peer, all_cases):
    given = cases()
    config = AuditConfig(impls=("reference", capped_peer), all_cases=all_cases)
    done = audit_metric("rouge-1", given, config)
    own = done.scores.own[capped_peer]
    ran = [case.id for case, outcome in zip(given, own, strict=True)
           if not outcome.error.startswith("UnsupportedOption")]
    generated = [case.id for case in given if case.origin == "generated"]
    fixtures = [case.id for case in given if case.origin != "generated"]
    # By construction: 4 fixtures, 8 generated, a cap of 3 (or none with all_cases).
    assert ran == fixtures + (generated if all_cases else generated[:3])
    said = [reason for reason in done.skipped if "takes the first" in reason]
    assert said == ([] if all_cases else [
        f"{capped_peer} takes the first 3 of 8 generated cases (a test's cap); "
        "--all-cases runs it on every one"])
    # Cases it did not run are neither failures nor disagreements of it.
    left_out = set(generated[3:]) if not all_cases else set()
    for finding in done.findings:
        if capped_peer in (finding.impl_a, finding.impl_b):
            assert not left_out & set(finding.cases), finding

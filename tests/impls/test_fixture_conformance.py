"""Every implementation against the reference configured as the implementation
declares itself, on every must_ and conv_ fixture: they agree within the
implementation's stated tolerance, or the disagreement is a pinned known finding
with its cause (tests/known_findings.py)."""

from __future__ import annotations

import pytest

from helpers import ROOT
from known_findings import FIXTURE_FINDINGS
from metricdiff.cases import Expectation
from metricdiff.cases.fixtures import load_all
from metricdiff.comparison.expectations import mismatches
from metricdiff.impls import (
    UnsupportedOption,
    adapter_for_family,
    adapter_names,
    families_of,
    get_adapter,
)

# fixtures/found/ holds disagreements the audit found and explained: peers part from
# the reference there by construction, and the audit, not this test, reports them.
CASES = [
    c for c in load_all(ROOT / "fixtures")
    if c.verdict_class != "reject" and "/found/" not in c.location
]
PEERS = [
    (name, family)
    for name in adapter_names()
    if name != "reference"
    for family in families_of(name)
]


def _when(expectation: Expectation) -> str:
    return ",".join(f"{axis}={value}" for axis, value in expectation.when.items())


def disagreements(name: str, family: str) -> dict[tuple[str, str, str], str]:
    adapter = adapter_for_family(name, family)
    reason = adapter.unavailable_reason()
    if reason:
        pytest.skip(reason)
    found = {}
    for case in CASES:
        if case.metric not in adapter.declared.metrics:
            continue
        reference = get_adapter("reference", case.metric)
        for expectation in case.expectations:
            key = (name, case.id, _when(expectation))
            try:
                options = adapter.options(case.metric, {**case.options, **expectation.when})
                actual = adapter.corpus_score(case.metric, case.hyps, case.refs, options)
            except UnsupportedOption:
                continue
            except Exception as error:  # a peer that raises disagrees by definition
                found[key] = f"raises {type(error).__name__}: {error}"
                continue
            expected = reference.corpus_score(case.metric, case.hyps, case.refs, options)
            as_expectation = Expectation({}, expected.to_json(), "reference", 0.0)
            problems = mismatches(actual, as_expectation, adapter.declared.tolerance)
            if problems:
                found[key] = "; ".join(problems)
    return found


@pytest.mark.parametrize(("name", "family"), PEERS, ids=lambda v: str(v))
def test_agrees_with_reference_or_is_a_known_finding(name, family):
    found = disagreements(name, family)
    metrics = adapter_for_family(name, family).declared.metrics
    metric_of = {case.id: case.metric for case in CASES}
    pinned = {
        key for key in FIXTURE_FINDINGS
        if key[0] == name and metric_of.get(key[1]) in metrics
    }
    unexplained = {key: found[key] for key in found.keys() - pinned}
    stale = pinned - found.keys()
    assert not unexplained, f"new disagreements (pin them with a cause or fix): {unexplained}"
    assert not stale, f"pinned findings that no longer disagree: {sorted(stale)}"

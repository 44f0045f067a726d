"""The reference must reproduce every expected value in the bundled fixtures and
in the spec's worked examples: must_ values (the paper's), every conv_ value under
the convention it names, and it must refuse every reject_ case."""

from __future__ import annotations

import pytest

from helpers import ROOT
from metricdiff.cases import Case
from metricdiff.cases.fixtures import load_all, load_spec_examples
from metricdiff.comparison.expectations import MATCHES, PASS, REFUSED, run_expectation
from metricdiff.impls import get_adapter

FIXTURE_CASES = load_all(ROOT / "fixtures")
SPEC_CASES = [case for spec in sorted((ROOT / "spec").glob("*.md"))
              for case in load_spec_examples(spec)]
GOOD = {"must": PASS, "conv": MATCHES, "reject": REFUSED}


def check(case: Case) -> None:
    reference = get_adapter("reference", case.metric)
    for expectation in case.expectations:
        outcome = run_expectation(case, expectation, reference)
        assert outcome.status == GOOD[case.verdict_class], (
            f"{case.location} {case.id} {dict(expectation.when)}: {outcome.status} "
            f"{outcome.detail} (source: {expectation.source})"
        )


def test_there_are_enough_bleu_fixtures():
    assert len([c for c in FIXTURE_CASES if c.metric == "bleu"]) >= 40


@pytest.mark.parametrize("case", FIXTURE_CASES, ids=lambda case: case.id)
def test_fixture(case: Case):
    check(case)


@pytest.mark.parametrize("case", SPEC_CASES, ids=lambda case: case.id)
def test_spec_example(case: Case):
    check(case)

"""Findings (``metricdiff.findings.finding``): the public JSON keys, grouping by cause and
a deterministic order.

The public keys are the ones ``findings.py``'s docstring promises (reports and
users' scripts read them); the orders expected below follow from the documented
rules, worked out by hand for the findings built here.
"""

from __future__ import annotations

import itertools
import json

from metricdiff.findings.finding import KINDS, Example, Finding, by_cause, cause_of, sort_findings
from metricdiff.statistics import BleuResult, RougeResult

PUBLIC_KEYS = {
    "metric", "impl_a", "impl_b", "kind", "axis", "values", "first_difference", "count",
    "max_delta", "example", "signatures",
}

BLEU_A = BleuResult(37.99, (83.3, 60.0, 25.0, 16.7), 1.0, 6, 6.0, (5, 3, 1, 0), (6, 5, 4, 3))
BLEU_B = BleuResult(0.0, (83.3, 60.0, 25.0, 0.0), 1.0, 6, 6.0, (5, 3, 1, 0), (6, 5, 4, 3))


def finding(
    kind: str = "agreement",
    axis: str = "tokenize",
    values: tuple[str, str] = ("none", "13a"),
    count: int = 1,
    metric: str = "bleu",
    impl_a: str = "reference",
    impl_b: str = "sacrebleu",
    error: str = "",
    first: str = "sys_len: 6 vs 7",
) -> Finding:
    failed = kind in ("crash", "timeout", "invalid-output")
    example = Example(
        "case1", ("the cat sat on the mat.",), (("the cat sat on the mat", None),),
        None if failed else BLEU_A, None if failed else BLEU_B, error,
    )
    return Finding(metric, impl_a, impl_b, kind, axis, values, first, count, 0.5, example,
                   {impl_a: f"{metric}|impl:{impl_a}"}, ("case1",), axis != "unexplained")


def test_to_json_has_the_public_keys_and_is_json() -> None:
    data = finding().to_json()
    assert set(data) >= PUBLIC_KEYS
    assert json.loads(json.dumps(data)) == data  # nothing but JSON types
    assert data["values"] == ["none", "13a"]
    assert data["count"] == 1 and data["max_delta"] == 0.5
    example = data["example"]
    # one segment: the hypothesis and its references are shown bare
    assert example["hypothesis"] == "the cat sat on the mat."
    assert example["references"] == ["the cat sat on the mat", None]
    assert example["result_a"] == BLEU_A.to_json()
    assert example["result_b"]["score"] == 0.0
    assert data["signatures"] == {"reference": "bleu|impl:reference"}


def test_to_json_of_a_multi_segment_crash() -> None:
    example = Example("c", ("a", "b"), (("x",), ("y", "z")), None, None, "ValueError: no")
    data = Finding("rouge-1", "crashy", "", "crash", "", ("", ""), "", 2, 0.0, example,
                   {}, ("c", "d"), False).to_json()
    assert set(data) >= PUBLIC_KEYS
    assert data["example"]["hypothesis"] == ["a", "b"]
    assert data["example"]["references"] == [["x"], ["y", "z"]]
    assert data["example"]["result_a"] is None and data["example"]["result_b"] is None
    assert data["example"]["error"] == "ValueError: no"


def test_causes() -> None:
    assert cause_of(finding()) == "tokenize: none vs 13a"
    assert cause_of(finding(axis="unexplained", values=("", ""), first="counts[0]: 7 vs 5")) \
        == "unexplained (first difference: counts[0])"
    assert cause_of(finding(kind="crash", axis="", values=("", ""),
                            error="ValueError: bad: input")) == "crash: ValueError"


def test_by_cause_groups_and_orders_by_total_count() -> None:
    findings = [
        finding(axis="smoothing", values=("none", "exp"), count=2),
        finding(count=3),  # tokenize: none vs 13a
        finding(kind="crash", axis="", values=("", ""), count=4, impl_a="nltk", impl_b="",
                error="KeyError: x"),
        finding(count=2, impl_a="nltk"),  # tokenize: none vs 13a again
        finding(axis="smoothing", values=("none", "exp"), count=1, impl_a="nltk"),
        finding(kind="conformance", count=5, impl_b="reference"),  # same cause, other kind
    ]
    groups = by_cause(findings)
    # By hand: [agreement] tokenize 3 + 2 = 5, [conformance] tokenize 5,
    # [crash] KeyError 4, [agreement] smoothing 2 + 1 = 3; the two fives in name order.
    assert [(name, [f.count for f in group]) for name, group in groups] == [
        ("[agreement] tokenize: none vs 13a", [3, 2]),
        ("[conformance] tokenize: none vs 13a", [5]),
        ("[crash] crash: KeyError", [4]),
        ("[agreement] smoothing: none vs exp", [2, 1]),
    ]
    # every finding is in exactly one group
    assert sorted(id(f) for _, g in groups for f in g) == sorted(id(f) for f in findings)


def test_sort_findings_order() -> None:
    findings = [
        finding(metric="rouge-1", count=9),
        finding(kind="crash", axis="", values=("", ""), count=1, impl_b="", error="E: x"),
        finding(count=1),
        finding(count=7, impl_a="nltk"),
        finding(count=3),
        finding(kind="conformance", count=1, impl_b="reference"),
        finding(axis="smoothing", values=("none", "exp"), count=3),
    ]
    got = sort_findings(findings)
    # By hand: metric, then kind in KINDS order (conformance, agreement, ..., crash),
    # then impl_a, impl_b, then the larger count first, then the axis.
    assert KINDS.index("conformance") < KINDS.index("agreement") < KINDS.index("crash")
    assert [(f.metric, f.kind, f.impl_a, f.count, f.axis) for f in got] == [
        ("bleu", "conformance", "reference", 1, "tokenize"),
        ("bleu", "agreement", "nltk", 7, "tokenize"),
        ("bleu", "agreement", "reference", 3, "smoothing"),
        ("bleu", "agreement", "reference", 3, "tokenize"),
        ("bleu", "agreement", "reference", 1, "tokenize"),
        ("bleu", "crash", "reference", 1, ""),
        ("rouge-1", "agreement", "reference", 9, "tokenize"),
    ]


def test_sort_findings_is_deterministic() -> None:
    findings = [
        finding(count=2),
        finding(axis="smoothing", values=("none", "exp"), count=2),
        finding(kind="timeout", axis="", values=("", ""), count=1, impl_b="", error="t"),
        finding(metric="rouge-l", impl_a="rouge-score", impl_b="py-rouge", count=4),
        finding(kind="invalid-output", axis="", values=("", ""), impl_b="", error="NaN"),
    ]
    first = sort_findings(findings)
    assert sort_findings(findings) == first
    assert sort_findings(first) == first  # idempotent
    # whatever order they arrive in (findings that differ in the sort key)
    for order in itertools.permutations(findings):
        assert sort_findings(list(order)) == first
    # By hand: bleu agreements (count 2; smoothing before tokenize), timeout,
    # invalid-output (KINDS order), then a kind unknown to KINDS, then rouge-l.
    odd = finding(kind="weird", count=100)
    got = sort_findings([odd, *findings])
    assert [(f.metric, f.kind, f.axis) for f in got] == [
        ("bleu", "agreement", "smoothing"),
        ("bleu", "agreement", "tokenize"),
        ("bleu", "timeout", ""),
        ("bleu", "invalid-output", ""),
        ("bleu", "weird", "tokenize"),
        ("rouge-l", "agreement", "tokenize"),
    ]


def test_summary_line() -> None:
    line = finding(count=2).summary()
    assert line == ("[agreement] bleu: reference vs sacrebleu: tokenize: none vs 13a "
                    "(2 cases, max delta 0.5; first difference sys_len: 6 vs 7)")
    crash = finding(kind="crash", axis="", values=("", ""), impl_b="", error="ValueError: x",
                    first="")
    assert crash.summary() == ("[crash] bleu: reference: ValueError: x (1 case, max delta "
                               "0.5; first difference -)")
    assert "\n" not in crash.summary()


def test_rouge_example_results_serialise() -> None:
    result = RougeResult(0.5, 0.25, 1 / 3, 1.0, 4.0, 2.0)
    example = Example("c", ("a b",), (("a c",),), result, result)
    assert example.to_json()["result_a"] == {
        "recall": 0.5, "precision": 0.25, "fmeasure": 1 / 3, "matches": 1.0,
        "hyp_total": 4.0, "ref_total": 2.0,
    }

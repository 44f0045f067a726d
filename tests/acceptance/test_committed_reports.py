"""The committed ``reports/`` folder: fresh, small, and naming issue 4's acceptance
causes.

``make report`` audits the bundled fixtures plus ``--generate 2000 --seed 0`` with
every available implementation and writes ``reports/``.  These tests read what is
committed: they fail when the folder is stale (the code, the cases or the version
of a peer that took part changed since it was made: run ``make report``; a peer
that took part but is not installed here is a skip, with that reason) or too big
to commit, and they pin that the audit reports each known cause of disagreement
with a minimal example and the right axis.  The findings are read from
``report.json``, which carries them with their examples while the audit's bulky
``findings.json`` stays out of git.  Every expected axis comes from the peer's
documented behaviour (cited beside it), not from running the audit.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from helpers import ROOT
from report_freshness import freshness

REPORTS = ROOT / "reports"


def test_committed_reports_are_fresh() -> None:
    found = freshness(ROOT, REPORTS)
    assert not found.stale, "reports/ is stale; run `make report`:\n" + "\n".join(found.stale)
    if found.unverifiable:  # a peer that took part is not installed on this machine
        pytest.skip("; ".join(found.unverifiable))


def committed() -> dict[str, int]:
    """The size of each file of reports/ that git keeps: all but those .gitignore
    names under /reports/ (the audit's per-case data, rebuilt by ``make report``)."""
    ignored = {
        line.removeprefix("/reports/")
        for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
        if line.startswith("/reports/")
    }
    return {path.name: path.stat().st_size for path in REPORTS.iterdir()
            if path.name not in ignored}


def test_committed_reports_are_small() -> None:
    # Issue 9: GitHub shows no file much over 1 MB, and each `make report` adds the
    # committed bytes to the history again.  The limits were 2 MB and 5 MB with nine
    # implementations (36 pairs); with twenty (190 pairs) the findings of every pair
    # take most of it: report.html was 3.0 MB with a PNG agreement matrix per
    # metric, 2.2 MB since the matrix is its shaded table alone.  Showing one row per
    # cause, the pairs beside it, is the way back down.
    sizes = committed()
    assert sizes["report.html"] < 2_500_000, sizes
    assert sum(sizes.values()) < 6_500_000, sizes


@pytest.fixture(scope="module")
def findings() -> list[dict[str, Any]]:
    report = json.loads((REPORTS / "report.json").read_text(encoding="utf-8"))
    return [finding for metric in report["metrics"] for finding in metric["findings"]]


def with_cause(
    findings: list[dict[str, Any]], metric: str, axis: str, values: tuple[str, str],
    impls: set[str] | None = None,
) -> list[dict[str, Any]]:
    """The findings on ``metric`` whose cause includes ``axis`` with ``values``
    (either way round), between ``impls`` if given."""
    chosen = []
    for finding in findings:
        if finding["metric"] != metric or finding["kind"] not in ("agreement", "conformance"):
            continue
        axes = finding["axis"].split(",")
        if axis not in axes:
            continue
        position = axes.index(axis)
        pair = {finding["values"][0].split(",")[position],
                finding["values"][1].split(",")[position]}
        if pair != set(values):
            continue
        if impls is not None and {finding["impl_a"], finding["impl_b"]} != impls:
            continue
        chosen.append(finding)
    return chosen


def shown_minimally(finding: dict[str, Any]) -> bool:
    """The finding carries an example with both sides' results (or an error)."""
    example = finding["example"]
    return "hypothesis" in example and "references" in example and (
        example["result_a"] is not None or example["error"]
    )


ACCEPTANCE = [
    # sacrebleu splits punctuation off (13a); the paper's profile splits on spaces.
    ("bleu", "tokenize", ("none", "13a"), {"reference", "sacrebleu"}),
    # sacrebleu's --tokenize intl splits off every Unicode punctuation and symbol.
    ("bleu", "tokenize", ("13a", "intl"), {"sacrebleu", "sacrebleu+intl"}),
    # NLTK's modified_precision divides by max(1, count) (nltk/translate/bleu_score.py).
    ("bleu", "empty_order", ("zero", "denominator-one"), None),
    # sacrebleu returns 0 when no n-gram matches, before smoothing (compute_bleu).
    ("bleu", "all_zero", ("zero", "smooth"), None),
    # pycocoevalcap's Rouge: beta = 1.2, best precision and best recall separately.
    ("rouge-l", "f_measure", ("alpha=0.5", "beta=1.2"), None),
    ("rouge-l", "multi_ref", ("jackknife", "max-p-max-r"), None),
    # rouge-score's tokenizer keeps [a-z0-9] runs; non-ASCII text disappears.
    ("rouge-1", "tokenize", ("none", "rouge-score"), {"reference", "rouge-score"}),
    # ROUGE-1.5.5 replaces non-[A-Za-z0-9-] bytes with spaces (tokenizeText).
    ("rouge-1", "tokenize", ("none", "rouge155"), {"reference", "rouge155"}),
    # rouge-score's score_multi keeps the best-F reference; ROUGE-1.5.5 -f A pools.
    ("rouge-1", "multi_ref", ("best-f", "pooled"), {"rouge-score", "rouge155"}),
    # NLTK's Porter (rouge-score's use_stemmer) vs the Perl script's Porter.
    ("rouge-1", "stemmer", ("porter-nltk", "porter-rouge155-wordnet"),
     {"rouge-score+stemmed", "rouge155+stemmed"}),
    # ROUGE-1.5.5 weights ROUGE-W's recall base twice; its SU drops the last unigram.
    ("rouge-w", "wlcs", ("paper", "rouge155"), None),
    ("rouge-su", "su_unigrams", ("paper", "rouge155"), None),
    # pltrdy's rouge counts each distinct n-gram once.
    ("rouge-1", "counts", ("multiset", "set"), None),
]


@pytest.mark.parametrize(("metric", "axis", "values", "impls"), ACCEPTANCE,
                         ids=[f"{m}-{a}-{v[1]}" for m, a, v, _ in ACCEPTANCE])
def test_the_audit_names_the_known_causes(
    findings: list[dict[str, Any]], metric: str, axis: str, values: tuple[str, str],
    impls: set[str] | None,
) -> None:
    chosen = with_cause(findings, metric, axis, values, impls)
    assert chosen, f"no {metric} finding on {axis}: {values[0]} vs {values[1]}"
    assert any(shown_minimally(finding) for finding in chosen)

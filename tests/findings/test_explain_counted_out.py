"""The explainer's skipping of candidates whose counts already rule them out
(``Reproducer.counted_out``).

A ROUGE candidate that changes an axis after the counts (F, rounding, the
average, empty pairs) has the counts of the candidate without that change; with
one reference per segment, where that one's first difference is a count, the
candidate cannot reproduce, and is not scored.  The oracles: every candidate
the rule skips is scored here and must not reproduce, and has the counts the
rule says it has; and the search gives the same answer with the rule switched
off.
"""

from __future__ import annotations

import attrs
import pytest

from helpers import large_corpus, translation_pairs
from metricdiff.findings import explain as explaining
from metricdiff.findings.explain import Reproducer, changed, explain, single_changes
from metricdiff.impls import get_adapter
from metricdiff.impls.base import Tolerance
from metricdiff.impls.reference.adapter import ReferenceRougeAdapter
from metricdiff.profiles import with_overrides
from metricdiff.profiles.metrics import paper_options
from metricdiff.statistics import RougeResult

TOLERANCE = Tolerance(0.0, 1e-12)


def counts(result: RougeResult | None) -> tuple[float, float, float] | None:
    return None if result is None else (result.matches, result.hyp_total, result.ref_total)


@pytest.mark.parametrize(("metric", "changes"), [
    ("rouge-2", {"tokenize": "whitespace-strict"}),
    ("rouge-l", {"lowercase": "unicode", "f_measure": "beta=1.2"}),
    ("rouge-w", {"stemmer": "porter-nltk", "corpus_average": "micro"}),
])
def test_every_candidate_skipped_would_not_have_reproduced(
    metric: str, changes: dict[str, str]
) -> None:
    # Real German, French and Russian translations, one reference each.
    sample = translation_pairs(step=25)
    declared = paper_options(metric)
    target = get_adapter("reference", metric).corpus_score(
        metric, *sample, with_overrides(declared, changes))
    reproducer = Reproducer(metric, [sample], [target], TOLERANCE)
    assert reproducer.one_reference and not reproducer.together
    singles = single_changes(declared)
    candidates = [(change,) for change in singles] + [
        (a, b) for i, a in enumerate(singles) for b in singles[i + 1:] if a[0] != b[0]]
    skipped = 0
    for found in candidates:
        options = changed(declared, found)
        if options is None or not reproducer.counted_out(declared, found, options):
            continue
        skipped += 1
        assert not reproducer.reproduces(options), found
        # Its counts are those of the candidate without the changes after them.
        kept = [change for change in found if explaining._reaches_counts(declared, change)]
        result = reproducer.score(options, 0)
        if result is not None:
            assert counts(result) == counts(reproducer.score(changed(declared, kept), 0))
    assert skipped > 100  # the rule is not idle on these samples


@pytest.mark.parametrize("changes", [
    {"lowercase": "unicode", "f_measure": "beta=1.2"},  # explained by a pair
    {"tokenize": "whitespace-strict"},
])
def test_a_large_corpus_gets_the_same_explanation_without_the_rule(
    changes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    declared = paper_options("rouge-2")
    sample = large_corpus(ReferenceRougeAdapter.FAST_FROM + 10)
    target = get_adapter("reference", "rouge-2").corpus_score(
        "rouge-2", *sample, with_overrides(declared, changes))
    skipping = explain("rouge-2", declared, [sample], [target], TOLERANCE)
    monkeypatch.setattr(Reproducer, "counted_out", lambda *_: False)
    assert skipping == explain("rouge-2", declared, [sample], [target], TOLERANCE)
    assert skipping.explained


def test_an_unexplained_count_is_found_unexplained_either_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As py-rouge's ROUGE-2 on a whole corpus: a reference total no
    # configuration gives (the reference's own plus one).
    declared = paper_options("rouge-2")
    sample = large_corpus(ReferenceRougeAdapter.FAST_FROM + 10)
    own = get_adapter("reference", "rouge-2").corpus_score("rouge-2", *sample, declared)
    target = attrs.evolve(own, ref_total=own.ref_total + 1)
    asked: list[bool] = []
    counted_out = Reproducer.counted_out
    monkeypatch.setattr(Reproducer, "counted_out", lambda self, *args: asked.append(
        counted_out(self, *args)) or asked[-1])
    skipping = explain("rouge-2", declared, [sample], [target], TOLERANCE)
    assert skipping.axis == "unexplained" and sum(asked) > 100
    monkeypatch.setattr(Reproducer, "counted_out", lambda *_: False)
    assert skipping == explain("rouge-2", declared, [sample], [target], TOLERANCE)


def test_several_references_turn_the_rule_off() -> None:
    # With two references the rule for combining them can pick other counts.
    sample = (["the cat sat on the mat"], [["the cat is on the mat", "a cat sat"]])
    declared = paper_options("rouge-1")
    target = RougeResult(0.5, 0.5, 0.5, 1.0, 2.0, 2.0)
    reproducer = Reproducer("rouge-1", [sample], [target], TOLERANCE)
    found = (("f_measure", "beta=1.2"),)
    options = changed(declared, found)
    assert options is not None and not reproducer.one_reference
    assert not reproducer.counted_out(declared, found, options)

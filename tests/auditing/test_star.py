"""The audit as a star (issue 26): each participant explained once, against the
paper's profile; a pair derived from the two stars, on the reference alone.

The participants are the reference under three profiles -- the paper's, and two
named with settings (``reference[tokenize=13a]``, ``reference[smoothing=exp]``),
each a declared profile -- so that every expected cause follows from the
definitions (spec/bleu.md), worked out by hand:

* c1, ``the cat sat on the mat.`` against ``the cat sat on the mat``: the paper's
  tokens keep ``mat.`` whole (matches 5, 4, 3, 2 of 6, 5, 4, 3), 13a splits the
  full stop off (6, 5, 4, 3 of 7, 6, 5, 4): the BLEUs differ; every order has a
  match, so smoothing changes nothing.
* c2, ``a b c d`` against ``a b c e``: no punctuation, so 13a changes nothing; the
  4-gram has no match, so the paper's BLEU is 0 and exp smoothing's is not.
* the corpus of the two: 13a changes the counts of c1; every order has a match
  in the pooled counts, so smoothing changes nothing.
"""

from __future__ import annotations

import metricdiff.auditing.agreement as agreement_module
from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.metric import audit_metric
from metricdiff.cases import Case
from metricdiff.profiles.metrics import paper_options

TOKENIZED = "reference[tokenize=13a]"
SMOOTHED = "reference[smoothing=exp]"
TEXTS = [("the cat sat on the mat.", "the cat sat on the mat"), ("a b c d", "a b c e")]


def cases() -> list[Case]:
    lines = [Case((hyp,), ((ref,),), id=f"c{i}", origin="user")
             for i, (hyp, ref) in enumerate(TEXTS, 1)]
    whole = Case(tuple(h for h, _ in TEXTS), tuple((r,) for _, r in TEXTS), id="corpus",
                 origin="user")
    return [*lines, whole]


def test_each_participant_is_explained_against_the_paper_once(monkeypatch) -> None:
    searched = []
    real = agreement_module.cause_between

    def spy(metric, left, right, *rest):  # type: ignore[no-untyped-def]
        searched.append((left, right))
        return real(metric, left, right, *rest)

    monkeypatch.setattr(agreement_module, "cause_between", spy)
    audit = audit_metric("bleu", cases(), AuditConfig(["reference", TOKENIZED, SMOOTHED],
                                                      workers=1, minimise=False))
    # every cause searched in the audit starts from the paper's profile: no pair
    # of the two participants is searched (their pair is derived, below)
    assert searched and {left for left, _ in searched} == {paper_options("bleu")}
    found = {(f.kind, f.impl_a, f.impl_b, f.axis, f.values, f.cases) for f in audit.findings}
    assert found == {
        ("departure", "reference", TOKENIZED, "tokenize", ("none", "13a"), ("c1", "corpus")),
        ("departure", "reference", SMOOTHED, "smoothing", ("none", "exp"), ("c2",)),
    }


def test_a_pair_is_derived_from_the_two_stars() -> None:
    audit = audit_metric("bleu", cases(), AuditConfig(["reference", TOKENIZED, SMOOTHED],
                                                      workers=1, minimise=False,
                                                      pairs=((TOKENIZED, SMOOTHED),)))
    [pair] = audit.pairs  # asked for (and the largest gap, which it is: once)
    assert (pair.impl_a, pair.impl_b, pair.why) == (TOKENIZED, SMOOTHED, "asked")
    # they differ on all three cases, each predicted by the two profiles: c1 and
    # the corpus by the tokenizer, c2 by the smoothing
    assert (pair.compared, pair.differing, pair.predicted, pair.unpredicted) == (3, 3, 3, {})
    assert [(c.axis, c.values, c.count) for c in pair.causes] == [
        ("tokenize", ("13a", "none"), 2), ("smoothing", ("none", "exp"), 1)]
    # each shown on an example no bigger than its case, the reference under the
    # two profiles giving different BLEUs there
    for cause in pair.causes:
        assert cause.example.result_a is not None and cause.example.result_b is not None
        assert cause.example.result_a.score != cause.example.result_b.score

"""``sensitivity`` on a corpus whose effects can be counted by hand.

One segment, hypothesis "The cat sat" against the reference "the cat sat on the
mat" (ROUGE-1, F, the paper's profile otherwise: whitespace tokens, case kept).
As written, "cat" and "sat" match: R = 2/6, P = 2/3, F = 2 x (2/6)(2/3) / (2/6 +
2/3) = 4/9.  ``lowercase=unicode`` makes "The" match "the" too: R = 3/6, P = 3/3,
F = 2/3, an effect of 2/3 - 4/9 = 2/9 (x 100 = 22.22 points); ``report=recall``
quotes R = 1/3 instead of F: −1/9 (−11.11 points); both together give R = 1/2:
−4/9 + ... the joint effect 1/2 − 4/9 = +1/18, against a sum of 2/9 − 1/9 = 1/9,
an interaction of 1/18 − 2/18 = −1/18 (−5.56 points)."""

from __future__ import annotations

import pytest

from metricdiff.conclusions.sensitivity import sensitivity_of


def test_single_effects_and_their_interaction_are_the_hand_counts():
    sample = (("The cat sat",), (("the cat sat on the mat",),))
    found = sensitivity_of(sample, "rouge-1")
    assert found.paper_score == pytest.approx(100 * 4 / 9)
    effects = {(e.axis, e.value): e.effect for e in found.effects}
    assert effects[("lowercase", "unicode, ascii")] == pytest.approx(100 * 2 / 9)
    assert effects[("report", "recall")] == pytest.approx(-100 / 9)
    pair = next(i for i in found.interactions
                if {i.first[0], i.second[0]} == {"lowercase", "report"}
                and "recall" in (i.first[1], i.second[1]))
    assert pair.joint == pytest.approx(100 / 18)
    assert pair.interaction == pytest.approx(-100 / 18)
    # the rows are sorted by size, and an axis that moves nothing is said so
    sizes = [abs(e.effect) for e in found.effects]
    assert sizes == sorted(sizes, reverse=True)
    assert "multi_ref" in found.unmoved  # one reference: no rule can change it
    assert found.to_dict()["paper_score"] == found.paper_score

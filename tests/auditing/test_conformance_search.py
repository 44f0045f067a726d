"""``auditing.conformance``: how hard the explainer looks for each participant.

jury's ROUGE corpus score is a bootstrap median whose resamples differ from run
to run (docs/peers.md, jury; its adapter declares ``reproducible=False``); every
other built-in peer's score is a function of its input."""

from __future__ import annotations

from metricdiff.auditing.conformance import _changes_at_most
from metricdiff.cases import Case
from metricdiff.findings.witness import Participant
from metricdiff.impls.base import Tolerance
from metricdiff.profiles.metrics import paper_options

ONE = Case(("a b c",), (("a b d",),), id="one")
TWO = Case(("a b c", "d e"), (("a b d",), ("d f",)), id="two")


def person(impl: str) -> Participant:
    """``impl`` under its declared profile (the profile itself plays no part
    here: only what its adapter declares, installed or not)."""
    return Participant(impl, "declared", "rouge-1", paper_options("rouge-1"), Tolerance(), "")


def test_an_unrepeatable_score_on_several_segments_is_searched_one_change_away() -> None:
    assert _changes_at_most("rouge-1", person("jury"), TWO) == 1


def test_one_segment_or_a_repeatable_score_is_searched_two_changes_away() -> None:
    assert _changes_at_most("rouge-1", person("jury"), ONE) == 2
    assert _changes_at_most("rouge-1", person("rouge-score"), TWO) == 2

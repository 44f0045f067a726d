"""Scoring one metric's audit (``auditing/scores.py``): the reference is run once
under each profile, however many participants share it (issue 26: the cost of
the reference as every participant)."""

from __future__ import annotations

import pytest

import metricdiff.auditing.scores as scores_module
from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.participants import participants
from metricdiff.auditing.scores import score_everything
from metricdiff.cases import Case

SAME = "sacrebleu[tokenize=13a]"  # sacrebleu named with the setting it has anyway


def test_participants_with_one_profile_share_one_run_of_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    people, _ = participants("bleu", ["reference", "sacrebleu", SAME])
    assert [p.options for p in people if p.name == "sacrebleu"] == \
        [p.options for p in people if p.name == SAME]  # the premise: one profile
    sent = []
    real = scores_module.run_jobs

    def spy(jobs, **settings):  # type: ignore[no-untyped-def]
        sent.extend((job.impl, job.label) for job in jobs)
        return real(jobs, **settings)

    monkeypatch.setattr(scores_module, "run_jobs", spy)
    hyp, ref = "the cat sat on the mat.", "the cat sat on the mat"
    case = Case((hyp,), ((ref,),), id="c1", origin="user")
    scores = score_everything("bleu", [case], people,
                              AuditConfig(["reference", "sacrebleu", SAME], workers=1))
    # One run of the reference as sacrebleu's profile, none more for SAME's; the
    # paper's profile is the reference participant's own run.
    assert sorted(label for impl, label in sent if impl == "reference") == [
        "reference", "reference-as-sacrebleu", "reference-as-sacrebleu+intl"]
    # Both get its outcome, which is sacrebleu's own BLEU on the pair (the peer
    # library computes the expected number: 13a splits the full stop off).
    expected = sacrebleu.sentence_bleu(hyp, [ref]).score
    for name in ("sacrebleu", SAME):
        result = scores.reference[name][0].result
        assert result is not None
        assert result.score == pytest.approx(expected, rel=1e-12)

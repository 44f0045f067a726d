"""Gaps as compare prints them (``metricdiff.comparison.gaps``, ``render``): the
numbers in every expected string are the ones built into the gap by hand."""

from __future__ import annotations

import pytest

from metricdiff.comparison.attribution import Attribution, Contribution
from metricdiff.comparison.gaps import Comparison, CorpusScore, Gap, MetricComparison, signed
from metricdiff.comparison.render import largest_part, render


def gap(residual_shift: float = 0.0, method: str = "exact") -> Gap:
    # ref(A) = 30, ref(B) = 26 (tokenize −3, smoothing −1); A scored 30, B 26 + shift,
    # so the residual is exactly the shift.
    attribution = Attribution(30.0, 26.0, (
        Contribution("tokenize", "13a", "none", -3.0),
        Contribution("smoothing", "exp", "float-min", -1.0),
    ), method, 0.5 if method == "sampled" else 0.0)
    return Gap("sacrebleu", "nltk", 30.0, 26.0 + residual_shift, attribution)


@pytest.mark.parametrize(("value", "text"), [
    (4.75, "+4.75"), (-4.75, "−4.75"), (-1e-15, "0.00"), (0.004, "0.00"), (-0.006, "−0.01")])
def test_signed_never_prints_minus_zero(value, text):
    assert signed(value) == text


def test_sentence_lists_every_axis_and_the_residual():
    assert gap(0.5).sentence() == (
        "sacrebleu 30.00 vs nltk 26.50 (−3.50): tokenize 13a→none −3.00, "
        "smoothing exp→float-min −1.00, residual +0.50")
    assert gap(0.5).to_dict()["contributions"] == {"tokenize": -3.0, "smoothing": -1.0}
    assert gap(0.5, "sampled").sentence().endswith(
        "residual +0.50 (sampled: each contribution within ±0.50 with 95% probability)")


def test_a_gap_seen_from_the_other_side_flips_every_sign():
    metric = MetricComparison("bleu", (CorpusScore("sacrebleu", "", 30.0),
                                       CorpusScore("nltk", "", 26.5)), (gap(0.5),))
    back = metric.gap("nltk", "sacrebleu")
    assert back.sentence() == (
        "nltk 26.50 vs sacrebleu 30.00 (+3.50): tokenize none→13a +3.00, "
        "smoothing float-min→exp +1.00, residual −0.50")
    with pytest.raises(KeyError, match="'torch' took no part in bleu"):
        metric.score("torch")


def test_largest_part_may_be_the_residual():
    assert largest_part(gap(0.5)) == "tokenize −3.00"
    assert largest_part(gap(5.0)) == "residual +5.00"


def test_the_table_shows_who_could_not_score():
    metric = MetricComparison("bleu", (CorpusScore("reference", "", 30.0),
                                       CorpusScore("nltk", "", None, "crash: boom")), ())
    text = render(Comparison((metric,)))
    assert "nltk could not score: crash: boom" in text
    assert [line.split()[:2] for line in text.splitlines()[3:5]] == [
        ["reference", "30.00"], ["nltk", "—"]]

"""The BLEU peers' known departures, each a value of an axis: the reference under
that value reproduces the peer's own output (the peer called directly), on an
example worked out by hand.

* NLTK: ``empty_bp=zero`` (BLEU-BP), BP = 0 for an empty hypothesis even
  against empty references;
* pycocoevalcap: ``smoothing=epsilon`` adds its constants to c and r as well
  (BLEU-SMOOTH-EPSILON), so an empty pair is not empty;
* sacrebleu ``tokenize=intl``: ``entities=keep`` (BLEU-TOK-INTL), ``&amp;``
  is tokenized as written.
"""

from __future__ import annotations

import math

import pytest

from metricdiff.impls import get_adapter
from metricdiff.impls.reference.bleu import corpus_bleu
from metricdiff.profiles import BleuOptions, with_overrides
from metricdiff.statistics import BleuResult


def _reference(adapter_name: str, hyps: list[str], refs: list[list[str]],
               overrides: dict[str, str] | None = None) -> BleuResult:
    """The reference under the peer's declared profile (with ``overrides``)."""
    adapter = get_adapter(adapter_name, "bleu")
    options = adapter.options("bleu", overrides or {})
    return corpus_bleu(hyps, refs, options)


def test_nltk_empty_pair_has_bp_zero() -> None:
    bleu_score = pytest.importorskip("nltk.translate.bleu_score")
    # By hand: c = 0 and r = 0.  NLTK's brevity_penalty tests `c > r` (false),
    # then `c == 0` and returns 0; the paper's c >= r would give 1.
    assert bleu_score.brevity_penalty(0, 0) == 0
    result = _reference("nltk", [""], [[""]])
    assert result.bp == 0.0
    assert result.score == 0.0  # corpus_bleu returns 0 before BP
    paper = corpus_bleu([""], [[""]], BleuOptions())
    assert paper.bp == 1.0  # empty_bp=one, the reference's reading


def test_pycocoevalcap_empty_pair_is_smoothed() -> None:
    bleu_scorer = pytest.importorskip("pycocoevalcap.bleu.bleu_scorer")
    scorer = bleu_scorer.BleuScorer(n=4)
    scorer += ("", [""])
    score, _ = scorer.compute_score(option="closest", verbose=0)
    # By hand: every order has 0 matches of 0 n-grams, so each precision is
    # (0 + 1e-15) / (0 + 1e-9) = 1e-6; ratio = (0 + 1e-15) / (0 + 1e-9) < 1,
    # so BP = exp(1 - 1e6), which is 0.0 in floating point: the score is 0.
    assert score[3] == 0.0
    result = _reference("pycocoevalcap", [""], [[""]])
    assert result.precisions == pytest.approx((1e-4,) * 4, rel=1e-12)
    assert result.bp == 0.0
    assert result.score == 0.0


def test_sacrebleu_intl_keeps_entities() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    hyp, ref = "R&amp;D spending", "R & D spending"
    # By hand, with '&amp;' kept: the hypothesis is R & amp ; D spending (c = 6),
    # the reference R & D spending (r = 4, so BP = 1).  Matches: unigrams 4/6
    # (R & D spending), bigrams 2/5 ("R &", "D spending"), trigrams 0/4 and
    # 4-grams 0/3, which exp smoothing makes 1/(2*4) and 1/(4*3).
    expected = 100 * math.exp((math.log(4 / 6) + math.log(2 / 5) + math.log(1 / 8)
                               + math.log(1 / 12)) / 4)
    peer = sacrebleu.corpus_bleu([hyp], [[ref]], tokenize="intl").score
    assert peer == pytest.approx(expected, rel=1e-12)
    kept = _reference("sacrebleu", [hyp], [[ref]], {"tokenize": "intl"})
    assert kept.score == pytest.approx(expected, rel=1e-12)
    # mteval-v14 decodes it: R & D spending against itself, 100.
    decoded = corpus_bleu([hyp], [[ref]], with_overrides(
        get_adapter("sacrebleu", "bleu").default_options("bleu"), {"tokenize": "intl"}))
    assert decoded.score == pytest.approx(100.0)


def test_sacrebleu_entities_follow_its_tokenizer() -> None:
    adapter = get_adapter("sacrebleu", "bleu")
    # sacrebleu's 13a decodes entities, its intl does not (tokenizer_intl.py).
    assert adapter.options("bleu").entities == "decode"
    assert adapter.options("bleu", {"tokenize": "intl"}).entities == "keep"
    from metricdiff.errors import UnsupportedOption

    with pytest.raises(UnsupportedOption, match="entities=decode"):
        adapter.options("bleu", {"tokenize": "intl", "entities": "decode"})

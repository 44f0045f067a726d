"""The torchmetrics adapters (ROUGEScore, BLEUScore, SacreBLEUScore, behind the
``torch`` extra) against direct calls of the library; they skip without torch.

Expected values come from the package's own documented examples (their
docstrings, cited) or from calling the library directly here; never from the
adapters' output.
"""

from __future__ import annotations

import importlib

import pytest

from bleu_peer_data import DOC_HYP, DOC_REFS, HYPS, REFS, score
from bleu_peer_data import TOKENIZED_CHINESE as CHINESE
from metricdiff.impls import get_adapter
from rouge_peer_data import CORPORA, assert_rpf, rs_key, segments

# --------------------------------------------------------------------------
# torchmetrics


@pytest.fixture(scope="module")
def tm_rouge():
    pytest.importorskip("torch", reason="torchmetrics needs torch: pip install 'metricdiff[torch]'")
    return pytest.importorskip("torchmetrics.functional.text.rouge")


def test_torchmetrics_unavailable_without_torch():
    adapter = get_adapter("torchmetrics", "rouge-1")
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("torch is installed")
    assert "pip install 'metricdiff[torch]'" in adapter.unavailable_reason()


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("metric", ["rouge-1", "rouge-2", "rouge-l"])
@pytest.mark.parametrize(("accumulate", "stem"), [("best", False), ("avg", True)])
def test_torchmetrics_matches_rouge_score(tm_rouge, corpus, metric, accumulate, stem):
    adapter = get_adapter("torchmetrics", metric)
    overrides = {"multi_ref": "best-f" if accumulate == "best" else "mean"}
    if stem:
        overrides["stemmer"] = "porter-nltk"
    options = adapter.options(metric, overrides)
    hyps = [hyp for hyp, _ in segments(CORPORA[corpus])]
    refs = [seg for _, seg in segments(CORPORA[corpus])]
    key = rs_key(metric)
    expected = tm_rouge.rouge_score(hyps, refs, accumulate=accumulate, use_stemmer=stem,
                                    rouge_keys=(key,))
    result = adapter.corpus_score(metric, *CORPORA[corpus], options)
    assert_rpf(result, expected[f"{key}_recall"].item(), expected[f"{key}_precision"].item(),
               expected[f"{key}_fmeasure"].item())


# --------------------------------------------------------------------------
# BLEU


@pytest.fixture(scope="module")
def torchmetrics_text():
    pytest.importorskip("torch")
    return pytest.importorskip("torchmetrics.text")


def test_torchmetrics_bleu_documented_example(torchmetrics_text):
    # torchmetrics.functional.text.bleu_score's docstring: tensor(0.7598); and
    # SacreBLEUScore's docstring gives the same tensor(0.7598) for these texts.
    assert score("torchmetrics", "bleu", DOC_HYP, DOC_REFS).score == pytest.approx(75.98, abs=5e-3)
    assert score("torchmetrics[tokenize=13a]", "bleu", DOC_HYP, DOC_REFS).score == pytest.approx(
        75.98, abs=5e-3)


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char"])
@pytest.mark.parametrize("lowercase", ["none", "unicode"])
def test_torchmetrics_bleu_equals_the_library(torchmetrics_text, tokenize, lowercase):
    metric = torchmetrics_text.SacreBLEUScore(tokenize=tokenize, lowercase=lowercase == "unicode")
    for hyps, refs in ((HYPS, REFS), CHINESE):
        metric.reset()
        metric.update(hyps, refs)
        expected = 100 * metric.compute().item()
        got = score(f"torchmetrics[tokenize={tokenize},lowercase={lowercase}]", "bleu", hyps, refs)
        assert got.score == pytest.approx(expected, rel=1e-12)
        assert got.counts == tuple(metric.numerator.tolist())


def test_torchmetrics_bleu_ties_go_to_the_first_reference(torchmetrics_text):
    # Hypothesis of 3 tokens, references of 2 and 4 tokens: torchmetrics takes
    # the first equally close one (len 4), so r = 4 and BP = exp(1 - 4/3).
    result = score("torchmetrics", "bleu", ["a b c"], [["x y z w", "a b"]])
    assert result.ref_len == 4.0


def test_torchmetrics_bleu_empty_hypothesis_is_zero(torchmetrics_text):
    assert score("torchmetrics", "bleu", [""], [["a b c"]]).score == 0.0

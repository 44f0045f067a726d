"""The torchmetrics adapters against direct calls of the library; they skip
without torch.

Every expected value comes from calling the library itself, never from the
adapter's own output.
"""

from __future__ import annotations

import importlib

import pytest

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

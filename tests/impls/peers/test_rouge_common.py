"""What the ROUGE peers share (``impls/peers/_rouge_common.py``): they are
registered, their refusals are one line, and a sentence splitter that needs
NLTK's punkt model is refused rather than downloaded.  (That their declared
profiles validate is checked for every adapter by ``metricdiff.testing``:
tests/test_testing.py.)"""

from __future__ import annotations

import pytest

from metricdiff.impls import UnsupportedOption, adapter_names, families_of, get_adapter
from metricdiff.impls.peers._rouge_common import punkt_available

# --------------------------------------------------------------------------
# registry and shared behaviour

ROUGE_ADAPTERS = ["rouge-score", "pycocoevalcap", "rouge-metric-py", "rouge-pltrdy", "py-rouge",
                  "torchmetrics"]


def test_adapters_are_registered():
    assert set(ROUGE_ADAPTERS) <= set(adapter_names())
    assert families_of("pycocoevalcap") == ["bleu", "rouge"]
    assert type(get_adapter("pycocoevalcap", "rouge-l")).__name__ == "PycocoevalcapRougeAdapter"
    assert type(get_adapter("pycocoevalcap", "bleu")).__name__ == "PycocoevalcapBleuAdapter"


def test_impls_lists_a_rouge_l_only_peer():
    # `metricdiff impls` asks every ROUGE peer for rouge-1's profile
    adapter = get_adapter("pycocoevalcap", "rouge-1")
    assert adapter.default_options("rouge-1") == adapter.default_options("rouge-l")
    with pytest.raises(UnsupportedOption, match="does not implement 'rouge-1'"):
        adapter.options("rouge-1")


REFUSALS = [
    ("rouge-score", "rouge-1", {"multi_ref": "mean"}),
    ("rouge-score", "rouge-1", {"f_measure": "alpha=0.8"}),
    ("rouge-score", "rouge-1", {"corpus_average": "bootstrap-mean"}),
    ("rouge-score", "rouge-1", {"counts": "set"}),
    ("rouge-score", "rouge-lsum", {"sentence_split": "period"}),
    ("rouge-score", "rouge-1", {"truncate": "words:5"}),
    ("pycocoevalcap", "rouge-l", {"multi_ref": "best-f"}),
    ("pycocoevalcap", "rouge-l", {"f_measure": "alpha=0.5"}),
    ("pycocoevalcap", "rouge-l", {"corpus_average": "micro"}),
    ("rouge-metric-py", "rouge-1", {"multi_ref": "best-f"}),
    ("rouge-metric-py", "rouge-1", {"f_measure": "beta=1.2"}),
    ("rouge-metric-py", "rouge-1", {"corpus_average": "micro"}),
    ("rouge-metric-py", "rouge-su", {"su_unigrams": "paper"}),
    ("rouge-metric-py", "rouge-w", {"wlcs": "paper"}),
    ("rouge-pltrdy", "rouge-1", {"tokenize": "13a"}),
    ("rouge-pltrdy", "rouge-1", {"stemmer": "porter-nltk"}),
    ("rouge-pltrdy", "rouge-1", {"multi_ref": "mean"}),
    ("rouge-pltrdy", "rouge-l", {"sentence_split": "newline"}),
    ("rouge-pltrdy", "rouge-1", {"lowercase": "unicode", "lowercase_stage": "after-tokenize"}),
    ("py-rouge", "rouge-1", {"stemmer": "porter-nltk"}),
    ("py-rouge", "rouge-1", {"tokenize": "none"}),
    ("py-rouge", "rouge-1", {"multi_ref": "best-f"}),
    ("py-rouge", "rouge-1", {"truncate_side": "hypothesis"}),
    ("py-rouge", "rouge-l", {"sentence_split": "punkt"}),
    ("torchmetrics", "rouge-1", {"multi_ref": "pooled"}),
    ("torchmetrics", "rouge-1", {"corpus_average": "bootstrap-median"}),
    ("torchmetrics", "rouge-lsum", {"sentence_split": "newline"}),
]


@pytest.mark.parametrize(("name", "metric", "overrides"), REFUSALS)
def test_refusals_are_one_line(name, metric, overrides):
    with pytest.raises(UnsupportedOption) as caught:
        get_adapter(name, metric).options(metric, overrides)
    message = str(caught.value)
    assert name in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("name", "metric"),
    [("rouge-score", "rouge-lsum"), ("rouge-metric-py", "rouge-1"), ("torchmetrics", "rouge-lsum")],
)
def test_punkt_is_refused_not_downloaded(name, metric):
    if punkt_available():
        pytest.skip("NLTK's punkt model is installed here")
    overrides = {} if name == "torchmetrics" else {"sentence_split": "punkt"}
    with pytest.raises(UnsupportedOption, match="punkt") as caught:
        get_adapter(name, metric).options(metric, overrides)
    assert "\n" not in str(caught.value)

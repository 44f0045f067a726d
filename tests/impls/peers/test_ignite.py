"""pytorch-ignite's Bleu and Rouge (``ignite.metrics.nlp``, behind the ``torch``
extra) against direct calls of the library; without torch these tests skip.

Expected values come from the package's own documented examples (their
docstrings, cited) or from calling the library directly here; never from the
adapters' output.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
ignite_nlp = pytest.importorskip("ignite.metrics.nlp")

from bleu_peer_data import DOC_HYP, DOC_REFS, HYPS, REFS, score  # noqa: E402
from bleu_peer_data import TOKENIZED_CHINESE as CHINESE  # noqa: E402


def _ignite_bleu(hyps, refs, average):
    bleu = ignite_nlp.Bleu(ngram=4, average=average)
    bleu.update(([h.split() for h in hyps], [[r.split() for r in seg] for seg in refs]))
    return 100 * float(bleu.compute())


@pytest.mark.parametrize("level, average", [("sentence-mean", "macro"), ("corpus", "micro")])
def test_ignite_bleu_equals_the_library(level, average):
    for hyps, refs in ((HYPS, REFS), CHINESE, (DOC_HYP, DOC_REFS)):
        expected = _ignite_bleu(hyps, refs, average)
        assert score(f"ignite[level={level}]", "bleu", hyps, refs).score == expected


def test_ignite_bleu_edge_cases():
    # An empty hypothesis has no unigram match: ignite returns 0 (its source).
    assert score("ignite", "bleu", [""], [["a b"]]).score == 0.0
    assert score("ignite", "bleu", ["a b"], [[""]]).score == 0.0


def test_ignite_rouge_documented_examples():
    # ignite's RougeN / RougeL docstrings, multiref="best" on these texts:
    # {'Rouge-2-P': 0.5, 'Rouge-2-R': 0.4, 'Rouge-2-F': 0.4} and
    # {'Rouge-L-P': 0.6, 'Rouge-L-R': 0.5, 'Rouge-L-F': 0.5}.
    hyp = ["the cat is not there"]
    refs = [["the cat is on the mat", "there is a cat on the mat"]]
    two = score("ignite[multi_ref=best-recall]", "rouge-2", hyp, refs)
    assert (two.precision, two.recall, two.fmeasure) == (0.5, 0.4, 0.4)
    lcs = score("ignite[multi_ref=best-recall]", "rouge-l", hyp, refs)
    assert (lcs.precision, lcs.recall, lcs.fmeasure) == (0.6, 0.5, 0.5)


@pytest.mark.parametrize("metric", ["rouge-1", "rouge-2", "rouge-l"])
@pytest.mark.parametrize("multiref", ["average", "best"])
def test_ignite_rouge_equals_the_library(metric, multiref):
    spec = "ignite" + ("[multi_ref=best-recall]" if multiref == "best" else "")
    for hyps, refs in ((HYPS, REFS), CHINESE, (["a b", ""], [["a b c", "b"], [""]])):
        rouge = (ignite_nlp.RougeL(multiref=multiref) if metric == "rouge-l"
                 else ignite_nlp.RougeN(ngram=int(metric[-1]), multiref=multiref))
        if multiref == "best" and any(not h for h in hyps):
            continue
        rouge.update(([h.split() for h in hyps], [[r.split() for r in seg] for seg in refs]))
        expected = rouge.compute()
        got = score(spec, metric, hyps, refs)
        key = "Rouge-L" if metric == "rouge-l" else f"Rouge-{metric[-1]}"
        assert (got.recall, got.precision, got.fmeasure) == (
            expected[f"{key}-R"], expected[f"{key}-P"], expected[f"{key}-F"])

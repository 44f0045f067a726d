"""torchmetrics' BLEUScore / SacreBLEUScore and pytorch-ignite's Bleu / Rouge
(behind the ``torch`` extra) against direct calls of the libraries.

Expected values come from the packages' own documented examples (their
docstrings, cited) or from calling the libraries directly here; never from the
adapters' output.  Without torch these tests skip.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
torchmetrics_text = pytest.importorskip("torchmetrics.text")
ignite_nlp = pytest.importorskip("ignite.metrics.nlp")

from helpers import ROOT  # noqa: E402
from metricdiff.impls import resolve  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "translations"
# German, French and Russian verses (benchmarks/data/translations/README.md).
HYPS = (DATA / "hyp.txt").read_text(encoding="utf-8").splitlines()[::3]
REFS = [[r] for r in (DATA / "ref.txt").read_text(encoding="utf-8").splitlines()[::3]]
CHINESE = (["猫 坐 在 垫子 上", "今天 天气 很 好"], [["猫 在 垫子 上"], ["今天 的 天气 很 好"]])
DOC_HYP = ["the cat is on the mat"]
DOC_REFS = [["there is a cat on the mat", "a cat is on the mat"]]


def score(spec, metric, hyps, refs):
    adapter = resolve(spec, metric)
    return adapter.corpus_score(metric, hyps, refs, adapter.options(metric))


def test_torchmetrics_bleu_documented_example():
    # torchmetrics.functional.text.bleu_score's docstring: tensor(0.7598); and
    # SacreBLEUScore's docstring gives the same tensor(0.7598) for these texts.
    assert score("torchmetrics", "bleu", DOC_HYP, DOC_REFS).score == pytest.approx(75.98, abs=5e-3)
    assert score("torchmetrics[tokenize=13a]", "bleu", DOC_HYP, DOC_REFS).score == pytest.approx(
        75.98, abs=5e-3)


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char"])
@pytest.mark.parametrize("lowercase", ["none", "unicode"])
def test_torchmetrics_bleu_equals_the_library(tokenize, lowercase):
    metric = torchmetrics_text.SacreBLEUScore(tokenize=tokenize, lowercase=lowercase == "unicode")
    for hyps, refs in ((HYPS, REFS), CHINESE):
        metric.reset()
        metric.update(hyps, refs)
        expected = 100 * metric.compute().item()
        got = score(f"torchmetrics[tokenize={tokenize},lowercase={lowercase}]", "bleu", hyps, refs)
        assert got.score == pytest.approx(expected, rel=1e-12)
        assert got.counts == tuple(metric.numerator.tolist())


def test_torchmetrics_bleu_ties_go_to_the_first_reference():
    # Hypothesis of 3 tokens, references of 2 and 4 tokens: torchmetrics takes
    # the first equally close one (len 4), so r = 4 and BP = exp(1 - 4/3).
    result = score("torchmetrics", "bleu", ["a b c"], [["x y z w", "a b"]])
    assert result.ref_len == 4.0


def test_torchmetrics_bleu_empty_hypothesis_is_zero():
    assert score("torchmetrics", "bleu", [""], [["a b c"]]).score == 0.0


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

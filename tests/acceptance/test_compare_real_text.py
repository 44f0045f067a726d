"""``metricdiff compare`` on real independent translations
(``benchmarks/data/translations``: German, French and Russian, two published
translations of the same verses each; see its README).

What must hold there (issue 10): every reported gap is its contributions plus
its residual; sacrebleu's score is ``sacrebleu.corpus_bleu`` called directly;
sacrebleu vs NLTK is mainly ``tokenize``; the paper's profile vs
pycocoevalcap on ROUGE-L mainly ``f_measure`` (β = 1.2); pycocoevalcap vs
rouge-score on ROUGE-L mainly ``tokenize``, with ``f_measure`` a small part.
Each of these scores the corpus with every available implementation, which
takes tens of seconds: they are marked ``slow``."""

from __future__ import annotations

import math

import pytest

from helpers import ROOT
from metricdiff.cases.files import read_corpus
from metricdiff.comparison.corpus import compare_corpus
from metricdiff.comparison.gaps import Comparison, Gap

DATA = ROOT / "benchmarks" / "data" / "translations"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def corpus():
    return read_corpus(str(DATA / "hyp.txt"), [str(DATA / "ref.txt")])


@pytest.fixture(scope="module")
def compared(corpus) -> Comparison:
    pytest.importorskip("sacrebleu")
    pytest.importorskip("nltk")
    pytest.importorskip("pycocoevalcap")
    pytest.importorskip("rouge_score")
    return compare_corpus({"bleu": (corpus.hyps, corpus.refs),
                           "rouge-l": (corpus.hyps, corpus.refs)},
                          ["sacrebleu", "nltk", "pycocoevalcap", "rouge-score"])


def test_the_corpus_is_what_its_readme_says(corpus):
    # 106 German (Genesis 1-4), 92 French (Matthew 13:38-15:35), 134 Russian
    # (Genesis 1:1-5:28) verse pairs.
    assert len(corpus.hyps) == 332 and all(len(refs) == 1 for refs in corpus.refs)


def test_every_gap_is_its_contributions_plus_its_residual(compared):
    gaps = [gap for metric in compared.metrics for gap in metric.gaps]
    # Every pair of the 4 BLEU participants (reference, sacrebleu, nltk,
    # pycocoevalcap) and of the 3 ROUGE-L ones (reference, pycocoevalcap, rouge-score).
    assert len(gaps) == 6 + 3
    for gap in gaps:
        assert gap.residual is not None, gap.error
        total = math.fsum([*gap.contributions.values(), gap.residual])
        assert total == pytest.approx(gap.delta, abs=1e-9), gap.sentence()


def test_sacrebleu_is_sacrebleu(compared, corpus):
    import sacrebleu

    direct = sacrebleu.corpus_bleu(list(corpus.hyps), [[refs[0] for refs in corpus.refs]])
    assert compared["bleu"].score("sacrebleu").score == pytest.approx(direct.score, abs=1e-9)


def mainly(gap: Gap, axis: str) -> float:
    """The share of the gap ``axis`` accounts for, after checking it is the
    largest part (residual included)."""
    parts = {**gap.contributions, "residual": gap.residual or 0.0}
    assert max(parts, key=lambda name: abs(parts[name])) == axis, gap.sentence()
    return parts[axis] / gap.delta


def test_sacrebleu_vs_nltk_is_tokenization(compared):
    gap = compared["bleu"].gap("sacrebleu", "nltk")
    assert mainly(gap, "tokenize") > 0.9, gap.sentence()


def test_paper_vs_pycocoevalcap_on_rouge_l_is_the_f_measure(compared):
    gap = compared["rouge-l"].gap("reference", "pycocoevalcap")
    assert mainly(gap, "f_measure") > 0.5, gap.sentence()


def test_pycocoevalcap_vs_rouge_score_is_tokenization_then_a_little_f(compared):
    gap = compared["rouge-l"].gap("pycocoevalcap", "rouge-score")
    assert mainly(gap, "tokenize") > 0.9, gap.sentence()
    f_part = gap.contributions["f_measure"]
    assert f_part != 0.0 and abs(f_part) < 0.1 * abs(gap.delta), gap.sentence()

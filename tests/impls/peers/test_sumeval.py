"""sumeval's ROUGE and BLEU against direct calls to ``RougeCalculator`` and
``BLEUCalculator`` (the latter on the sacrebleu 1.5.1 of its own folder)."""

from __future__ import annotations

import importlib

import pytest

from helpers import require_impl, translation_pairs

METRICS = ["rouge-1", "rouge-2", "rouge-4", "rouge-l"]


@pytest.fixture(scope="module")
def calculator_class():
    return pytest.importorskip("sumeval.metrics.rouge").RougeCalculator


def direct(calculator, metric: str, hyp: str, refs: list[str]) -> float:
    """The library's own F for one segment."""
    if metric == "rouge-l":
        return float(calculator.rouge_l(hyp, refs))
    return float(calculator.rouge_n(hyp, refs, int(metric.removeprefix("rouge-"))))


def test_readme_command_line_example(calculator_class):
    # sumeval's README: `sumeval r-nlb "I'm living New York its my home town so
    # awesome" "My home town is awesome"` prints ROUGE-1 0.7499999999999999,
    # ROUGE-2 0.6666666666666666, ROUGE-L 0.7499999999999999.
    hyp, ref = "I'm living New York its my home town so awesome", "My home town is awesome"
    documented = {"rouge-1": 0.7499999999999999, "rouge-2": 0.6666666666666666,
                  "rouge-l": 0.7499999999999999}
    for metric, expected in documented.items():
        adapter = require_impl("sumeval", metric)
        got = adapter.corpus_score(metric, [hyp], [[ref]], adapter.options(metric))
        assert got.fmeasure == expected
    # By hand: without the SMART stopwords, 'living new york home town awesome' vs
    # 'home town awesome': R = 3/3, P = 3/6 (I'm -> 'i' 'm' are stopwords too).
    got = adapter.corpus_score("rouge-1", [hyp], [[ref]], adapter.options("rouge-1"))
    assert (got.recall, got.matches, got.ref_total) == (1.0, 3, 3)


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("stopwords", ["smart", "none"])
def test_real_text_matches_the_library(calculator_class, metric, stopwords):
    adapter = require_impl("sumeval", metric)
    options = adapter.options(metric, {"stopwords": stopwords})
    calculator = calculator_class(stopwords=stopwords == "smart", lang="en")
    hyps, refs = translation_pairs()
    got = adapter.sentence_scores(metric, hyps, refs, options)
    assert [r.fmeasure for r in got] == [
        direct(calculator, metric, hyp, [seg[0]]) for hyp, seg in zip(hyps, refs, strict=True)]
    corpus = adapter.corpus_score(metric, hyps, refs, options)
    assert corpus.fmeasure == pytest.approx(sum(r.fmeasure for r in got) / len(got), rel=1e-12)


def test_readme_library_example_with_two_references(calculator_class):
    # sumeval's README scores this summary against two references (no printed value):
    # the adapter must give what the library gives, and pool the references.
    adapter = require_impl("sumeval", "rouge-2")
    calculator = calculator_class(stopwords=True, lang="en")
    hyp = "I went to the Mars from my living town."
    refs = ["I went to Mars", "It's my living town"]
    for metric in ("rouge-2", "rouge-l"):
        got = adapter.corpus_score(metric, [hyp], [refs], adapter.options(metric))
        assert got.fmeasure == direct(calculator, metric, hyp, refs)
    # By hand, ROUGE-L with stopwords removed: 'mars living town' vs 'mars' (LCS 1)
    # and 'living town' (LCS 2): R = 3/3, P = 3/(2*3) -- the hypothesis counts twice.
    got = adapter.corpus_score("rouge-l", [hyp], [refs], adapter.options("rouge-l"))
    assert (got.matches, got.hyp_total, got.ref_total) == (3, 6, 3)
    assert (got.recall, got.precision) == (1.0, 0.5)


def test_non_latin_text_vanishes(calculator_class):
    # Its English tokenizer keeps [A-Za-z0-9] runs only: Chinese has no tokens,
    # and the library scores 0 as the adapter does.
    adapter = require_impl("sumeval", "rouge-1")
    got = adapter.corpus_score("rouge-1", ["今天天气很好"], [["今天天气不错"]],
                               adapter.options("rouge-1"))
    assert (got.fmeasure, got.hyp_total, got.ref_total) == (0.0, 0, 0)
    assert calculator_class(lang="en").rouge_1("今天天气很好", "今天天气不错") == 0


@pytest.mark.parametrize("hyp, ref", [("", "the cat sat"), ("the cat sat", ""), ("", "")])
def test_empty_sides_score_zero(calculator_class, hyp, ref):
    adapter = require_impl("sumeval", "rouge-1")
    for metric in ("rouge-1", "rouge-l"):
        got = adapter.corpus_score(metric, [hyp], [[ref]], adapter.options(metric))
        assert got.fmeasure == direct(calculator_class(), metric, hyp, [ref]) == 0.0


def direct_bleu(hyp: str, refs: str | list[str]) -> float:
    """``BLEUCalculator().bleu`` itself, with the sacrebleu 1.5.1 it runs on."""
    from metricdiff.impls import isolated_peers
    from metricdiff.impls.peers import _isolated

    with _isolated.active(isolated_peers()["sumeval"]):
        bleu = importlib.import_module("sumeval.metrics.bleu")
        return float(bleu.BLEUCalculator().bleu(hyp, refs))


def test_bleu_readme_example():
    # sumeval's README scores "I am waiting on the beach" against "He is walking on
    # the beach" (no printed value). By hand, 13a tokens, 6 each: 3/6 unigrams,
    # 2/5 bigrams, 1/4 trigrams, no 4-gram of 3 floored to 0.01/3; BP 1:
    # (1/2 * 2/5 * 1/4 * 0.01/3)^(1/4) = 0.11362...
    adapter = require_impl("sumeval", "bleu")
    hyp, ref = "I am waiting on the beach", "He is walking on the beach"
    got = adapter.corpus_score("bleu", [hyp], [[ref]], adapter.options("bleu"))
    assert got.score == direct_bleu(hyp, ref)
    assert got.score == pytest.approx(100 * (0.5 * 0.4 * 0.25 * 0.01 / 3) ** 0.25, rel=1e-12)
    assert (got.counts, got.totals) == ((3, 2, 1, 0), (6, 5, 4, 3))


def test_bleu_real_text_matches_the_library():
    adapter = require_impl("sumeval", "bleu")
    hyps, refs = translation_pairs()
    got = adapter.sentence_scores("bleu", hyps, refs, adapter.options("bleu"))
    assert [r.score for r in got] == [
        direct_bleu(hyp, seg[0]) for hyp, seg in zip(hyps, refs, strict=True)]
    corpus = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu"))
    assert corpus.score == pytest.approx(sum(r.score for r in got) / len(got), rel=1e-12)
    assert corpus.sys_len == sum(r.sys_len for r in got)


def test_bleu_empty_hypothesis_scores_zero():
    adapter = require_impl("sumeval", "bleu")
    got = adapter.corpus_score("bleu", [""], [["the cat sat"]], adapter.options("bleu"))
    assert got.score == direct_bleu("", "the cat sat") == 0.0


@pytest.mark.parametrize("hyp", ["the cat sat", ""])
def test_bleu_empty_reference_fails_as_in_the_library(hyp):
    # sacrebleu 1.5.1 drops empty references, then finds none: EOFError "No valid
    # references for a sentence!", from the library and through the adapter.
    adapter = require_impl("sumeval", "bleu")
    with pytest.raises(EOFError):
        direct_bleu(hyp, "")
    with pytest.raises(EOFError):
        adapter.corpus_score("bleu", [hyp], [[""]], adapter.options("bleu"))


def test_bleu_several_references_fail_as_in_the_library():
    # A list of references is one reference stream of two lines against one
    # hypothesis line: sacrebleu 1.5.1 raises EOFError, and so does the adapter.
    adapter = require_impl("sumeval", "bleu")
    refs = ["He is walking on the beach", "I am waiting at the beach"]
    with pytest.raises(EOFError):
        direct_bleu("I am waiting on the beach", refs)
    with pytest.raises(EOFError):
        adapter.corpus_score("bleu", ["I am waiting on the beach"], [refs],
                             adapter.options("bleu"))


def test_main_sacrebleu_is_left_alone():
    adapter = require_impl("sumeval", "bleu")
    adapter.corpus_score("bleu", ["a b c"], [["a b c"]], adapter.options("bleu"))
    import sacrebleu

    assert sacrebleu.__version__.startswith("2.")


def test_without_its_sacrebleu_folder_rouge_still_runs(monkeypatch, tmp_path):
    # The folder with sacrebleu 1.5.1 missing: sumeval is listed as available (its
    # ROUGE runs) and the reason names its BLEU and the command that installs it.
    from metricdiff.api import implementations
    from metricdiff.impls.peers import _isolated

    require_impl("sumeval", "rouge-1")
    monkeypatch.setenv(_isolated.ENV_VAR, str(tmp_path))
    monkeypatch.setattr(_isolated, "_LOADED", {})
    found = {found.name: found for found in implementations()}["sumeval"]
    assert found.available
    assert "BLEU needs sacrebleu < 2" in found.reason
    assert "metricdiff install-peers" in found.reason

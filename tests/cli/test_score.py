"""Several metrics in one ``score`` call (``--metric`` repeated): one block or JSON
object per metric, each with its signature; ``Adapter.score_many`` gives the same
numbers as one call per metric, with each text tokenized once where the
adapter shares its text pipeline (the reference, rouge-score)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metricdiff.cli import main
from metricdiff.impls import get_adapter
from metricdiff.impls.base import Adapter

ROUGE = ["rouge-1", "rouge-2", "rouge-l", "rouge-lsum"]


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def files(tmp_path):
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat is on the mat\n", encoding="utf-8")
    return ["--hyp", tmp_path / "hyp.txt", "--ref", tmp_path / "ref.txt"]


def metric_args(metrics):
    return [arg for metric in metrics for arg in ("--metric", metric)]


# By hand (Lin 2004; the paper's profile reports recall), hyp "the cat sat on the
# mat" against ref "the cat is on the mat", 6 tokens each:
#   ROUGE-1: the x2, cat, on, mat shared: 5 of 6.
#   ROUGE-2: of the reference's bigrams "the cat", "cat is", "is on", "on the",
#            "the mat", the hypothesis has "the cat", "on the", "the mat": 3 of 5.
#   ROUGE-L: LCS "the cat on the mat": 5 of 6; ROUGE-Lsum: one sentence, the same.
BY_HAND = {"rouge-1": (5, 6), "rouge-2": (3, 5), "rouge-l": (5, 6), "rouge-lsum": (5, 6)}


def test_text_output_has_one_block_per_metric(capsys, files):
    status, out, err = run(capsys, "score", *metric_args(ROUGE), *files)
    assert status == 0, err
    lines = out.splitlines()
    assert [line for line in lines if line.startswith("==")] == [f"== {m}" for m in ROUGE]
    for metric in ROUGE:
        block = lines[lines.index(f"== {metric}") + 1: lines.index(f"== {metric}") + 3]
        matches, total = BY_HAND[metric]
        assert block[0].startswith(f"R = {matches / total:.5f} ")
        assert block[1].startswith(f"{metric}|impl:reference-")


def test_json_is_a_list_with_several_metrics_and_an_object_with_one(capsys, files):
    status, out, err = run(capsys, "score", *metric_args(ROUGE), *files, "--format", "json")
    assert status == 0, err
    documents = json.loads(out)
    assert [d["metric"] for d in documents] == ROUGE
    for document in documents:
        matches, total = BY_HAND[document["metric"]]
        assert document["corpus"]["matches"] == matches
        assert document["corpus"]["ref_total"] == total
        assert math.isclose(document["corpus"]["recall"], matches / total)
        assert document["signature"].startswith(f"{document['metric']}|impl:reference-")
    # One metric: the single object of before, unchanged.
    status, out, _ = run(capsys, "score", "--metric", "rouge-2", *files, "--format", "json")
    assert json.loads(out)["corpus"]["matches"] == 3


def test_a_metric_named_twice_is_scored_once(capsys, files):
    status, out, _ = run(capsys, "score", *metric_args(["rouge-1", "rouge-1"]), *files)
    assert status == 0
    assert not out.startswith("==") and len(out.splitlines()) == 2


def test_bleu_and_rouge_in_one_call_each_take_their_own_axes(capsys, files):
    status, out, err = run(capsys, "score", *metric_args(["bleu", "rouge-1"]), *files,
                           "-o", "tokenize=13a", "-o", "smoothing=exp",
                           "-o", "stemmer=porter-nltk", "--format", "json")
    assert status == 0, err
    bleu, rouge = json.loads(out)
    assert (bleu["options"]["tokenize"], bleu["options"]["smoothing"]) == ("13a", "exp")
    assert (rouge["options"]["tokenize"], rouge["options"]["stemmer"]) == ("13a", "porter-nltk")
    assert "smoothing" not in rouge["options"] and "stemmer" not in bleu["options"]


def test_an_axis_of_no_metric_is_still_an_error(capsys, files):
    status, _, err = run(capsys, "score", *metric_args(["bleu", "rouge-1"]), *files,
                         "-o", "nonaxis=1")
    assert status == 2 and "unknown axis" in err


def test_a_failure_names_the_metrics_being_scored(capsys, files, tmp_path):
    (tmp_path / "boom.py").write_text(
        "def boom(hypotheses, references, metric):\n    return 1 / 0\n", encoding="utf-8")
    status, _, err = run(capsys, "score", "--impl", f"python:{tmp_path / 'boom.py'}:boom",
                         *metric_args(["rouge-1", "rouge-2"]), *files)
    assert status == 1
    assert f"failed on {files[1]} (rouge-1, rouge-2): ZeroDivisionError" in err


# --- score_many gives what one call per metric gives ----------------------------

WORDS = ["the", "cat", "sat", "on", "a", "mat", "The", "dogs", "ran.", "über", "-", "3,5"]
texts = st.lists(
    st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join), min_size=1, max_size=3
).map("\n".join)
corpora = st.integers(1, 4).flatmap(lambda size: st.tuples(
    st.lists(texts, min_size=size, max_size=size),
    st.lists(st.lists(texts, min_size=1, max_size=3), min_size=size, max_size=size),
))
ALL_ROUGE = [*ROUGE, "rouge-3", "rouge-w", "rouge-s", "rouge-su"]
REFERENCE_PROFILES = [
    {},
    {"tokenize": "rouge-score", "multi_ref": "best-f", "report": "f"},
    {"sentence_split": "period", "truncate": "words:4", "truncate_side": "both"},
    {"wlcs": "rouge155", "stemmer": "porter-nltk", "stopwords": "smart",
     "corpus_average": "micro", "multi_ref": "pooled", "lowercase": "unicode"},
    {"rounding": "perl-5dp", "corpus_average": "bootstrap-mean", "bootstrap_samples": "20",
     "truncate": "bytes:12"},
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora, st.sampled_from(REFERENCE_PROFILES))
def test_reference_score_many_equals_one_call_per_metric(corpus, overrides):
    hyps, refs = corpus
    adapter = get_adapter("reference", "rouge-1")
    requests = [(metric, adapter.options(metric, overrides)) for metric in ALL_ROUGE]
    shared = adapter.score_many(requests, hyps, refs, sentences=True)
    one_by_one = Adapter.score_many(adapter, requests, hyps, refs, sentences=True)
    assert shared == one_by_one


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora, st.sampled_from([{}, {"stemmer": "porter-nltk"},
                                 {"tokenize": "none", "lowercase": "unicode"},
                                 {"corpus_average": "bootstrap-median",
                                  "bootstrap_samples": "20"}]))
def test_rouge_score_score_many_equals_one_call_per_metric(corpus, overrides):
    pytest.importorskip("rouge_score")
    hyps, refs = corpus
    adapter = get_adapter("rouge-score", "rouge-1")
    requests = [(metric, adapter.options(metric, overrides))
                for metric in [*ROUGE, "rouge-3"]]
    shared = adapter.score_many(requests, hyps, refs, sentences=True)
    one_by_one = Adapter.score_many(adapter, requests, hyps, refs, sentences=True)
    assert shared == one_by_one


def test_the_reference_tokenizes_each_text_once_for_every_variant(monkeypatch):
    from metricdiff.impls.reference import rouge_shared

    calls = []
    real = rouge_shared.text_sentences

    def counted(text, options, *, truncate):
        calls.append(text)
        return real(text, options, truncate=truncate)

    monkeypatch.setattr(rouge_shared, "text_sentences", counted)
    adapter = get_adapter("reference", "rouge-1")
    requests = [(metric, adapter.options(metric)) for metric in ROUGE]
    adapter.score_many(requests, ["a b\nc", "d e"], [["a c", "b"], ["e"]])
    # Two hypotheses and three references, each once, for four variants.
    assert sorted(calls) == sorted(["a b\nc", "a c", "b", "d e", "e"])


def test_rouge_score_builds_one_scorer_for_every_type(monkeypatch):
    pytest.importorskip("rouge_score")
    from metricdiff.impls.peers import rouge_score as peer

    built = []
    real = peer.scorer_for

    def counted(metric, options, package="rouge_score"):
        built.append(metric)
        return real(metric, options, package)

    monkeypatch.setattr(peer, "scorer_for", counted)
    adapter = get_adapter("rouge-score", "rouge-1")
    requests = [(metric, adapter.options(metric)) for metric in ROUGE]
    adapter.score_many(requests, ["a b"], [["a c"]])
    assert built == [ROUGE]


LARGE_COUNTS = """
def bleu(hyps, refs, metric):
    return {"score": 10.0, "precisions": [50.0, 40.0, 30.0, 20.0], "bp": 1.0,
            "sys_len": 1234568, "ref_len": 1234567, "counts": [4, 3, 2, 1],
            "totals": [8, 7, 6, 5]}

def rouge(hyps, refs, metric):
    return {"fmeasure": 0.5, "recall": 0.5, "precision": 0.5, "matches": 1234567,
            "hyp_total": 2469134, "ref_total": 2469134.5}
"""


def test_counts_and_lengths_print_every_digit(tmp_path, capsys, monkeypatch):
    """Issue 27, item 23: ``%g`` printed ref_len 1234567 as ``1.23457e+06``.  The
    numbers are those the function returns; a length that is not whole (a mean
    reference length) keeps ten significant digits."""
    (tmp_path / "large.py").write_text(LARGE_COUNTS, encoding="utf-8")
    (tmp_path / "h.txt").write_text("a b c\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "score", "--impl", "python:large.py:bleu", "-o",
                           "tokenize=none", "--hyp", "h.txt", "--ref", "h.txt")
    assert status == 0, err
    assert "hyp_len = 1234568 ref_len = 1234567)" in out.splitlines()[0], out
    status, out, err = run(capsys, "score", "--impl", "python:large.py:rouge", "--metric",
                           "rouge-1", "-o", "tokenize=none", "--hyp", "h.txt", "--ref", "h.txt")
    assert status == 0, err
    assert "(matches = 1234567 hyp_total = 2469134 ref_total = 2469134.5)" in out, out

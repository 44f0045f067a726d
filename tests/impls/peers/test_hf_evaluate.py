"""HF ``evaluate`` is listed with its profile but cannot run here: its metrics are
scripts fetched from the Hugging Face Hub at run time, and metricdiff downloads
nothing.  These tests check that it says so, in one line, and never scores."""

from __future__ import annotations

import importlib.resources
import importlib.util

import pytest

from metricdiff.api import implementations
from metricdiff.errors import AdapterUnavailable
from metricdiff.impls import families_of, get_adapter


def test_listed_unavailable_with_the_reason():
    assert families_of("hf-evaluate") == ["bleu", "rouge"]
    row = next(i for i in implementations() if i.name == "hf-evaluate")
    assert not row.available
    assert "Hugging Face Hub" in row.reason and "no network" in row.reason
    assert "\n" not in row.reason and row.reason.count("hf-evaluate:") == 1


@pytest.mark.parametrize("metric", ["bleu", "rouge-lsum"])
def test_never_scores(metric):
    adapter = get_adapter("hf-evaluate", metric)
    with pytest.raises(AdapterUnavailable, match="Hugging Face Hub"):
        adapter.corpus_score(metric, ["a b"], [["a b"]], adapter.options(metric))


def test_declared_profiles():
    # Read from the evaluate repository's metrics/bleu (tensorflow/nmt's
    # compute_bleu: min(len(r) for r in references)) and metrics/rouge
    # (rouge_scorer.RougeScorer, score_multi, BootstrapAggregator().mid).
    bleu = get_adapter("hf-evaluate", "bleu").default_options("bleu")
    assert (bleu.tokenize, bleu.ref_length, bleu.empty_policy) == ("13a", "shortest", "error")
    rouge = get_adapter("hf-evaluate", "rouge-1").default_options("rouge-1")
    assert (rouge.tokenize, rouge.multi_ref, rouge.corpus_average) == (
        "rouge-score", "best-f", "bootstrap-median")


def test_the_package_ships_no_metric_scripts():
    if importlib.util.find_spec("evaluate") is None:
        pytest.skip("evaluate is not installed")
    assert not importlib.resources.files("evaluate").joinpath("metrics").is_dir()

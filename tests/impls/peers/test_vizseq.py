"""The vizseq adapter against direct calls of ``vizseq.scorers.bleu.BLEUScorer``
and against sacrebleu, which vizseq calls.

Expected values come from those direct calls.  vizseq is slow to import (it
imports IPython, pandas and matplotlib), so every test shares one import.
"""

from __future__ import annotations

import unittest.mock
from typing import Any

import pytest

from bleu_peer_data import EDGES, LANGUAGES, real_translations
from helpers import require_impl
from metricdiff.errors import UnsupportedOption

nltk = pytest.importorskip("nltk")
sacrebleu = pytest.importorskip("sacrebleu")


@pytest.fixture(scope="module")
def scorer_class() -> Any:
    # Its METEOR module downloads WordNet at import; no network here.
    with unittest.mock.patch.object(nltk, "download", lambda *a, **k: True):
        module = pytest.importorskip("vizseq.scorers.bleu")
    return module.BLEUScorer


def _adapter() -> Any:
    return require_impl("vizseq", "bleu")


def _direct(scorer_class: Any, hyps: list[str], streams: list[list[str]],
            tokenizer: str = "none") -> float:
    scorer = scorer_class(corpus_level=True, sent_level=False, n_workers=1,
                          extra_args={"tokenizer": tokenizer})
    return float(scorer.score(hyps, streams).corpus_score)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("tokenize", ["none", "13a"])
def test_real_translations(scorer_class: Any, language: str, tokenize: str) -> None:
    # Expected: BLEUScorer itself, and sacrebleu's corpus_bleu rounded to 3 decimals.
    adapter = _adapter()
    hyps, refs = real_translations(*LANGUAGES[language])
    result = adapter.corpus_score("bleu", hyps, refs,
                                  adapter.options("bleu", {"tokenize": tokenize}))
    streams = [[seg[0] for seg in refs]]
    assert result.score == _direct(scorer_class, hyps, streams, tokenize)
    sacre = sacrebleu.corpus_bleu(hyps, streams, tokenize=tokenize, force=True).score
    assert result.score == round(sacre, 3)


def test_several_references_go_in_as_streams(scorer_class: Any) -> None:
    adapter = _adapter()
    hyps = ["the cat sat on the mat", "a quick brown fox"]
    refs = [["the cat is on the mat", "there is a cat on the mat"], ["a fast brown fox"]]
    result = adapter.corpus_score("bleu", hyps, refs, adapter.default_options("bleu"))
    # vizseq hands the streams to sacrebleu, which drops the None of a shorter segment.
    streams: list[list[Any]] = [["the cat is on the mat", "a fast brown fox"],
                                ["there is a cat on the mat", None]]
    assert result.score == _direct(scorer_class, hyps, streams)


@pytest.mark.parametrize("edge", sorted(EDGES))
def test_edge_cases_as_vizseq_answers(scorer_class: Any, edge: str) -> None:
    adapter = _adapter()
    hyps, refs = EDGES[edge]
    result = adapter.corpus_score("bleu", hyps, refs, adapter.default_options("bleu"))
    assert result.score == _direct(scorer_class, hyps, [[refs[0][0]]]) == 0.0


def test_refuses_what_sacrebleu_cannot_run_offline() -> None:
    with pytest.raises(UnsupportedOption, match="vizseq cannot honour tokenize=spm"):
        _adapter().options("bleu", {"tokenize": "spm"})

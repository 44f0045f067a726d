"""The fast-bleu adapter against direct calls of ``fast_bleu.BLEU`` and against
NLTK's ``sentence_bleu`` with method1, which fast-bleu ports.

Expected values come from fast-bleu's README (its Sample Usage), from calling
``fast_bleu.BLEU`` itself, or from NLTK.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from bleu_peer_data import EDGES, LANGUAGES, real_translations
from helpers import require_impl
from metricdiff.errors import MissingReferenceError, UnsupportedOption

fast_bleu = pytest.importorskip("fast_bleu")

# fast-bleu's README, "Sample Usage" (also the docstring of fast_bleu.BLEU).
REF1 = ("It is a guide to action that ensures that the military will forever heed Party "
        "commands")
REF2 = ("It is the guiding principle which guarantees the military forces always being "
        "under the command of the Party")
REF3 = "It is the practical guide for the army always to heed the directions of the party"
HYP1 = ("It is a guide to action which ensures that the military always obeys the commands "
        "of the party")
HYP2 = "he read the book because he was interested in world history"


def _adapter() -> Any:
    return require_impl("fast-bleu", "bleu")


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # README: {'bigram': [0.7453559924999299, 0.0191380231127159],
        #          'trigram': [0.6240726901657495, 0.013720869575946234]}
        ("2", (0.7453559924999299, 0.0191380231127159)),
        ("3", (0.6240726901657495, 0.013720869575946234)),
    ],
)
def test_readme_sample_usage(order: str, expected: tuple[float, float]) -> None:
    adapter = _adapter()
    refs = [[REF1, REF2, REF3]] * 2
    options = adapter.options("bleu", {"max_order": order})
    sentences = adapter.sentence_scores("bleu", [HYP1, HYP2], refs, options)
    assert [s.score for s in sentences] == [100.0 * e for e in expected]
    corpus = adapter.corpus_score("bleu", [HYP1, HYP2], refs, options)
    assert corpus.score == pytest.approx(50.0 * sum(expected), rel=1e-15)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_real_translations(language: str) -> None:
    # Expected: fast_bleu.BLEU per segment on str.split() tokens, and NLTK's
    # sentence_bleu with method1 (what it ports) within the stated tolerance.
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    adapter = _adapter()
    hyps, refs = real_translations(*LANGUAGES[language])
    sentences = adapter.sentence_scores("bleu", hyps, refs, adapter.default_options("bleu"))
    method1 = nltk_bleu.SmoothingFunction().method1
    for hyp, seg, result in zip(hyps, refs, sentences, strict=True):
        direct = fast_bleu.BLEU([seg[0].split()]).get_score([hyp.split()])[4][0]
        assert result.score == 100.0 * direct
        ported = nltk_bleu.sentence_bleu([seg[0].split()], hyp.split(),
                                         smoothing_function=method1)
        assert result.score == pytest.approx(100.0 * ported, rel=1e-12)
    corpus = adapter.corpus_score("bleu", hyps, refs, adapter.default_options("bleu"))
    assert corpus.score == pytest.approx(math.fsum(s.score for s in sentences) / len(hyps))


@pytest.mark.parametrize("edge", ["empty-hyp", "empty-ref", "both-empty"])
def test_edge_cases_as_fast_bleu_answers(edge: str) -> None:
    adapter = _adapter()
    hyps, refs = EDGES[edge]
    expected = fast_bleu.BLEU([refs[0][0].split()]).get_score([hyps[0].split()])[4][0]
    result = adapter.corpus_score("bleu", hyps, refs, adapter.default_options("bleu"))
    assert result.score == 100.0 * expected == 0.0


def test_a_segment_without_reference_is_refused_before_the_library() -> None:
    adapter = _adapter()
    with pytest.raises(MissingReferenceError, match="segment 1 has none"):
        adapter.corpus_score("bleu", ["a b"], [[None]], adapter.default_options("bleu"))


def test_tokens_are_cut_at_a_nul_character() -> None:
    # A defect of fast-bleu kept as it is (docs/peers.md): PyBytes_AsString into a
    # std::string stops at U+0000, so 'a\x00x' and 'a\x00b' are both 'a' and the
    # hypothesis matches entirely (NLTK: one unigram and one bigram of three and two
    # missed).
    adapter = _adapter()
    result = adapter.corpus_score("bleu", ["a\x00x c d"], [["a\x00b c d"]],
                                  adapter.options("bleu", {"max_order": "2"}))
    assert result.score == 100.0


@pytest.mark.parametrize(
    "settings",
    [{"max_order": "1"}, {"max_order": "2", "weights": "0.5,0.6"}, {"smoothing": "exp"},
     {"smoothing": "float-min"}],
)
def test_refuses_what_it_cannot_honour(settings: dict[str, str]) -> None:
    # Its own assertions (2 <= N, weights summing to 1); method1 is its one smoothing
    # that is NLTK's (its method0 uses long double's minimum).
    with pytest.raises(UnsupportedOption, match="fast-bleu cannot honour"):
        _adapter().options("bleu", settings)

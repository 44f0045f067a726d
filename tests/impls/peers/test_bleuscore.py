"""The bleuscore adapter against direct calls of ``bleuscore.compute``.

Expected values come from bleuscore's README (its Quick Start output) or from
calling ``bleuscore.compute`` itself; the adapter must give them exactly (x 100).
"""

from __future__ import annotations

from typing import Any

import pytest

from bleu_peer_data import EDGES, LANGUAGES, real_translations
from helpers import require_impl
from metricdiff.errors import UnsupportedOption

bleuscore = pytest.importorskip("bleuscore")


def _adapter() -> Any:
    return require_impl("bleuscore", "bleu")


def _direct(hyps: list[str], refs: list[list[str]], **kwargs: Any) -> dict[str, Any]:
    result: dict[str, Any] = bleuscore.compute(refs, hyps, **kwargs)
    return result


def test_readme_quick_start() -> None:
    # bleuscore's README, "Quick Start": bleu 1.0, precisions all 1.0, brevity
    # penalty 1.0, translation_length 7, reference_length 6 (the shortest refs).
    adapter = _adapter()
    hyps = ["hello there general kenobi", "foo bar foobar"]
    refs = [["hello there general kenobi", "hello there !"], ["foo bar foobar"]]
    result = adapter.corpus_score("bleu", hyps, refs, adapter.default_options("bleu"))
    assert result.score == 100.0
    assert result.precisions == (100.0, 100.0, 100.0, 100.0)
    assert (result.bp, result.sys_len, result.ref_len) == (1.0, 7, 6.0)
    assert {"counts", "totals"} <= result.unknown


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize(
    ("settings", "kwargs"),
    [
        ({}, {}),
        ({"ref_length": "closest"}, {"ref_len_method": "closest"}),
        ({"max_order": "2"}, {"max_order": 2}),
        (
            {"smoothing": "add-k", "smooth_orders": "all", "smooth_value": "1"},
            {"smooth": True},
        ),
    ],
)
def test_real_translations(language: str, settings: dict[str, str],
                           kwargs: dict[str, Any]) -> None:
    # Expected: bleuscore.compute on the same lines (the bundled real translations).
    adapter = _adapter()
    hyps, refs = real_translations(*LANGUAGES[language])
    expected = _direct(hyps, refs, **kwargs)
    result = adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu", settings))
    assert result.score == 100.0 * expected["bleu"]
    assert result.precisions == tuple(100.0 * p for p in expected["precisions"])
    assert result.bp == expected["brevity_penalty"]
    assert (result.sys_len, result.ref_len) == (
        expected["translation_length"], expected["reference_length"])


@pytest.mark.parametrize("edge", sorted(EDGES))
def test_edge_cases_as_bleuscore_answers(edge: str) -> None:
    # Expected: bleuscore.compute itself (it answers 0 for each of these).
    adapter = _adapter()
    hyps, refs = EDGES[edge]
    expected = _direct(hyps, refs)
    result = adapter.corpus_score("bleu", hyps, refs, adapter.default_options("bleu"))
    assert result.score == 100.0 * expected["bleu"] == 0.0
    assert result.bp == expected["brevity_penalty"]


def test_add_one_smoothing_reaches_unigrams_and_empty_orders() -> None:
    # By hand: 'x y' against 'a b c d e' with smooth=True: p1 = (0+1)/(2+1),
    # p2 = (0+1)/(1+1), p3 = p4 = (0+1)/(0+1) (no trigrams at all).
    adapter = _adapter()
    options = adapter.options(
        "bleu", {"smoothing": "add-k", "smooth_orders": "all", "smooth_value": "1"})
    result = adapter.corpus_score("bleu", ["x y"], [["a b c d e"]], options)
    assert result.precisions == pytest.approx((100 / 3, 50.0, 100.0, 100.0))


@pytest.mark.parametrize(
    "settings",
    [{"smoothing": "add-k"}, {"smoothing": "exp"}, {"tokenize": "none"},
     {"ref_length": "average"}],
)
def test_refuses_what_it_cannot_honour(settings: dict[str, str]) -> None:
    # smooth=True is add-one on every order; the tokenizer is fixed at 13a;
    # ref_len_method has no average.
    with pytest.raises(UnsupportedOption, match="bleuscore cannot honour"):
        _adapter().options("bleu", settings)


@pytest.mark.parametrize(
    "text",
    [
        "g\x1fs",  # the audit's minimal example
        "a\x1cb\x1dc\x1ed\x85e\u2028f\u3000g\xa0h",
        "it's 3.5 km, (roughly) 2.½ - &amp; &quot;x&quot; <skipped>",
        "",
    ],
)
def test_its_tokenizer_is_13a_white_space(text: str) -> None:
    # Expected: bleuscore.tokenizer_13a itself.  U+001C..U+001F are not Unicode
    # White_Space, so they stay inside tokens (str.split() would cut there).
    from metricdiff.impls.text.tokenizers import get_tokenizer

    assert get_tokenizer("13a-white-space")(text) == bleuscore.tokenizer_13a(text)

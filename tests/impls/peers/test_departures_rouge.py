"""pltrdy ``rouge``'s text handling as the axis value ``tokenize=period-split``
(ROUGE-TOKENIZE): the reference under it reproduces the library's own counts,
on examples worked out by hand."""

from __future__ import annotations

import pytest

from metricdiff.impls import get_adapter, isolated_peers
from metricdiff.impls.peers import _isolated
from metricdiff.impls.reference.rouge_corpus import corpus_rouge
from metricdiff.impls.text.tokenizers import get_tokenizer


def test_period_split_by_hand() -> None:
    tokens = get_tokenizer("period-split")
    # '.' separates and vanishes; whitespace splits as str.split() does
    assert tokens("the cat, the hat.") == ["the", "cat,", "the", "hat"]
    assert tokens("U.S. 3.5") == ["U", "S", "3", "5"]
    # a piece of whitespace only is one empty token: " ".join("\n".split()) is ""
    assert tokens("\n") == [""]
    assert tokens("  .  ") == ["", ""]
    # pieces of length 0 (between two periods, or after the last) are dropped
    assert tokens("a..b.") == ["a", "b"]


#: (hypothesis, reference, metric, (matches, hyp_total, ref_total)), by hand
#: with counts=set (pltrdy's exclusive=True: distinct n-grams on each side).
HAND = [
    # {the, cat,, hat} against {the, cat, hat}: 'the' and 'hat' match
    ("the cat, the hat.", "the cat the hat", "rouge-1", (2, 3, 3)),
    # the reference "\n" is one empty token; nothing matches '-'
    ("-", "\n", "rouge-1", (0, 1, 1)),
    # "  .  " is two empty tokens: one bigram ("", ""); U+00A0 is whitespace
    ("  .  ", "\u00a0", "rouge-2", (0, 1, 0)),
]


@pytest.mark.parametrize(("hyp", "ref", "metric", "counts"), HAND)
def test_pltrdy_counts_are_reproduced(hyp: str, ref: str, metric: str,
                                      counts: tuple[int, int, int]) -> None:
    adapter = get_adapter("rouge-pltrdy", metric)
    reason = adapter.unavailable_reason()
    if reason:
        pytest.skip(reason)
    with _isolated.active(isolated_peers()["rouge-pltrdy"]) as peer:
        raw = peer.module.Rouge(metrics=[metric], raw_results=True).get_scores([hyp], [ref])
    own = raw[0][metric]
    assert (own["overlap"], own["hyp"], own["ref"]) == counts
    result = corpus_rouge([hyp], [[ref]], adapter.options(metric))
    assert (result.matches, result.hyp_total, result.ref_total) == counts


def test_line_chars_truncation_by_hand() -> None:
    from metricdiff.impls.reference.rouge_text import truncate_line_chars

    # 'ab' (2 characters) fits; 'cd' takes the total to 4 = the limit and is cut
    # at 4 - 2 = 2 characters, all of it; the line break is not counted.
    assert truncate_line_chars("ab\ncd\nef", 4) == "ab\ncd"
    # '—' is one character (three UTF-8 bytes): 'ab—c' is 4 characters
    assert truncate_line_chars("ab—c d", 4) == "ab—c"
    # lines are stripped before they are counted
    assert truncate_line_chars("  ab  \ncd", 3) == "ab\nc"


@pytest.mark.parametrize(("text", "kept"), [("ab\ncd\nef", "ab cd"), ("ab—c d", "ab c")])
def test_py_rouge_truncates_line_characters(text: str, kept: str) -> None:
    adapter = get_adapter("py-rouge", "rouge-1")
    reason = adapter.unavailable_reason()
    if reason:
        pytest.skip(reason)
    options = adapter.options("rouge-1", {"truncate": "line-chars:4", "stemmer": "none"})
    with _isolated.active(isolated_peers()["py-rouge"]) as peer:
        rouge = adapter.rouge(peer, "rouge-1", options)
        own = rouge._preprocess_summary_as_a_whole(text)
    # by hand (as above), then lowercased and every non-alphanumeric a space
    assert own == [kept]  # one summary, as a list of one string

"""``rank``'s stability: a pair of systems whose order flips between the paper's
profile and rouge-score, because one system's advantage is in words rouge-score's
tokenizer deletes (non-ASCII), is reported as reversed under rouge-score, and the
difference of the differences is attributed to ``tokenize``.

The corpus is made so that the expected order follows by counting: each
reference has three Korean and five English words; ``hangul`` keeps the three
Korean words and one English word, ``ascii`` two English words and no Korean.
Whitespace tokens (the paper's profile): hangul matches 4 of 8, ascii 2 of 8,
so hangul is ahead.  rouge-score keeps only [a-z0-9] runs: hangul matches 1 of 5
English words, ascii 2 of 5, so ascii is ahead: the order flips, and the only
axis on which the two profiles differ that can change a single-reference
ROUGE-L score is ``tokenize`` (``multi_ref`` and ``report`` cannot)."""

from __future__ import annotations

import pytest

from helpers import require_impl
from metricdiff.conclusions.rank import rank_corpus

ENGLISH = [("the", "report", "was", "published", "today"),
           ("our", "team", "won", "the", "final"),
           ("a", "new", "bridge", "opened", "downtown")]
KOREAN = [("서울", "시장", "발표"), ("우리", "팀", "우승"), ("새", "다리", "개통")]


def corpus():
    refs, hangul, ascii_ = [], [], []
    for english, korean in zip(ENGLISH * 3, KOREAN * 3, strict=True):
        refs.append(" ".join([*english[:3], *korean, *english[3:]]))
        hangul.append(" ".join([english[0], "xx", "yy", *korean, "zz"]))
        ascii_.append(" ".join([english[0], english[1], "qq", "ww", "ee", "rr"]))
    refs_ = tuple((ref,) for ref in refs)
    return {"ascii": (tuple(ascii_), refs_), "hangul": (tuple(hangul), refs_)}


def test_the_flip_is_reported_and_attributed_to_tokenize():
    require_impl("rouge-score", "rouge-l")
    ranked = rank_corpus({"rouge-l": corpus()}, ["rouge-score"], test="bootstrap")
    found = ranked["rouge-l"]
    pair = found.pair("ascii", "hangul")
    assert pair.paper_delta > 0  # 4/8 vs 2/8 of whitespace tokens
    assert pair.holds == ("reference",)
    [flip] = pair.reversed
    assert flip.impl == "rouge-score" and flip.delta < 0  # 1/5 vs 2/5 of ASCII words
    top = flip.attribution.contributions[0]
    assert top.axis == "tokenize" and (top.before, top.after) == ("none", "rouge-score")
    # the whole difference of the differences is the tokenizer's, nothing is left over
    assert top.points == pytest.approx(flip.delta - pair.paper_delta)
    assert flip.residual == pytest.approx(0.0, abs=1e-9)
    assert not pair.stable
    assert "reversed under rouge-score" in pair.sentence()
    assert "tokenize" in pair.sentence()

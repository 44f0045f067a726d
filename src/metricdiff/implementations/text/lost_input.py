"""Input that an implementation's tokenizer deletes before anything is counted.

rouge-score, py-rouge and the ROUGE-1.5.5 Perl script keep only ASCII letters
and digits (``tokenize=rouge-score``, ``rouge155``), so Korean, Japanese or
Russian text scores almost nothing: not because the systems disagree, but because
most words never reach the metric.  A user must be told, with how much was lost.

Definition.  A *token* here is a whitespace-separated piece of a text
(``str.split``) with at least one letter or digit in it (``str.isalnum`` of some
character; punctuation alone is no token).  The implementation's declared
tokenizer is given each such token alone, and the letters and digits in what it
returns are counted: none left, the token is *lost* ("서울에서" -> nothing);
fewer than it had, the token is *cut* ("café" -> "caf").  Case folding changes no
count (``str.lower`` of "İ" is "i" and a combining mark, which is no letter).
Counted separately over all hypotheses and over all references of a corpus.
Text in scripts written without spaces (Japanese, Chinese) is one token per
space-separated run, so there a lost token is a lost run of text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

import attrs

from metricdiff.implementations.text.tokenizers import TokenizerUnavailable, get_tokenizer
from metricdiff.profiles import ConventionError

#: A letter or digit: ``\w`` minus the underscore is exactly ``str.isalnum``.
_ALNUM = re.compile(r"[^\W_]")


@attrs.frozen
class Loss:
    """How many of one side's ``tokens`` a tokenizer drops entirely (``lost``) or
    in part (``cut``)."""

    lost: int
    cut: int
    tokens: int

    def describe(self, side: str) -> str | None:
        """``87.5% of reference tokens lost``, ``... lost and 2.0% cut``, or None."""
        if not self.lost and not self.cut:
            return None
        lost = f"{_percent(self.lost, self.tokens)} of {side} tokens lost"
        cut = f"{_percent(self.cut, self.tokens)}"
        if not self.cut:
            return lost
        return f"{lost} and {cut} cut" if self.lost else f"{cut} of {side} tokens cut"


@attrs.frozen
class LostInput:
    """What the tokenizer ``tokenize`` of implementation ``impl`` drops from a
    corpus.  ``non_ascii``: every token it loses or cuts has a non-ASCII
    character in it."""

    impl: str
    tokenize: str
    hyp: Loss
    ref: Loss
    non_ascii: bool

    def message(self) -> str:
        """One line, e.g. ``rouge-score drops non-ASCII text: 87.5% of
        hypothesis tokens and 90.0% of reference tokens lost (tokenize=rouge-score)``."""
        what = "non-ASCII text" if self.non_ascii else "part of the input"
        sides = [text for text in (self.hyp.describe("hypothesis"),
                                   self.ref.describe("reference")) if text]
        return f"{self.impl} drops {what}: {'; '.join(sides)} (tokenize={self.tokenize})"

    def to_json(self) -> dict[str, object]:
        return {
            "impl": self.impl, "tokenize": self.tokenize, "non_ascii": self.non_ascii,
            **{f"{side}_{key}": value
               for side, loss in (("hyp", self.hyp), ("ref", self.ref))
               for key, value in attrs.asdict(loss).items()},
        }


def lost_input(
    impl: str, tokenize: str, hyps: Sequence[str], refs: Iterable[Sequence[str | None]]
) -> LostInput | None:
    """What the tokenizer ``tokenize`` (a value of the ``tokenize`` axis: the
    implementation's declared or chosen one) drops from the corpus, or None
    when it drops nothing, or cannot run here (MeCab not installed)."""
    ref_texts = [ref for seg in refs for ref in seg if ref is not None]
    try:
        keeps_ascii = get_tokenizer(tokenize).keeps_ascii
        if keeps_ascii and all(text.isascii() for text in (*hyps, *ref_texts)):
            return None  # the usual case, decided at once
        hyp, ref = _tokens(hyps), _tokens(ref_texts)
        damaged = {}
        for token in hyp.keys() | ref.keys():
            if keeps_ascii and token.isascii():
                continue
            letters, kept = _letters_kept(tokenize, token)
            if kept < letters:
                damaged[token] = kept
    except (TokenizerUnavailable, ConventionError):
        return None
    if not damaged:
        return None
    return LostInput(impl, tokenize, _loss(hyp, damaged), _loss(ref, damaged),
                     all(not token.isascii() for token in damaged))


def _tokens(texts: Iterable[str]) -> Counter[str]:
    """The tokens (see the module's docstring) of ``texts``, counted.  (One split of
    all texts joined and one test per distinct piece: this runs on every corpus
    ``score`` is given, and a test per piece would cost a third of the scoring.)"""
    pieces = Counter(" ".join(texts).split())
    return Counter({piece: n for piece, n in pieces.items() if _ALNUM.search(piece)})


@lru_cache(maxsize=1 << 16)
def _letters_kept(tokenize: str, token: str) -> tuple[int, int]:
    """How many letters and digits ``token`` has, and how many of them the
    tokenizer keeps."""
    kept = "".join(get_tokenizer(tokenize)(token))
    return len(_ALNUM.findall(token)), len(_ALNUM.findall(kept))


def _loss(tokens: Counter[str], damaged: dict[str, int]) -> Loss:
    lost = sum(count for token, count in tokens.items() if damaged.get(token) == 0)
    cut = sum(count for token, count in tokens.items() if damaged.get(token, 0) > 0)
    return Loss(lost, cut, tokens.total())


def _percent(part: int, whole: int) -> str:
    """``87.5%``; a share that rounds to 0.0% but is not 0 is ``under 0.1%``."""
    share = part / whole if whole else 0.0
    text = f"{share:.1%}"
    return "under 0.1%" if text == "0.0%" and part else text


__all__ = ["Loss", "LostInput", "lost_input"]

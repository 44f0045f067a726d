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
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import attrs

from metricdiff.cases.case import Sample
from metricdiff.errors import MetricdiffWarning
from metricdiff.impls.text.tokenizers import TokenizerUnavailable, get_tokenizer
from metricdiff.profiles import ConventionError

#: A letter or digit: ``\w`` minus the underscore is exactly ``str.isalnum``.
_ALNUM = re.compile(r"[^\W_]")
#: Beyond this share of a side's tokens lost, a score is not about the text.
OVER = 0.5
#: A whitespace-separated piece of ASCII text without a letter or digit: no token.
_NO_ALNUM = re.compile(r"(?<!\S)[^\sA-Za-z0-9]+(?!\S)")


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

    def verdict(self, names: Sequence[str] = ()) -> str | None:
        """When more than half of a side's tokens are lost (wholly or in part),
        that plainly: ``rouge-score lost 98.9% of the hypothesis tokens: its score
        is not about this text``; else None.  ``names``: the implementations
        that lose it alike (default: this one)."""
        who = list(names) or [self.impl]
        sides = [(side, loss) for side, loss in (("hypothesis", self.hyp),
                                                  ("reference", self.ref))
                 if loss.tokens and (loss.lost + loss.cut) / loss.tokens > OVER]
        if not sides:
            return None
        shares = " and ".join(f"{_percent(loss.lost + loss.cut, loss.tokens)} of the {side} "
                              "tokens" for side, loss in sides)
        partly = " (wholly or in part)" if any(loss.cut for _, loss in sides) else ""
        whose = "its score is" if len(who) == 1 else "their scores are"
        return f"{', '.join(who)} lost {shares}{partly}: {whose} not about this text"

    def share(self) -> str:
        """The share of each side's tokens lost or cut, short, for a table cell:
        ``hyp 87.5%, ref 90.0%``."""
        return ", ".join(f"{side} {_percent(loss.lost + loss.cut, loss.tokens)}"
                         for side, loss in (("hyp", self.hyp), ("ref", self.ref))
                         if loss.lost or loss.cut)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LostInput:
        """What ``to_json`` wrote (a KeyError or TypeError when it is malformed)."""
        def loss(side: str) -> Loss:
            return Loss(*(_count(data[f"{side}_{key}"]) for key in ("lost", "cut", "tokens")))

        return cls(str(data["impl"]), str(data["tokenize"]), loss("hyp"), loss("ref"),
                   bool(data["non_ascii"]))

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
    tally = LostInputTally(impl, tokenize)
    tally.add(hyps, refs)
    return tally.result()


def lost_input_each(asked: Sequence[tuple[str, str | None, Sample]]) -> list[LostInput | None]:
    """``lost_input`` of each (implementation, tokenizer, corpus), counted once
    per tokenizer and corpus (None: no tokenizer to count, so nothing)."""
    counted: dict[tuple[str, Sample], LostInput | None] = {}
    found: list[LostInput | None] = []
    for impl, tokenize, corpus in asked:
        if tokenize is not None and (tokenize, corpus) not in counted:
            counted[(tokenize, corpus)] = lost_input("", tokenize, *corpus)
        lost = None if tokenize is None else counted[(tokenize, corpus)]
        found.append(None if lost is None else attrs.evolve(lost, impl=impl))
    return found


class LostInputTally:
    """``lost_input`` over a corpus given a batch of segments at a time: each
    side's count of tokens, and each token the tokenizer might damage, counted
    (the rest are ASCII tokens of a tokenizer that keeps ASCII: counted, not
    kept), so memory grows with the vocabulary of such tokens, not the corpus."""

    def __init__(self, impl: str, tokenize: str) -> None:
        self.impl, self.tokenize = impl, tokenize
        try:
            self.keeps_ascii: bool | None = get_tokenizer(tokenize).keeps_ascii
        except (TokenizerUnavailable, ConventionError):
            self.keeps_ascii = None  # cannot run here: nothing to say
        self.totals = [0, 0]  # tokens of the hypotheses, of the references
        self.suspects: list[Counter[str]] = [Counter(), Counter()]

    def add(self, hyps: Sequence[str], refs: Iterable[Sequence[str | None]]) -> None:
        """A batch of segments: their hypotheses and each one's references."""
        if self.keeps_ascii is None:
            return
        ref_texts = [ref for seg in refs for ref in seg if ref is not None]
        for side, texts in enumerate((hyps, ref_texts)):
            joined = " ".join(texts)
            if self.keeps_ascii and joined.isascii():
                # The usual case, decided at once: every token kept, only counted.
                self.totals[side] += len(joined.split()) - len(_NO_ALNUM.findall(joined))
                continue
            for token, count in _tokens(joined).items():
                self.totals[side] += count
                if not (self.keeps_ascii and token.isascii()):
                    self.suspects[side][token] += count

    def result(self) -> LostInput | None:
        """What the tokenizer drops from the segments added, or None."""
        damaged = {}
        try:
            for token in self.suspects[0].keys() | self.suspects[1].keys():
                letters, kept = _letters_kept(self.tokenize, token)
                if kept < letters:
                    damaged[token] = kept
        except (TokenizerUnavailable, ConventionError):
            return None
        if not damaged:
            return None
        hyp, ref = (_loss(suspects, damaged, total)
                    for suspects, total in zip(self.suspects, self.totals, strict=True))
        return LostInput(self.impl, self.tokenize, hyp, ref,
                         all(not token.isascii() for token in damaged))


def warn_lost(found: Iterable[LostInput], stacklevel: int = 3) -> None:
    """A ``MetricdiffWarning`` for each loss (``message``) and, where more than
    half of a side is lost, the ``verdict``: the Python API's way of saying so."""
    for lost in found:
        for text in (lost.message(), lost.verdict()):
            if text is not None:
                warnings.warn(text, MetricdiffWarning, stacklevel=stacklevel)


def _tokens(joined: str) -> Counter[str]:
    """The tokens (see the module's docstring) of texts joined by spaces, counted.
    (One split and one test per distinct piece: this runs on every corpus
    ``score`` is given, and a test per piece would cost a third of the scoring.)"""
    pieces = Counter(joined.split())
    return Counter({piece: n for piece, n in pieces.items() if _ALNUM.search(piece)})


def emptied(tokenize: str, text: str) -> bool:
    """Whether ``text`` has a letter or digit and the tokenizer ``tokenize`` keeps
    none of them (False where the tokenizer cannot run here): the text reaches
    the metric as no token at all, the segment an implementation most often dies
    on (ROUGE-1.5.5 divides by a reference's token count unguarded)."""
    try:
        letters, kept = _letters_kept(tokenize, text)
    except (TokenizerUnavailable, ConventionError):
        return False
    return letters > 0 and kept == 0


@lru_cache(maxsize=1 << 16)
def _letters_kept(tokenize: str, token: str) -> tuple[int, int]:
    """How many letters and digits ``token`` has, and how many of them the
    tokenizer keeps."""
    kept = "".join(get_tokenizer(tokenize)(token))
    return len(_ALNUM.findall(token)), len(_ALNUM.findall(kept))


def _loss(tokens: Counter[str], damaged: dict[str, int], total: int) -> Loss:
    lost = sum(count for token, count in tokens.items() if damaged.get(token) == 0)
    cut = sum(count for token, count in tokens.items() if damaged.get(token, 0) > 0)
    return Loss(lost, cut, total)


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected a count, got {type(value).__name__}")
    return value


def _percent(part: int, whole: int) -> str:
    """``87.5%``; a share that rounds to 0.0% but is not 0 is ``under 0.1%``."""
    share = part / whole if whole else 0.0
    text = f"{share:.1%}"
    return "under 0.1%" if text == "0.0%" and part else text


__all__ = ["OVER", "Loss", "LostInput", "LostInputTally", "emptied", "lost_input",
           "lost_input_each", "warn_lost"]

"""The ``zh`` and ``zh-sacrebleu`` tokenizers: the WMT Chinese BLEU tokenization.

Both follow the WMT Chinese tokenization script by Shujian Huang (Python 2, 2017),
which sacrebleu's ``zh`` tokenizer reproduces (spec/bleu.md, BLEU-TOK-ZH):

1. strip leading and trailing whitespace;
2. put spaces round every character in the CJK ranges below, so that each is a token;
3. apply mteval-v13a's four punctuation rules (``mteval13a.split_western``: ASCII
   punctuation and symbols split off, ``.``/``,`` split unless between digits, ``-``
   split after a digit) *without* 13a's padding with one space on each side, and
   without 13a's language-independent part (no ``<skipped>`` removal, no entity
   decoding);
4. collapse whitespace.

Because of step 3 a ``.`` at the very start or end of a line can stay glued to a digit
(``1.`` and ``.5`` are single tokens, where ``13a`` gives ``1 .`` and ``. 5``) and
``&amp;`` becomes ``& amp ;`` (``13a`` gives ``&``).  (The script rewrites the
``<seg>`` lines of an SGML file, the input of mteval-v13a.pl, whose own 13a
tokenization would then run over its output a second time; neither sacrebleu nor
these tokenizers add that second pass.)

The CJK ranges are the script's table (CJK Unified Ideographs and Extension A,
compatibility ideographs, Extension B, the compatibility supplement, fullwidth and
halfwidth forms, radicals, strokes, CJK punctuation, Bopomofo, vertical forms,
miscellaneous symbols, dingbats and the enclosed/compatibility CJK blocks).  The
script writes the bounds as Python escapes such as ``'\\u20000'``; a ``\\u`` escape
takes exactly four hex digits, so that string is U+2000 followed by ``'0'``, and the
test ``start <= char <= end`` on one character then means U+2001 <= char <= U+2A6D.
The two tokenizers differ only in how they read the bounds:

``zh``
    reads each bound as the code point the author meant: Extension B is
    U+20000..U+2A6D6 and the compatibility supplement U+2F800..U+2FA1D.

``zh-sacrebleu``
    reproduces what the escapes evaluate to (sacrebleu 2.x, and the original script):
    every character from U+2001 to U+2A6D counts as Chinese, which takes in general
    punctuation (``—``, ``…``, ``“``), arrows, mathematical operators, enclosed
    alphanumerics (``ⓐ``) and more, so ``a—b`` gives ``a — b`` where ``zh`` gives
    ``a—b``; and Extension B characters such as U+20000 are not split at all.  The
    supplement's bounds evaluate to U+2F81..U+2FA1, already inside the Kangxi
    radicals range, so they change nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from metricdiff.impls.text.tokenizers.base import Tokenizer, memoised
from metricdiff.impls.text.tokenizers.mteval13a import split_western

# The script's table, each bound written as the hex digits after its "\u".
_RANGES: tuple[tuple[str, str], ...] = (
    ("3400", "4db5"),  # CJK Unified Ideographs Extension A, release 3.0
    ("4e00", "9fa5"),  # CJK Unified Ideographs, release 1.1
    ("9fa6", "9fbb"),  # CJK Unified Ideographs, release 4.1
    ("f900", "fa2d"),  # CJK Compatibility Ideographs, release 1.1
    ("fa30", "fa6a"),  # CJK Compatibility Ideographs, release 3.2
    ("fa70", "fad9"),  # CJK Compatibility Ideographs, release 4.1
    ("20000", "2a6d6"),  # CJK Unified Ideographs Extension B, release 3.1
    ("2f800", "2fa1d"),  # CJK Compatibility Ideographs Supplement, release 3.1
    ("ff00", "ffef"),  # fullwidth ASCII and punctuation, halfwidth kana and Hangul
    ("2e80", "2eff"),  # CJK Radicals Supplement
    ("3000", "303f"),  # CJK Symbols and Punctuation
    ("31c0", "31ef"),  # CJK Strokes
    ("2f00", "2fdf"),  # Kangxi Radicals
    ("2ff0", "2fff"),  # Ideographic Description Characters
    ("3100", "312f"),  # Bopomofo
    ("31a0", "31bf"),  # Bopomofo Extended
    ("fe10", "fe1f"),  # Vertical Forms
    ("fe30", "fe4f"),  # CJK Compatibility Forms
    ("2600", "26ff"),  # Miscellaneous Symbols
    ("2700", "27bf"),  # Dingbats
    ("3200", "32ff"),  # Enclosed CJK Letters and Months
    ("3300", "33ff"),  # CJK Compatibility
)


def _intended(start: str, end: str) -> tuple[int, int]:
    return int(start, 16), int(end, 16)


def _as_escaped(start: str, end: str) -> tuple[int, int]:
    """The code points c with ``'\\uSTART' <= chr(c) <= '\\uEND'`` in Python.

    ``'\\uXXXXY'`` is chr(0xXXXX) + 'Y'; one character is greater than or equal to
    it exactly when it is greater than chr(0xXXXX), and less than or equal to it
    exactly when it is at most chr(0xXXXX).
    """
    low = int(start[:4], 16) + (1 if len(start) > 4 else 0)
    return low, int(end[:4], 16)


def _cjk_run_pattern(ranges: list[tuple[int, int]]) -> re.Pattern[str]:
    members = "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in ranges)
    return re.compile(f"[{members}]+")


def _spaced(match: re.Match[str]) -> str:
    # One space between the characters of a run and one on each side; runs never
    # contain digits, "." "," or "-", so the amount of space changes nothing later.
    return f" {' '.join(match[0])} "


class ZhTokenizer(Tokenizer):
    """WMT Chinese tokenization with the intended CJK ranges (see the module doc).

    ``sacrebleu_ranges=True`` reads the ranges as the script's escapes evaluate
    instead; that is the ``zh-sacrebleu`` tokenizer.  Results are cached per instance
    (65,536 segments); every call returns a new list.
    """

    name = "zh"

    def __init__(self, sacrebleu_ranges: bool = False) -> None:
        bounds = _as_escaped if sacrebleu_ranges else _intended
        self.ranges: list[tuple[int, int]] = [bounds(start, end) for start, end in _RANGES]
        self._cjk_run = _cjk_run_pattern(self.ranges)
        self._cached: Callable[[str], tuple[str, ...]] = memoised(self._tokenize)

    def is_chinese(self, char: str) -> bool:
        """Whether the CJK table (as this tokenizer reads it) covers ``char``."""
        code = ord(char)
        return any(low <= code <= high for low, high in self.ranges)

    def _tokenize(self, text: str) -> tuple[str, ...]:
        return tuple(split_western(self._cjk_run.sub(_spaced, text.strip())).split())

    def __call__(self, text: str) -> list[str]:
        return list(self._cached(text))


class ZhSacrebleuTokenizer(ZhTokenizer):
    """``zh`` with the CJK ranges sacrebleu actually uses: U+2001..U+2A6D counts as
    Chinese and Extension B does not (a quirk; see the module doc)."""

    name = "zh-sacrebleu"

    def __init__(self) -> None:
        super().__init__(sacrebleu_ranges=True)

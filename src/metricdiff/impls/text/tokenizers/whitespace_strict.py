"""The ``whitespace-strict`` tokenizer, ``text.split(" ")``, and
``whitespace-strict-trimmed``, ``text.strip().split(" ")``.

Unlike ``none`` (``str.split()``), only the ASCII space separates tokens, and
every space does: two spaces in a row, or a leading or trailing space, make an
empty token ("a  b" -> ["a", "", "b"]; "" -> [""]), and tabs, newlines and other
whitespace stay inside tokens.  Implementations that split this way count the
empty tokens as words, which changes lengths and n-gram counts.
``whitespace-strict-trimmed`` first strips the ends of the line (every Unicode
space, as ``str.strip()`` does), as a reader of one segment per line does
(compare-mt's ``corpus_utils.iterate_tokens``): "" still gives [""].
"""

from __future__ import annotations

from metricdiff.impls.text.tokenizers.base import Tokenizer


class WhitespaceStrictTokenizer(Tokenizer):
    """``text.split(" ")``: empty tokens included."""

    name = "whitespace-strict"

    def __call__(self, text: str) -> list[str]:
        return text.split(" ")


class WhitespaceStrictTrimmedTokenizer(Tokenizer):
    """``text.strip().split(" ")``: the ends stripped, inner empty tokens kept."""

    name = "whitespace-strict-trimmed"

    def __call__(self, text: str) -> list[str]:
        return text.strip().split(" ")

"""The ``whitespace-strict`` tokenizer: ``text.split(" ")``.

Unlike ``none`` (``str.split()``), only the ASCII space separates tokens, and
every space does: two spaces in a row, or a leading or trailing space, make an
empty token ("a  b" -> ["a", "", "b"]; "" -> [""]), and tabs, newlines and other
whitespace stay inside tokens.  Implementations that split this way count the
empty tokens as words, which changes lengths and n-gram counts.
"""

from __future__ import annotations

from metricdiff.implementations.text.tokenizers.base import Tokenizer


class WhitespaceStrictTokenizer(Tokenizer):
    """``text.split(" ")``: empty tokens included."""

    name = "whitespace-strict"

    def __call__(self, text: str) -> list[str]:
        return text.split(" ")

"""The ``whitespace-ascii`` tokenizer: runs of ASCII whitespace separate tokens.

This is Perl's ``split`` (awk mode, ``split ' '``) on a line read as bytes, as
Moses' multi-bleu.perl does: only space, tab, newline, vertical tab, form feed
and carriage return separate tokens.  Unlike ``none`` (``str.split()``), U+00A0,
U+3000, U+2028, U+0085, U+001C..U+001F and the other whitespace of Unicode stay
inside tokens ("a\u00a0b" is one token).  Leading and trailing whitespace make
no empty token.
"""

from __future__ import annotations

import re

from metricdiff.impls.text.tokenizers.base import Tokenizer

_ASCII_WHITESPACE = re.compile(r"[ \t\n\x0b\x0c\r]+")


class WhitespaceAsciiTokenizer(Tokenizer):
    """Split on ASCII whitespace only; no empty tokens."""

    name = "whitespace-ascii"

    def __call__(self, text: str) -> list[str]:
        return [token for token in _ASCII_WHITESPACE.split(text) if token]

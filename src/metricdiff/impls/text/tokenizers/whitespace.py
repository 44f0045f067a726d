"""The ``none`` tokenizer: split on whitespace, as ``str.split()`` does."""

from __future__ import annotations

from metricdiff.impls.text.tokenizers.base import Tokenizer


class WhitespaceTokenizer(Tokenizer):
    """Tokens are the maximal runs of non-whitespace characters (``str.isspace``)."""

    name = "none"

    def __call__(self, text: str) -> list[str]:
        return text.split()

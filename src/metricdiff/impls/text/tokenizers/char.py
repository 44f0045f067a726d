"""The ``char`` tokenizer: every non-space character is a token."""

from __future__ import annotations

from metricdiff.impls.text.tokenizers.base import Tokenizer


class CharTokenizer(Tokenizer):
    """Each character that is not whitespace is a token of its own."""

    name = "char"

    def __call__(self, text: str) -> list[str]:
        return [char for char in text if not char.isspace()]

"""The ``period-split`` tokenizer: every ``'.'`` separates tokens and is dropped,
then whitespace does.

The text is cut at each ``'.'`` (``text.split(".")``), pieces of length 0 are
dropped, each other piece has its whitespace normalised (``" ".join(piece.split())``)
and is split on ``" "``.  So the tokens are those of ``none`` except that ``.``
separates tokens and vanishes (``3.5`` -> ``3``, ``5``; ``hat.`` -> ``hat``), and a
piece of whitespace only (``"\\n"``, ``"  .  "``) is one empty token each.  A
line break is whitespace inside a piece, so the text is tokenized whole
(``splits_lines``).
"""

from __future__ import annotations

from typing import ClassVar

from metricdiff.impls.text.tokenizers.base import Tokenizer


class PeriodSplitTokenizer(Tokenizer):
    """Pieces between periods, each normalised and split on spaces."""

    name = "period-split"
    splits_lines: ClassVar[bool] = True

    def __call__(self, text: str) -> list[str]:
        return [
            token
            for piece in text.split(".")
            if piece
            for token in " ".join(piece.split()).split(" ")
        ]

"""The ``nltk-word`` tokenizer: NLTK's ``TreebankWordTokenizer``.

This is the Penn Treebank tokenizer alone (``TreebankWordTokenizer().tokenize``),
not ``nltk.word_tokenize``, which first splits sentences with the Punkt model and
so needs the ``punkt`` data package, which cannot be downloaded here.  On a single
sentence the two agree except where Punkt would split sentences (the Treebank
tokenizer only splits off a period at the very end of the text).

Needs nltk: ``pip install 'metricdiff[peers]'``.
"""

from __future__ import annotations

from typing import Any

from metricdiff.errors import TokenizerUnavailable
from metricdiff.impls.text.tokenizers.base import Tokenizer

_INSTALL = "pip install 'metricdiff[peers]'"


class NltkWordTokenizer(Tokenizer):
    """NLTK's Treebank word tokenizer.

    Raises TokenizerUnavailable when nltk is not installed.
    """

    name = "nltk-word"

    def __init__(self) -> None:
        try:
            from nltk.tokenize.treebank import TreebankWordTokenizer
        except ImportError:
            raise TokenizerUnavailable(f"nltk-word needs nltk: {_INSTALL}") from None
        self._tokenizer: Any = TreebankWordTokenizer()

    def __call__(self, text: str) -> list[str]:
        return list(self._tokenizer.tokenize(text))

"""The ``ja-mecab`` tokenizer: Japanese morphemes from MeCab with the IPA dictionary,
as sacrebleu's ``ja-mecab`` (``mecab.py`` says what that means); a U+3000 that
MeCab emits as a token is dropped by the whitespace split, as in sacrebleu.

Needs ``mecab-python3`` and ``ipadic``: ``pip install 'metricdiff[ja]'``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from metricdiff.implementations.text.tokenizers.mecab import MecabTokenizer


class MecabJaTokenizer(MecabTokenizer):
    """MeCab + IPA dictionary (392,126 entries) in wakati mode."""

    name = "ja-mecab"
    extra = "ja"
    packages = "mecab-python3 and ipadic"
    engine = "MeCab"
    dictionary = "the IPA dictionary"
    dictionary_size = 392126
    version_suffix = "IPA"

    @staticmethod
    def tagger_and_arguments() -> tuple[Callable[[str], Any], str]:
        import ipadic
        import MeCab

        return MeCab.Tagger, str(ipadic.MECAB_ARGS)

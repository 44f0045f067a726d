"""The ``ja-mecab`` tokenizer: Japanese morphemes from MeCab with the IPA dictionary.

Follows sacrebleu's ``ja-mecab``: a ``MeCab.Tagger`` built from the ``ipadic``
package's arguments plus ``-Owakati`` (space-separated surface forms), the segment
stripped before parsing, and a check that the dictionary is the IPA one (392,126
entries) with no user dictionary, since another dictionary cuts words differently.
The tokens are MeCab's output split on whitespace, which is what sacrebleu's
``.split()`` of its output gives (so a U+3000 that MeCab emits as a token is dropped).

Needs ``mecab-python3`` and ``ipadic``: ``pip install 'metricdiff[ja]'``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from metricdiff.errors import TokenizerUnavailable
from metricdiff.implementations.text.tokenizers.base import Tokenizer

_INSTALL = "pip install 'metricdiff[ja]'"
_IPADIC_SIZE = 392126


class MecabJaTokenizer(Tokenizer):
    """MeCab + IPA dictionary in wakati mode, as sacrebleu's ``ja-mecab``.

    Raises TokenizerUnavailable when ``mecab-python3`` or ``ipadic`` is missing or
    the dictionary is not the expected one.  Results are cached (65,536 segments).
    """

    name = "ja-mecab"

    def __init__(self) -> None:
        try:
            import ipadic
            import MeCab
        except ImportError as error:
            raise TokenizerUnavailable(
                f"ja-mecab needs mecab-python3 and ipadic ({error.name or error} is missing): "
                f"{_INSTALL}"
            ) from None
        try:
            self._tagger: Any = MeCab.Tagger(f"{ipadic.MECAB_ARGS} -Owakati")
        except RuntimeError as error:
            raise TokenizerUnavailable(
                f"ja-mecab could not start MeCab ({error}); reinstall with {_INSTALL}"
            ) from None
        info = self._tagger.dictionary_info()
        if info.size != _IPADIC_SIZE or info.next is not None:
            raise TokenizerUnavailable(
                f"ja-mecab needs the IPA dictionary alone ({_IPADIC_SIZE} entries), "
                f"got {info.size} entries{' and a user dictionary' if info.next else ''}: "
                f"{_INSTALL}"
            )
        self.version: str = f"{self._tagger.version()}-IPA"
        self._cached: Callable[[str], tuple[str, ...]] = lru_cache(maxsize=2**16)(self._tokenize)

    def _tokenize(self, text: str) -> tuple[str, ...]:
        return tuple(self._tagger.parse(text.strip()).split())

    def __call__(self, text: str) -> list[str]:
        return list(self._cached(text))

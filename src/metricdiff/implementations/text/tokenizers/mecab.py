"""What the MeCab tokenizers (``ja-mecab``, ``ko-mecab``) share, each following
sacrebleu's tokenizer of the same name: a tagger built from its dictionary
package's arguments plus ``-Owakati`` (space-separated surface forms), the
segment stripped before parsing, and a check that the dictionary is the expected
one with no user dictionary, since another dictionary cuts words differently.
The tokens are MeCab's output split on whitespace, which is what sacrebleu's
``.split()`` of its output gives."""

from __future__ import annotations

import abc
from collections.abc import Callable
from functools import lru_cache
from typing import Any, ClassVar

from metricdiff.implementations.text.tokenizers.base import Tokenizer, TokenizerUnavailable


class MecabTokenizer(Tokenizer):
    """A MeCab tagger in wakati mode with one expected dictionary.

    Raises TokenizerUnavailable when the binding or the dictionary package is
    missing or the dictionary is not the expected one.  Results are cached
    (65,536 segments).
    """

    #: The extra of ``pip install 'metricdiff[EXTRA]'`` that installs both packages.
    extra: ClassVar[str]
    #: The two packages, as the error message names them.
    packages: ClassVar[str]
    #: The engine, as the error message names it.
    engine: ClassVar[str]
    #: The dictionary, its number of entries, and the suffix of ``version``.
    dictionary: ClassVar[str]
    dictionary_size: ClassVar[int]
    version_suffix: ClassVar[str]

    @staticmethod
    @abc.abstractmethod
    def tagger_and_arguments() -> tuple[Callable[[str], Any], str]:
        """The binding's ``Tagger`` and the dictionary package's ``MECAB_ARGS``
        (raises ImportError if either is missing)."""

    def __init__(self) -> None:
        install = f"pip install 'metricdiff[{self.extra}]'"
        try:
            tagger, arguments = self.tagger_and_arguments()
        except ImportError as error:
            raise TokenizerUnavailable(
                f"{self.name} needs {self.packages} ({error.name or error} is missing): "
                f"{install}"
            ) from None
        try:
            self._tagger: Any = tagger(f"{arguments} -Owakati")
        except RuntimeError as error:
            raise TokenizerUnavailable(
                f"{self.name} could not start {self.engine} ({error}); reinstall with {install}"
            ) from None
        info = self._tagger.dictionary_info()
        if info.size != self.dictionary_size or info.next is not None:
            raise TokenizerUnavailable(
                f"{self.name} needs {self.dictionary} alone ({self.dictionary_size} entries), "
                f"got {info.size} entries{' and a user dictionary' if info.next else ''}: "
                f"{install}"
            )
        self.version: str = f"{self._tagger.version()}-{self.version_suffix}"
        self._cached: Callable[[str], tuple[str, ...]] = lru_cache(maxsize=2**16)(self._tokenize)

    def _tokenize(self, text: str) -> tuple[str, ...]:
        return tuple(self._tagger.parse(text.strip()).split())

    def __call__(self, text: str) -> list[str]:
        return list(self._cached(text))

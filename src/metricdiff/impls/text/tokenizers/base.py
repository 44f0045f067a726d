"""The tokenizer interface and case folding, shared by every metric family."""

from __future__ import annotations

import abc
import sys
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import ClassVar

#: Texts whose tokens a memo keeps, as sacrebleu's tokenizers do.
MEMO_TEXTS = 2**16


def memoised(tokenize: Callable[[str], Iterable[str]]) -> Callable[[str], tuple[str, ...]]:
    """``tokenize`` remembered for the last ``MEMO_TEXTS`` texts, as a tuple (no
    caller can change what is remembered) of interned tokens.

    Interned because the memo is what a large audit holds: each token a
    tokenizer cuts is a string of its own, about 62 bytes, and the 13a and intl
    memos of a 30,000-line BLEU audit held 148 of its main process's 297 MB in
    them.  Interned, a word the corpus repeats is held once and a remembered
    text costs a pointer per token.  ``sys.intern`` returns an equal string, so
    no token changes."""
    def interned(text: str) -> tuple[str, ...]:
        return tuple(map(sys.intern, tokenize(text)))

    return lru_cache(maxsize=MEMO_TEXTS)(interned)


class Tokenizer(abc.ABC):
    """Cuts one segment (one line of text) into tokens.

    Subclasses are small and stateless apart from caches; ``name`` is the value of
    the ``tokenize`` axis that selects them.
    """

    name: str
    #: Whether every ASCII letter and digit of a text reaches some token (case
    #: aside; markup aside too: mteval's 13a and intl unescape ``&quot;`` and drop
    #: ``<skipped>``, which stand for no text).  ``lost_input`` trusts it to skip
    #: ASCII text, which is most text; tests/impls/text/test_lost_input.py checks it for
    #: every tokenizer.
    keeps_ascii: ClassVar[bool] = True
    #: Whether a line break is already a separator to it that it counts as such
    #: (a blank text can still give a token): ROUGE's text pipeline then hands it
    #: the text whole instead of line by line.
    splits_lines: ClassVar[bool] = False

    @abc.abstractmethod
    def __call__(self, text: str) -> list[str]:
        """The tokens of ``text``."""

    def undecoded(self, text: str) -> list[str]:
        """The tokens of ``text`` with mteval's markup (entities, ``<skipped>``)
        left as written (``entities=keep``); the same as ``__call__`` for a
        tokenizer that decodes none."""
        return self(text)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def lowercase(text: str, mode: str) -> str:
    """Fold case by the ``lowercase`` axis: ``none``, ``unicode`` or ``ascii``."""
    if mode == "unicode":
        return text.lower()
    if mode == "ascii":
        return text.translate(_ASCII_LOWER)
    return text

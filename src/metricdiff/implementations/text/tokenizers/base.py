"""The tokenizer interface and case folding, shared by every metric family."""

from __future__ import annotations

import abc
from typing import ClassVar


class Tokenizer(abc.ABC):
    """Cuts one segment (one line of text) into tokens.

    Subclasses are small and stateless apart from caches; ``name`` is the value of
    the ``tokenize`` axis that selects them.
    """

    name: str
    #: Whether every ASCII letter and digit of a text reaches some token (case
    #: aside; markup aside too: mteval's 13a and intl unescape ``&quot;`` and drop
    #: ``<skipped>``, which stand for no text).  ``lost_input`` trusts it to skip
    #: ASCII text, which is most text; tests/test_lost_input.py checks it for
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

"""The ``intl`` tokenizer: the ``tokenization_international`` sub of mteval-v14.pl.

The rules, in the script's order (it is what ``--international-tokenization`` runs):

1. remove every ``<skipped>`` tag;
2. turn each line separator ``\\p{Zl}`` (U+2028; not ``\\n``) into a space;
3. decode ``&quot;``, ``&amp;``, ``&lt;``, ``&gt;``, ``&apos;`` in that order, one pass
   each;
4. ``s/(\\P{N})(\\p{P})/$1 $2 /g`` then ``s/(\\p{P})(\\P{N})/ $1 $2/g``: split off
   Unicode punctuation unless it has a number on both sides (``1,000`` stays whole);
5. ``s/(\\p{S})/ $1 /g``: split off every Unicode symbol;
6. collapse whitespace.

The script's ``lc`` is left out (case folding is the ``lowercase`` axis), and so is
its ``-e`` option (off by default) that puts spaces round every non-ASCII character.

Steps 1-3 follow mteval-v14, the specification, and are a known difference from
sacrebleu's ``intl`` tokenizer, which leaves ``<skipped>`` and entities as they are
(its docstring: entities "should never appear in MT system outputs", sacrebleu
issue #138).  So ``AT&amp;T`` gives ``AT & T`` here and ``AT & amp ; T`` in
sacrebleu, and ``<skipped>`` gives nothing here and ``< skipped >`` there.  Step 2
changes no tokens: sacrebleu also ends up treating U+2028 as whitespace.

As in the script, the substitutions are global and their matches do not overlap, and
with no padding a number followed by a final full stop keeps it: ``1990.`` is one
token (the script's quirk, which sacrebleu keeps too).

Whitespace is what ``str.split()`` splits on.  The script collapses ``\\p{Z}`` runs and
mteval then splits words on Perl's ``\\s``; both sets agree with Python's except for
U+001C..U+001F, which Python counts as whitespace.  Because only ``\\p{Z}`` is
trimmed, a segment that starts with a tab or newline gives mteval a leading empty
word (Perl's ``split``); that cannot happen with its SGML reader, which collapses
all whitespace before tokenizing, and is not reproduced here.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from metricdiff.impls.text.tokenizers.base import Tokenizer, memoised

_PUNCT_AFTER_NON_NUMBER = regex.compile(r"(\P{N})(\p{P})")
_PUNCT_BEFORE_NON_NUMBER = regex.compile(r"(\p{P})(\P{N})")
_SYMBOL = regex.compile(r"(\p{S})")

_ENTITIES = (
    ("&quot;", '"'),
    ("&amp;", "&"),
    ("&lt;", "<"),
    ("&gt;", ">"),
    ("&apos;", "'"),
)


def decode_v14(text: str) -> str:
    """Steps 1-3 of mteval-v14's international tokenization."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    if "\u2028" in text:
        text = text.replace("\u2028", " ")
    if "&" in text:
        for entity, char in _ENTITIES:
            text = text.replace(entity, char)
    return text


def split_international(text: str) -> str:
    """Steps 4 and 5 of mteval-v14's international tokenization (spaces inserted)."""
    text = _PUNCT_AFTER_NON_NUMBER.sub(r"\1 \2 ", text)
    text = _PUNCT_BEFORE_NON_NUMBER.sub(r" \1 \2", text)
    return str(_SYMBOL.sub(r" \1 ", text))


def tokenize_intl(text: str) -> tuple[str, ...]:
    """All of mteval-v14's international tokenization but the lowercasing, uncached."""
    return tuple(split_international(decode_v14(text)).split())


def tokenize_intl_undecoded(text: str) -> tuple[str, ...]:
    """Steps 2, 4 and 5 only: ``<skipped>`` and entities left as written."""
    return tuple(split_international(text.replace("\u2028", " ")).split())


class TokenizerIntl(Tokenizer):
    """mteval-v14.pl's ``tokenization_international`` without ``lc`` (see the module doc).

    Results are cached per instance (65,536 segments); every call returns a new list.
    """

    name = "intl"

    def __init__(self) -> None:
        self._cached: Callable[[str], tuple[str, ...]] = memoised(tokenize_intl)

    def __call__(self, text: str) -> list[str]:
        return list(self._cached(text))

    def undecoded(self, text: str) -> list[str]:
        return list(tokenize_intl_undecoded(text))

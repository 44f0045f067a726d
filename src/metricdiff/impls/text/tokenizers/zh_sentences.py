"""The ``whitespace-zh-sentences`` tokenizer: rouge-chinese's text handling.

rouge-chinese (PyPI ``rouge-chinese`` 1.0.3, a fork of pltrdy's ``rouge`` for
Chinese) cuts a text into sentences with ``Rouge.cut_sent`` before splitting it
into words: a line break is inserted after ``。！？?`` unless a closing quote
``”’`` follows, after six periods ``......`` and after ``……``, and after such a
mark followed by a closing quote unless ``，。！？?`` comes next; the text is
then right-stripped and split at line breaks.  Each non-empty piece is split on
whitespace (``" ".join(piece.split())``, then ``split(" ")``), so

* Chinese is not segmented into words or characters: the text must come
  segmented (the package's README runs jieba first); unsegmented, a whole clause
  is one token;
* the sentence marks do separate tokens, without a space ("你好。再见" ->
  ["你好。", "再见"]), and stay with the token before them;
* a piece of whitespace only becomes one empty token ("a。 \\nb" -> ["a。", "",
  "b"]).

The ROUGE variants that do not look at sentences see the pieces' words joined,
which is why this is a tokenizer and not a ``sentence_split`` value.
"""

from __future__ import annotations

import re

from metricdiff.impls.text.tokenizers.base import Tokenizer

# cut_sent's four substitutions, in its order.
_BREAKS = (
    (re.compile("([。！？?])([^”’])"), r"\1\n\2"),
    (re.compile(r"(\.{6})([^”’])"), r"\1\n\2"),
    (re.compile("(…{2})([^”’])"), r"\1\n\2"),
    (re.compile("([。！？?][”’])([^，。！？?])"), r"\1\n\2"),
)


def sentence_pieces(text: str) -> list[str]:
    """``cut_sent``'s pieces of ``text``, empty ones dropped."""
    for pattern, replacement in _BREAKS:
        text = pattern.sub(replacement, text)
    return [piece for piece in text.rstrip().split("\n") if piece]


class WhitespaceZhSentencesTokenizer(Tokenizer):
    """Whitespace words of rouge-chinese's sentence pieces (see the module)."""

    name = "whitespace-zh-sentences"

    def __call__(self, text: str) -> list[str]:
        return [word for piece in sentence_pieces(text) for word in piece.split() or [""]]

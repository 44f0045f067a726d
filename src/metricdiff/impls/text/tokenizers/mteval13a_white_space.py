"""The ``13a-white-space`` tokenizer: mteval-v13a's rules (``mteval13a.py``),
then a split on the characters of Unicode's White_Space property, as Rust's
``str::split_whitespace`` does (bleuscore's ``tokenizer_13a``).

Python's ``str.split()`` also splits at U+001C..U+001F (the information
separators); White_Space does not, so those stay inside tokens here.  So does
Perl's ``\\s``, with which the mteval script itself joins its tokens: on this
point this tokenizer is the script's and ``13a`` (sacrebleu's) is not.
"""

from __future__ import annotations

import re

from metricdiff.impls.text.tokenizers.base import Tokenizer
from metricdiff.impls.text.tokenizers.mteval13a import decode_13a, split_western

# Unicode 15's White_Space property, the set Rust's char::is_whitespace tests.
_WHITE_SPACE = re.compile(
    "[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+"
)


class Tokenizer13aWhiteSpace(Tokenizer):
    """13a's rules; tokens separated by White_Space only."""

    name = "13a-white-space"

    def __call__(self, text: str) -> list[str]:
        padded = split_western(f" {decode_13a(text)} ")
        return [token for token in _WHITE_SPACE.split(padded) if token]

"""The ``rouge-score`` tokenizer: what ``rouge_score.tokenize.tokenize(text, None)`` does.

rouge-score 0.1.2 (``rouge_score/tokenize.py``), without its optional stemmer:

1. ``text.lower()`` -- full Unicode lowercasing;
2. every run of characters outside ``[a-z0-9]`` becomes one space
   (``re.sub(r"[^a-z0-9]+", " ", text)``);
3. split on whitespace (``re.split(r"\\s+", text)``);
4. drop every token that is not ``^[a-z0-9]+$`` (that is, the empty strings
   step 3 leaves at either end).

The result is exactly the maximal runs of ``[a-z0-9]`` in ``text.lower()``.

The lowercasing is kept inside this tokenizer, unlike every other one, because it
is part of the definition of the ``rouge-score`` value in docs/conventions.md and
cannot be separated from it: step 2 keeps only *lowercase* ASCII letters, so
without step 1 every uppercase letter would split and vanish ("Hello" -> "ello").
And it must be ``str.lower`` exactly, since that changes what survives step 2:
"İ" (U+0130) lowercases to "i" + U+0307 and so yields the token "i", and the Kelvin
sign "K" (U+212A) lowercases to ASCII "k".  Apart from those few characters whose
lowercase is ASCII, non-ASCII text vanishes entirely: "naïve" -> ["na", "ve"],
"日本語" -> [].  The ``lowercase`` axis applied on top is therefore a no-op for
ASCII output.
"""

from __future__ import annotations

import re

from metricdiff.impls.text.tokenizers.base import Tokenizer, memoised

_TOKEN = re.compile(r"[a-z0-9]+")


class RougeScoreTokenizer(Tokenizer):
    """rouge-score's default tokenizer without stemming: the ``[a-z0-9]+`` runs of
    ``text.lower()``."""

    name = "rouge-score"

    def __call__(self, text: str) -> list[str]:
        return list(_tokens(text))


def _uncached_tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


#: Remembered, since ROUGE-1, -2 and -L of one pair tokenize the same texts.
_tokens = memoised(_uncached_tokens)

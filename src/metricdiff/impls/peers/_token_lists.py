"""What the BLEU adapters share whose library scores token lists rather than
text (compare-mt, fast-bleu): metricdiff tokenizes for them, so every text axis
and the n-gram orders can be set."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from metricdiff.impls.base import ANY
from metricdiff.impls.text.tokenizers import preprocess
from metricdiff.profiles import BleuOptions

#: The ``settable`` axes of such an adapter, before its own.
TOKENIZED_HERE: Mapping[str, Collection[str] | None] = {
    "tokenize": ANY,
    "lowercase": ANY,
    "lowercase_stage": ANY,
    "max_order": ANY,
    "weights": ANY,
}


def tokens(text: str, options: BleuOptions, lowercase: str | None = None) -> list[str]:
    """One segment as the text axes say (``lowercase`` overrides the axis when the
    library folds case itself)."""
    return preprocess(text, options.tokenize, lowercase or options.lowercase,
                      options.lowercase_stage)

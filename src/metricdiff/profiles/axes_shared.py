"""The axes BLEU and ROUGE share: tokenizing, case folding and empty input."""

from __future__ import annotations

from metricdiff.profiles.axis import choice

TOKENIZE = choice(
    "tokenize",
    "tok",
    "How a segment is cut into tokens.",
    "none",
    {
        "none": "split on Unicode whitespace (str.split)",
        "13a": "mteval-v13a rules: punctuation split off, '.' and ',' kept inside numbers",
        "13a-white-space": "13a's rules, tokens split at Unicode White_Space only (Rust's "
        "split_whitespace): U+001C..U+001F stay inside tokens, as with Perl's \\s",
        "intl": "mteval-v14 international rules: Unicode punctuation and symbols split off",
        "zh": "each CJK character is a token, the rest tokenized by 13a rules",
        "zh-sacrebleu": "sacrebleu's zh: its Ext-B range, written '\\u20000', makes "
        "U+2001..U+2A6D (dashes, quotes, arrows...) count as Chinese too",
        "char": "every non-space character is a token",
        "ja-mecab": "Japanese morphemes from MeCab with the IPA dictionary",
        "ko-mecab": "Korean morphemes from MeCab-ko",
        "rouge-score": "str.lower(), then only the runs of [a-z0-9] are kept: every "
        "other character, all non-ASCII text included, is deleted",
        "rouge155": "ROUGE-1.5.5 preprocessing: only the runs of [A-Za-z0-9] are kept: "
        "'-' and every other character, all non-ASCII text included, are deleted",
        "nltk-word": "NLTK's Treebank word tokenizer",
        "whitespace-strict": "str.split(' '): double spaces make empty tokens",
        "period-split": "cut at every '.', which is dropped, then split on whitespace; "
        "a piece of whitespace only between periods is one empty token",
        "whitespace-strict-trimmed": "str.strip().split(' '): the line's ends stripped "
        "first, inner double spaces still make empty tokens",
        "whitespace-ascii": "split on ASCII whitespace only (Perl's split on bytes): "
        "U+00A0, U+3000 and the other Unicode spaces stay inside tokens",
        "whitespace-zh-sentences": "rouge-chinese: str.split() of the pieces left after "
        "a break after Chinese sentence ends (。！？?, '......', '……'), which stay on "
        "their token; a blank piece is one empty token; no word segmentation",
    },
)

LOWERCASE = choice(
    "lowercase",
    "lc",
    "Case folding.",
    "none",
    {
        "none": "case is kept",
        "unicode": "str.lower(): every script, may change length",
        "ascii": "A-Z only, as the Perl scripts do",
    },
)

LOWERCASE_STAGE = choice(
    "lowercase_stage",
    "lcstage",
    "Whether case folding happens before or after tokenizing.",
    "before-tokenize",
    {"before-tokenize": "fold the raw line", "after-tokenize": "fold each token"},
)

EMPTY_POLICY = choice(
    "empty_policy",
    "empty",
    "What an empty hypothesis scored against empty references yields.",
    "zero",
    {"zero": "score 0", "one": "score 1 (100 for BLEU)", "error": "refuse the input"},
)

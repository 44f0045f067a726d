"""ROUGE's text pipeline: one segment as sentences of tokens, ready to count.

Truncation by bytes, sentence splitting (for the variants that see sentences),
case folding and tokenizing, truncation by words, stopword removal, stemming —
in that order, each a convention axis of ``RougeOptions``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache

from metricdiff.impls.text.tokenizers import get_tokenizer, preprocess
from metricdiff.profiles.rouge import RougeOptions

Sentences = list[list[str]]


def truncate_bytes(text: str, limit: int) -> str:
    """The first ``limit`` UTF-8 bytes of ``text`` (ROUGE-TRUNCATE, ``bytes:N``); a
    character cut in the middle is dropped.  The result is tokenized afresh."""
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def truncate_line_chars(text: str, limit: int) -> str:
    """The first ``limit`` characters of the text's lines, each stripped, the line
    breaks between them not counted (ROUGE-TRUNCATE, ``line-chars:N``); the line
    that reaches the limit is cut and the rest dropped."""
    kept: list[str] = []
    used = 0
    for line in text.split("\n"):
        line = line.strip()
        if used + len(line) >= limit:
            kept.append(line[:limit - used])
            break
        kept.append(line)
        used += len(line)
    return "\n".join(kept)


def truncate_words(sentences: Sentences, limit: int) -> Sentences:
    """The first ``limit`` tokens, sentence by sentence (ROUGE-TRUNCATE,
    ``words:N``); counted after tokenizing, before stopwords and stemming."""
    kept: Sentences = []
    left = limit
    for sentence in sentences:
        if left <= 0:
            break
        kept.append(sentence[:left])
        left -= len(kept[-1])
    return kept


_PERIOD = re.compile(r"(?<=\.)")


def split_sentences(text: str, how: str) -> list[str]:
    """The sentences of a segment for summary-level LCS (ROUGE-LSUM, §3.2).

    ``newline``: at each line break; ``period``: after each '.', which stays with
    its sentence; ``punkt``: NLTK's punkt model; ``none``: the whole segment.
    Empty pieces are dropped (a piece that tokenizes to nothing stays, and adds
    nothing).
    """
    if how == "newline":
        pieces = text.split("\n")
    elif how == "period":
        pieces = _PERIOD.split(text)
    elif how == "punkt":
        import nltk  # optional: only sentence_split=punkt needs it

        pieces = nltk.sent_tokenize(text)
    else:
        pieces = [text]
    return [piece for piece in pieces if piece]


@lru_cache(maxsize=4)
def _stemmer(name: str) -> Callable[[str], str]:
    """The ``stemmer`` axis value's stemmer, memoised per token."""
    from metricdiff.impls.text.stemmers import get_stemmer

    return lru_cache(maxsize=1 << 17)(get_stemmer(name))


@cache
def _stopwords(name: str) -> frozenset[str]:
    from metricdiff.impls.text.stopwords import stopword_set

    return stopword_set(name)


def remove_stopwords(sentences: Sentences, options: RougeOptions) -> Sentences:
    """Tokens on the ``stopwords`` list removed, before stemming (ROUGE-STOPWORDS)."""
    if options.stopwords == "none":
        return sentences
    stop = _stopwords(options.stopwords)
    return [[token for token in sentence if token not in stop] for sentence in sentences]


def stem(sentences: Sentences, options: RougeOptions) -> Sentences:
    """Every token longer than ``stem_min_length`` stemmed (ROUGE-STEM)."""
    if options.stemmer == "none":
        return sentences
    return [list(_stemmed(tuple(sentence), options.stemmer, options.stem_min_length))
            for sentence in sentences]


# Remembered, as ``_tokenized`` is: the profiles scored together differ in
# stemming far less often than they share it.
@lru_cache(maxsize=1 << 16)
def _stemmed(sentence: tuple[str, ...], name: str, shortest: int) -> tuple[str, ...]:
    stemmer = _stemmer(name)
    return tuple(stemmer(token) if len(token) > shortest else token for token in sentence)


# Remembered: the attribution of a gap scores one corpus under dozens of
# profiles, whose pipelines differ in stopwords, stemming or truncation far more
# often than in tokenizing and case folding.
@lru_cache(maxsize=1 << 16)
def _tokenized(piece: str, tokenize: str, case: str, stage: str) -> tuple[str, ...]:
    return tuple(preprocess(piece, tokenize, case, stage))


def by_sentence(options: RougeOptions) -> bool:
    """Whether the variant looks at sentences: summary-level LCS (§3.2), and
    ROUGE-1.5.5's ROUGE-W, which always works sentence by sentence."""
    return options.variant == "lsum" or (options.variant == "w" and options.wlcs == "rouge155")


def text_sentences(text: str, options: RougeOptions, *, truncate: bool) -> Sentences:
    """One segment as sentences of tokens, ready to count (ROUGE-TOKENIZE).

    Variants that do not look at sentences get the whole segment as one
    sentence; a line break still separates tokens there, whatever the
    tokenizer, as ROUGE-1.5.5 joins a text's lines with a space (``readText``)
    and rouge-score's tokenizer treats the break as a separator (a tokenizer
    that ``splits_lines`` takes the text whole).  ``truncate``
    says whether the ``truncate`` axis applies to this side (the hypothesis
    always; references with ``truncate_side=both``).
    """
    unit, _, number = options.truncate.partition(":")
    limit = int(number) if truncate and number else None
    if limit is not None and unit == "bytes":
        text = truncate_bytes(text, limit)
    elif limit is not None and unit == "line-chars":
        text = truncate_line_chars(text, limit)
    if by_sentence(options):
        pieces = split_sentences(text, options.sentence_split)
    elif "\n" in text and not get_tokenizer(options.tokenize).splits_lines:
        pieces = split_sentences(text, "newline")
    else:
        pieces = [text]
    sentences = [
        list(_tokenized(piece, options.tokenize, options.lowercase, options.lowercase_stage))
        for piece in pieces
    ]
    if not by_sentence(options) and len(sentences) > 1:
        sentences = [[token for sentence in sentences for token in sentence]]
    if limit is not None and unit == "words":
        sentences = truncate_words(sentences, limit)
    return stem(remove_stopwords(sentences, options), options)

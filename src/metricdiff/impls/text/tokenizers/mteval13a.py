"""The ``13a`` tokenizer: the ``tokenization`` sub of NIST's mteval-v13a.pl.

The rules, in the script's order (mteval-v13a.pl and the default, non-international
tokenizer of mteval-v14.pl are identical here):

language-independent part

1. remove every ``<skipped>`` tag;
2. remove ``-`` + newline (end-of-line hyphenation), then turn each newline into a space;
3. decode ``&quot;``, ``&amp;``, ``&lt;``, ``&gt;`` in that order, one pass each, so
   ``&amp;lt;`` becomes ``<`` but ``&amp;quot;`` stays ``&quot;``;

language-dependent part ("assuming Western languages")

4. pad the segment with one space on each side;
5. split off every character of ``[\\{-\\~\\[-\\` -\\&\\(-\\+\\:-\\@\\/]`` (ASCII
   punctuation and symbols except ``'``, ``,``, ``-``, ``.``);
6. ``s/([^0-9])([\\.,])/$1 $2 /g``: split ``.`` and ``,`` unless preceded by a digit;
7. ``s/([\\.,])([^0-9])/ $1 $2/g``: split ``.`` and ``,`` unless followed by a digit;
8. ``s/([0-9])(-)/$1 $2 /g``: split ``-`` after a digit;
9. collapse whitespace; the tokens are what is left between the spaces.

The script's step of folding A-Z to a-z is left out: case folding is the separate
``lowercase`` axis (see ``metricdiff.impls.text.tokenizers.preprocess``).

Steps 6 and 7 are global substitutions whose matches consume two characters and do
not overlap, and that quirk is kept.  For a ``.`` or ``,`` with no ``.``/``,`` beside
it the two steps simply split it off unless it has a digit on both sides (a missing
neighbour, at the edge of an unpadded string, splits nothing).  Inside a run of two
or more, step 6 takes only every other character (the 1st, 3rd, ... after a
non-digit, else the 2nd, 4th, ...); step 7 then splits all but the last, which stays
glued to a following digit unless step 6 took it.  So ``a..5`` gives ``a . .5``,
``1...2`` gives ``1 . . .2`` and ``1..2`` gives ``1 . . 2``.  The code computes this
per run of ``.``/``,`` (one regex pass) rather than running the two substitutions,
which is about three times faster; the tests check it against the script's
substitutions on every short string over ``a1.,`` and on generated text.

Whitespace is what ``str.split()`` splits on.  Perl's ``\\s`` (the script reads UTF-8)
is the same set except U+001C..U+001F, which Python counts as whitespace and Perl
does not; sacrebleu uses ``str.split()`` too.

This module also exports ``split_western``, steps 5 to 8 without the padding, which
the ``zh`` tokenizer applies the way the WMT Chinese script does.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from metricdiff.impls.text.tokenizers.base import Tokenizer, memoised

# Step 5.  The script's class minus the space (padding a space with spaces changes
# no token).  re.split keeps each matched character as a piece of its own, so joining
# the pieces with " " puts exactly one space on each side of it, as " $1 " does.
_SPLIT_ALWAYS = re.compile(r"([\{-\~\[-\`!-\&\(-\+\:-\@\/])")

# Steps 6 and 7 for a "." or "," with no "." or "," beside it: it is split off when
# a non-digit precedes it (step 6) or a non-digit follows it (step 7).  A missing
# neighbour (start or end of an unpadded string) matches neither step.  The
# patterns start with the literal so that the regex engine can skip ahead to it.
_LONE_PERIOD = re.compile(r"\.(?:(?<=[^0-9]\.)|(?=[^0-9]))")
_LONE_COMMA = re.compile(r",(?:(?<=[^0-9],)|(?=[^0-9]))")

# Steps 6 and 7 in one pass over the maximal runs of "." and ",", for segments in
# which two of them touch (see _period_comma_run).
_PERIOD_COMMA_RUN = re.compile(r"[.,]+")

# Step 8: the digit a match consumes can never be the "-" of an earlier match, so
# a look-behind gives the same result as the script's two-group pattern.
_STEP8 = re.compile(r"-(?<=[0-9]-)")


def _period_comma_run(match: re.Match[str]) -> str:
    """Steps 6 and 7 applied to one maximal run of "." and "," (see the module doc)."""
    run = match[0]
    text = match.string
    start, end = match.span()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    before_non_digit = before != "" and not "0" <= before <= "9"
    after_digit = after != "" and "0" <= after <= "9"
    if len(run) == 1:
        return f" {run} " if before_non_digit or (after != "" and not after_digit) else run
    # Step 6 takes every other character of the run: the 1st, 3rd, ... when a
    # non-digit precedes the run, else (its first pair is run[0:2]) the 2nd, 4th, ...
    # Step 7 then splits every character of the run but the last, which stays glued
    # to a following digit unless step 6 took it.
    last_taken_by_step6 = (len(run) % 2 == 1) == before_non_digit
    if after_digit and not last_taken_by_step6:
        return " " + " ".join(run)
    return " " + " ".join(run) + " "


def split_western(text: str) -> str:
    """Steps 5 to 8 of mteval-v13a's tokenization on ``text`` as given (no padding).

    Returns the text with spaces inserted; the caller splits it on whitespace.
    """
    text = " ".join(_SPLIT_ALWAYS.split(text))
    has_period = "." in text
    has_comma = "," in text
    if has_period or has_comma:
        if has_period and has_comma:
            touching = ".." in text or ".," in text or ",." in text or ",," in text
        elif has_period:
            touching = ".." in text
        else:
            touching = ",," in text
        if touching:
            text = _PERIOD_COMMA_RUN.sub(_period_comma_run, text)
        else:
            if has_period:
                text = _LONE_PERIOD.sub(" . ", text)
            if has_comma:
                text = _LONE_COMMA.sub(" , ", text)
    if "-" in text:
        text = _STEP8.sub(" - ", text)
    return text


def join_lines(text: str) -> str:
    """Step 2 of mteval-v13a's tokenization: a hyphen at a line end joins the word."""
    if "\n" in text:
        text = text.replace("-\n", "").replace("\n", " ")
    return text


def decode_13a(text: str) -> str:
    """Steps 1 to 3 (the language-independent part) of mteval-v13a's tokenization."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    text = join_lines(text)
    if "&" in text:
        text = (
            text.replace("&quot;", '"')
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
        )
    return text


def tokenize_13a(text: str) -> tuple[str, ...]:
    """All of mteval-v13a's tokenization but the lowercasing, uncached."""
    return tuple(split_western(f" {decode_13a(text)} ").split())


class Tokenizer13a(Tokenizer):
    """mteval-v13a.pl's ``tokenization`` without its A-Z folding (see the module doc).

    Results are cached per instance (65,536 segments, as sacrebleu does); the cache
    holds tuples and every call returns a fresh list.
    """

    name = "13a"

    def __init__(self) -> None:
        self._cached: Callable[[str], tuple[str, ...]] = memoised(tokenize_13a)

    def __call__(self, text: str) -> list[str]:
        return list(self._cached(text))

    def undecoded(self, text: str) -> list[str]:
        """Step 2 and steps 4 on: ``<skipped>`` and entities left as written."""
        return split_western(f" {join_lines(text)} ").split()

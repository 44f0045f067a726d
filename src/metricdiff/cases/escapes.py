"""How one line of a text file writes a ROUGE segment of several sentences: the
escape ``\\n`` (backslash, n) between sentences, and ``\\\\n`` for a backslash
followed by n.  ``files.py`` reads such lines, a ``Case`` read from them says so
(``Case.escaped``), and ``Case.for_metric`` undoes the escapes for ROUGE."""

from __future__ import annotations

import re

#: How a line of a ROUGE input file separates the sentences of one segment: the
#: two characters backslash, n.
SENTENCE_BREAK = "\\n"
#: How such a line writes a backslash followed by n: backslash, backslash, n.
ESCAPED_BACKSLASH_N = "\\\\n"
_ESCAPES = re.compile(r"\\\\n|\\n")


def unescape_sentence_breaks(line: str) -> str:
    """One line of a text file as the ROUGE segment it writes: each ``\\n``
    (backslash, n) a line break between sentences, each ``\\\\n`` (backslash,
    backslash, n) a backslash followed by n, so that ``C:\\\\new`` reads
    ``C:\\new``.  Read left to right; every other backslash stays as it is."""
    if "\\" not in line:
        return line
    return _ESCAPES.sub(lambda m: "\n" if m.group() == SENTENCE_BREAK else "\\n", line)


def escape_sentence_breaks(text: str) -> str:
    """A segment as one line of a text file, the inverse of
    ``unescape_sentence_breaks``: each line break (``\\r\\n``, ``\\r`` or ``\\n``)
    written ``\\n``, each backslash followed by n written ``\\\\n``.  (A backslash
    right before a line break has no spelling: it reads back as backslash, n.)"""
    text = text.replace(SENTENCE_BREAK, ESCAPED_BACKSLASH_N)
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", SENTENCE_BREAK)

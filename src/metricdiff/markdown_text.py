"""Text from the data as Markdown reads it: plain text that no renderer turns into
markup (``escape``), and code spans that nothing inside can close (``code``).

Every Markdown metricdiff writes goes through here -- ``report.md``, ``check.md``,
``compare --format md`` and ``compare.md``, ``packages.md`` -- so that an
implementation's name, an error message or a text of the corpus (``cmd:./x |x|
<script>...</script> [a](javascript:...)``) can neither break a table nor
become HTML, a link or an image in a viewer.  (``report.html`` escapes with
``html.escape``, the HTML counterpart.)
"""

from __future__ import annotations

import re

#: What gives text a meaning in Markdown inline: backslash, backtick (code), ``*``
#: and ``_`` (emphasis; ``_`` inside a word cannot be), ``](`` (a link or image;
#: a bracket followed by anything else links nowhere, as no line of a report
#: starts with data, which a link definition would need), ``<`` (raw HTML,
#: autolinks), ``&`` (entities), ``~`` (strikethrough), ``|`` (a table's
#: columns).  CommonMark lets a backslash escape each of them.
_MEANINGFUL = re.compile(r"[\\`*<&~|]|\](?=\()|(?<![^\W_])_|_(?![^\W_])")
_BACKTICKS = re.compile(r"`+")


def one_line(text: str) -> str:
    """``text`` on one line: a table row or list item ends at a line break."""
    return text.replace("\r\n", " ").replace("\r", " ").replace("\n", " ")


def escape(text: str) -> str:
    """Plain text from the data, read as text by any Markdown renderer, in a
    table cell or out of one: every character with an inline meaning
    backslash-escaped (CommonMark 2.4), no line breaks."""
    return _MEANINGFUL.sub(lambda found: "\\" + found.group(), one_line(text))


def code(text: str, table: bool = True) -> str:
    """``text`` as a code span (CommonMark 6.1) that nothing inside it can close:
    the fence is one backtick longer than the longest run of backticks in the
    text, and a text that starts or ends with a backtick or a space is padded
    with one space each side (the renderer takes them off again).  In a table
    (``table``) ``|`` is escaped, which GFM undoes inside code spans too.  An
    empty text has no code span: it is left out."""
    text = one_line(text).replace("|", "\\|") if table else one_line(text)
    if not text:
        return ""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    padded = text.strip(" ") != "" and (text[0] in "` " or text[-1] in "` ")
    pad = " " if padded else ""
    return f"{fence}{pad}{text}{pad}{fence}"


__all__ = ["code", "escape", "one_line"]

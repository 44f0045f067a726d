"""Making invisible characters visible, so that a minimal example shows what its
implementations actually saw.

A tab becomes ``⟨TAB⟩``, a line break ``⟨LF⟩``; every other character that does
not print as itself — non-ASCII spaces, zero-width and other format characters,
controls, combining marks, private-use and unassigned code points — becomes its
code point, ``⟨U+200B⟩``.  A combining mark is shown apart from the letter it
would modify: ``e⟨U+0301⟩`` is the decomposed é.  The ASCII space stays a space.
"""

from __future__ import annotations

import html
import unicodedata

#: Characters with names of their own.
_NAMED = {"\t": "TAB", "\n": "LF", "\r": "CR"}
#: Unicode categories shown as code points: separators other than the ASCII space,
#: controls, format characters, private use, surrogates, unassigned, marks.
_HIDDEN_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cs", "Cn", "Mn", "Mc",
                                "Me"})
#: How an empty text and a missing reference are shown.
EMPTY = "⟨empty⟩"
MISSING = "⟨none⟩"
ELLIPSIS = "…"


def marker(char: str) -> str | None:
    """What ``char`` is shown as, or None if it shows as itself."""
    if char in _NAMED:
        return f"⟨{_NAMED[char]}⟩"
    if char != " " and unicodedata.category(char) in _HIDDEN_CATEGORIES:
        return f"⟨U+{ord(char):04X}⟩"
    return None


def parts(text: str | None) -> list[tuple[str, bool]]:
    """``text`` as runs of (text, is_marker): printable runs as they are, each
    invisible character as its marker."""
    if text is None:
        return [(MISSING, True)]
    if text == "":
        return [(EMPTY, True)]
    runs: list[tuple[str, bool]] = []
    plain: list[str] = []
    for char in text:
        shown = marker(char)
        if shown is None:
            plain.append(char)
            continue
        if plain:
            runs.append(("".join(plain), False))
            plain = []
        runs.append((shown, True))
    if plain:
        runs.append(("".join(plain), False))
    return runs


def truncated(text: str | None, limit: int | None) -> tuple[str | None, bool]:
    """The first ``limit`` characters of ``text`` and whether any were cut."""
    if text is None or limit is None or len(text) <= limit:
        return text, False
    return text[:limit], True


def visible(text: str | None, limit: int | None = None) -> str:
    """``text`` as plain text with every invisible character shown; longer than
    ``limit`` characters, it is cut and ends with an ellipsis."""
    head, cut = truncated(text, limit)
    return "".join(run for run, _ in parts(head)) + (ELLIPSIS if cut else "")


def visible_html(text: str | None, limit: int | None = None) -> str:
    """``text`` as HTML: escaped, each invisible character in a ``<span class="inv">``."""
    head, cut = truncated(text, limit)
    out = [
        f'<span class="inv">{html.escape(run)}</span>' if hidden else html.escape(run)
        for run, hidden in parts(head)
    ]
    return "".join(out) + (ELLIPSIS if cut else "")

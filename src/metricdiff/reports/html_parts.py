"""The pieces report.html is built of: an attribute value, a table, a cell."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def attr(text: str) -> str:
    """A value for an HTML attribute, quoted and escaped."""
    return f'"{escape(text)}"'


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], css: str = "") -> str:
    """A table from header texts (escaped here) and row cells (HTML already)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "\n".join(f"<tr>{''.join(row)}</tr>" for row in rows)
    klass = f" class={attr(css)}" if css else ""
    return f"<table{klass}>\n<tr>{head}</tr>\n{body}\n</table>"


def td(content: str, css: str = "", title: str = "") -> str:
    """A cell of HTML ``content``."""
    extra = (f" class={attr(css)}" if css else "") + (f" title={attr(title)}" if title else "")
    return f"<td{extra}>{content}</td>"


__all__ = ["attr", "table", "td"]

"""The pieces report.html is built of: an attribute value, a table, a cell, one of
metricdiff's own texts as HTML, and a cell's parts cut to fit."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from metricdiff.reports.content import CELL_LIMIT


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


def inline(text: str) -> str:
    """One of metricdiff's own texts written for Markdown (never data) as HTML:
    escaped, ```code``` as code and ``**bold**`` as bold."""
    html = "".join(f"<code>{piece}</code>" if index % 2 else piece
                   for index, piece in enumerate(escape(text).split("`")))
    return "".join(f"<b>{piece}</b>" if index % 2 else piece
                   for index, piece in enumerate(html.split("**")))


def fit(parts: Sequence[tuple[str, str]], tail: tuple[str, str], joint: str = "<br>") -> str:
    """``parts`` (each as plain text and as HTML) joined, as many as fit in
    ``CELL_LIMIT`` characters of text with ``tail`` (what says where the rest is)
    after them if any is left out."""
    chosen: list[str] = []
    used = 0
    for count, (text, html) in enumerate(parts):
        rest = len(parts) - count - 1
        need = used + len(text) + (1 if chosen else 0) + (len(tail[0]) + 1 if rest else 0)
        if need > CELL_LIMIT:
            return joint.join([*chosen, tail[1]])
        chosen.append(html)
        used += len(text) + (1 if len(chosen) > 1 else 0)
    return joint.join(chosen)

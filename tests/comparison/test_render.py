"""``compare --format md``, ``compare.md`` and ``packages.md`` escape what comes
from the data as report.md does, with the same escaper (issue 27, item 18): an
implementation's name is any text a user wrote."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from helpers import run

#: A name that tries everything: a table's pipe, raw HTML, a javascript: link.
HOSTILE = "cmd:echo BLEU = 12.5 {hyp} {ref} |x| <script>alert(1)</script> [a](javascript:alert(2))"
#: The tags Markdown itself makes in these pages; any other came from the data.
MARKDOWN_TAGS = {"h1", "h2", "h3", "p", "ul", "li", "table", "thead", "tbody", "tr", "th",
                 "td", "code", "strong", "em", "a"}  # "a": only the page's own link (below)


def rendered(text: str) -> tuple[list[Any], str]:
    """The tokens and HTML of ``text`` as a GitHub-like viewer renders it
    (CommonMark with raw HTML allowed, GFM tables), checked to hold no raw HTML,
    no link and no tag Markdown would not make, but the page's own."""
    markdown_it = pytest.importorskip("markdown_it")
    renderer = markdown_it.MarkdownIt("commonmark", {"html": True}).enable(["table"])
    tokens = [t for block in renderer.parse(text) for t in [block, *(block.children or [])]]
    raw = [t.content for t in tokens if t.type in ("html_inline", "html_block")]
    assert [html for html in raw if not html.startswith(OWN_COMMENT)] == []
    links = [t.attrs.get("href") for t in tokens if t.type == "link_open"]
    assert [href for href in links if href != OWN_LINK] == []
    html = renderer.render(text)
    tags = Tags()
    tags.feed(html)
    assert tags.seen <= MARKDOWN_TAGS, tags.seen - MARKDOWN_TAGS
    return tokens, html


#: The one piece of HTML packages.md writes itself (a comment saying who wrote
#: it), and its one link.
OWN_COMMENT = "<!-- Written by `metricdiff audit --out DIR`"
OWN_LINK = "../docs/conventions.md"


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.add(tag)


def test_compare_markdown_keeps_a_hostile_name_in_one_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = tmp_path / "h.txt"
    hyp.write_text("the cat sat on the mat\n", encoding="utf-8")
    out = tmp_path / "out"
    status, text, err = run(capsys, "compare", "--metric", "bleu", "--impl", HOSTILE,
                            "--hyp", hyp, "--ref", hyp, "--format", "md", "--out", out)
    assert status == 0, err
    assert (out / "compare.md").read_text(encoding="utf-8") == text
    tokens, _html = rendered(text)
    # The table keeps its five columns (implementation, score, lost input, Δ paper,
    # its split) on every row, and the name is one code span.
    cells = [t for t in tokens if t.type in ("td_open", "th_open")]
    rows = [t for t in tokens if t.type == "tr_open"]
    assert len(cells) == 5 * len(rows), text
    codes = [t.content for t in tokens if t.type == "code_inline"]
    assert HOSTILE in codes, codes


def test_packages_md_keeps_hostile_text_as_text() -> None:
    from metricdiff.findings.finding import Example, Finding
    from metricdiff.impls.base import Tolerance
    from metricdiff.reports.model import CaseInfo, Implementation, MetricRecord
    from metricdiff.reports.packages import package_rows, render

    person = Implementation(HOSTILE, HOSTILE, "declared", "<b>1</b>", f"bleu|impl:{HOSTILE}",
                            {"tokenize": "none"}, Tolerance(), "[p](javascript:x)")
    crash = Finding("bleu", HOSTILE, "", "crash", "", ("", ""), "", 1, 0.0,
                    Example("c1", ("x",), (("y",),), None, None, "ValueError: <i>no</i>"),
                    {}, (), True)
    record = MetricRecord("bleu", (person,), (), (CaseInfo("c1", "fixture"),), {}, (crash,))
    text = render(package_rows([record]))
    tokens, _html = rendered(text)
    assert HOSTILE in [t.content for t in tokens if t.type == "code_inline"]
    cells = [t for t in tokens if t.type in ("td_open", "th_open")]
    rows = [t for t in tokens if t.type == "tr_open"]
    # The header and the one row, 6 columns each (implementation, package, version,
    # verdict, departures, defects).
    assert len(cells) == 6 * len(rows) == 12, text
    texts = "".join(t.content for t in tokens if t.type == "text")
    assert "[p](javascript:x)" in texts and "<b>1</b>" in texts

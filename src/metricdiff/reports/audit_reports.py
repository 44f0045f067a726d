"""The reports of an audit folder: ``report.md``, ``report.html``, ``report.json``
and the package verdict table ``packages.md`` (the table every report leads with).

They are a function of the folder's files alone (``audit.json``, ``findings.json``,
``results.jsonl``, and ``compare.json`` and ``pairs.json`` when there are): ``metricdiff audit --out
DIR`` and ``metricdiff report --from DIR`` write the same bytes, and so does every
later run on the same files.
Nothing time-dependent goes in unless a timestamp is asked for.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from metricdiff.atomic import write_group
from metricdiff.errors import OutputError
from metricdiff.reports import html_report, json_report, markdown, packages
from metricdiff.reports.content import build
from metricdiff.reports.reading import load_audit
from metricdiff.scoring.background import Background

MARKDOWN_NAME = "report.md"
HTML_NAME = "report.html"
JSON_NAME = "report.json"


#: From this many cases on (every metric's), ``report.html`` is rendered by a
#: forked process while this one renders the others: about a second each for
#: the main job's 16,754, at the end of the audit with one core left idle.
RENDER_APART_FROM = 5000


def render_reports(folder: Path, timestamp: str | None = None) -> dict[str, str]:
    """File name -> contents of the reports of the audit in ``folder``."""
    record = load_audit(folder)
    report = build(record, timestamp)
    apart = sum(len(metric.cases) for metric in record.metrics) >= RENDER_APART_FROM
    page = Background(partial(html_report.render, report), fork=apart)
    try:
        text, data = markdown.render(report), json_report.render(report)
        return {
            MARKDOWN_NAME: text,
            HTML_NAME: page.result(),
            JSON_NAME: data,
            packages.PACKAGES_NAME: packages.render(report.packages),
        }
    finally:
        page.cancel()


def write_reports(folder: Path, out: Path | None = None,
                  timestamp: str | None = None) -> list[Path]:
    """Write the reports of the audit in ``folder`` into ``out`` (default: the same
    folder); return their paths."""
    target = out or folder
    contents = {target / name: text for name, text in render_reports(folder, timestamp).items()}
    try:
        target.mkdir(parents=True, exist_ok=True)
        write_group(contents)  # together: the reports of one state of the folder
    except OSError as error:
        raise OutputError(f"{target}: cannot write the reports: "
                          f"{error.strerror or error}") from None
    return list(contents)

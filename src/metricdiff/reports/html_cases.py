"""The cases x implementations matrix of report.html (``matrix.py`` computes it):
one row per listed case, grouped by pattern of disagreement."""

from __future__ import annotations

from html import escape

from metricdiff.reports.cells import number
from metricdiff.reports.content import MetricReport
from metricdiff.reports.html_parts import attr
from metricdiff.reports.matrix import (
    FAILED,
    LISTED_PATTERNS,
    LISTED_PER_PATTERN,
    NOT_APPLICABLE,
    UNKNOWN,
    USER_LINES_PER_PATTERN,
    Cell,
    PatternGroup,
)
from metricdiff.wording import plural

#: Background of each class of the cases x implementations matrix, in letter order.
CLASS_COLOURS = ("#cdebc5", "#ffd8a8", "#f4b6b6", "#d9c2ec", "#b9d7f2", "#fff1a0")

def _class_css(klass: str) -> str:
    if klass == FAILED:
        return "kf"
    if klass in (NOT_APPLICABLE, UNKNOWN):
        return "kn"
    index = ord(klass) - ord("A")
    return f"k{index}" if 0 <= index < len(CLASS_COLOURS) else "kx"


#: The longest tooltip of a cell of the cases x implementations matrix.
TITLE_LENGTH = 90


def _cell(cell: Cell, text: str) -> str:
    """A cell of the matrix; its title says what went wrong, if anything did (a
    case left out of a costly peer's share says so once, under ``skipped``).  An
    ``A`` cell, most of them, takes its colour from the table (``table.cases``)."""
    title = ""
    if cell.klass == "A" and not cell.error:
        return f"<td>{text}</td>"
    if (cell.status != "ok" or cell.error) and "not run:" not in cell.error:
        said = cell.status + (f": {cell.error}" if cell.error else "")
        # A tooltip, repeated on every row: its first words say enough, and the
        # audit folder's results.jsonl has every error whole.
        if len(said) > TITLE_LENGTH:
            said = said[:TITLE_LENGTH - 1] + "…"
        title = f" title={attr(said)}"
    return f"<td class={_class_css(cell.klass)}{title}>{text}</td>"


def _values(cells: tuple[Cell, ...]) -> str:
    """Each class's value once, in letter order: ``A 0.4286 · B 0.5``.  (Its
    number in every cell made the page twice the size.)"""
    first: dict[str, float | None] = {}
    for cell in cells:
        if cell.klass not in (FAILED, NOT_APPLICABLE, UNKNOWN):
            first.setdefault(cell.klass, cell.headline)
    return " · ".join(f"{klass} {number(value)}" for klass, value in sorted(first.items()))


def cases_section(section: MetricReport) -> str:
    names = [p.name for p in section.record.implementations]
    width = len(names) + 3
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    rows = [f"<tr><th>case</th><th>source</th>{head}<th>values</th></tr>"]
    unlisted = [group for group in section.groups if not group.listed]
    for group in section.groups:
        if not group.listed:
            continue
        rows.append(_group_header(group, width))
        for row in group.listed:
            cells = "".join(_cell(c, escape(c.klass)) for c in row.cells)
            rows.append(f"<tr><th><code>{escape(row.case)}</code></th>"
                        f"<th>{escape(row.source)}</th>{cells}"
                        f"<th>{escape(_values(row.cells))}</th></tr>")
    if unlisted:
        cases = sum(len(group.rows) for group in unlisted)
        rows.append(f'<tr class="group"><th colspan="{width}">'
                    f"{plural(len(unlisted), 'more pattern')} of generated cases "
                    f"({plural(cases, 'case')}), none listed</th></tr>")
    return (
        "<p>On each case every implementation gets a class: <b>A</b> for the value of "
        "the first implementation that scored it, <b>B</b> for the next distinct value "
        f"(within tolerance), and so on; <b>{FAILED}</b> a crash, timeout or invalid "
        f"output; <b>{NOT_APPLICABLE}</b> a case it cannot take; <b>{UNKNOWN}</b> a result "
        "without the headline number. The classes in column order are the case's "
        "pattern; the last column gives each class's headline number. The cases are "
        "grouped by pattern, the most frequent first; every fixture "
        f"case is listed, the first {USER_LINES_PER_PATTERN} lines of your files of "
        f"each pattern, and the first {plural(LISTED_PER_PATTERN, 'generated case')} "
        f"of each of the {LISTED_PATTERNS} most frequent patterns (the audit "
        "folder's results.jsonl has them all).</p>\n"
        '<table class="cases">\n' + "\n".join(rows) + "\n</table>"
    )


def _group_header(group: PatternGroup, width: int) -> str:
    count = len(group.rows)
    agree = ""
    if group.agree:
        agree = " (all agree)" if set(group.pattern) == {"A"} else " (all that scored it agree)"
    hidden = f"; {group.not_listed} not listed" if group.not_listed else ""
    return (f'<tr class="group"><th colspan="{width}">pattern <code>{escape(group.pattern)}'
            f"</code>: {plural(count, 'case')}{agree}{hidden}</th></tr>")


__all__ = ["CLASS_COLOURS", "TITLE_LENGTH", "cases_section"]

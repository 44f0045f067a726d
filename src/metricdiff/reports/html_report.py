"""``report.html``: one self-contained page (inline CSS, no script, nothing
fetched) with the tables of ``report.md`` -- the package verdict table first --,
the agreement matrices (tables whose cells are shaded by the typical difference),
the cases x implementations matrix grouped by pattern of disagreement, and every
minimal example with its invisible characters shown.

Every text that came from the audited data is escaped with ``html.escape``.
"""

from __future__ import annotations

from html import escape

from metricdiff.comparison import render as corpus_table
from metricdiff.comparison.gaps import MetricComparison
from metricdiff.findings.finding import COMPARED, Finding, cause_of, who
from metricdiff.findings.pairs import PairCause
from metricdiff.profiles.metrics import Result
from metricdiff.reports.cells import anchor, example_texts, excerpt_note, headlines, largest, points
from metricdiff.reports.content import (
    CELL_LIMIT,
    CORPUS_INTRO,
    DEFECTS_INTRO,
    DEPARTURES_INTRO,
    PAIR_CAUSES,
    PAIRS_INTRO,
    PAPERS,
    UNITS,
    WHY,
    MetricReport,
    Report,
    agreement_intro,
    pair_summary,
    share,
    short,
)
from metricdiff.reports.html_cases import cases_section
from metricdiff.reports.html_parts import fit, inline, table, td
from metricdiff.reports.html_style import SHADES, STYLE
from metricdiff.reports.matrix import Agreement, PairCell
from metricdiff.reports.packages import HEADERS as PACKAGE_HEADERS
from metricdiff.reports.packages import INTRO as PACKAGES_INTRO
from metricdiff.reports.packages import defects_cell, departures_cell
from metricdiff.reports.visible import visible, visible_html
from metricdiff.statistics import statistics_of
from metricdiff.wording import plural

# ------------------------------------------------------------------ sections

#: The longest text of an example shown in report.html, in characters.
HTML_TEXT_LIMIT = 120


def _text_part(label: str, text: str | None) -> tuple[str, str]:
    return (f"{label} {visible(text, HTML_TEXT_LIMIT)}",
            f'{escape(label)} <span class="text">{visible_html(text, HTML_TEXT_LIMIT)}</span>')


def example_cell(finding: Finding | PairCause, number: int = 0,
                 sides: tuple[str, str] = ("", ""), scale: float = 1.0) -> str:
    """The minimal example: each segment's hypothesis and references with their
    invisible characters shown, each side's headline number, the error if a run
    failed; an excerpt says what it is part of.  At most ``CELL_LIMIT``
    characters of text: the rest is in report.json, under the case named."""
    example = finding.example
    parts: list[tuple[str, str]] = []
    note = excerpt_note(example)
    if note:
        parts.append((note, f"<i>{escape(note)}</i>"))
    many = len(example.hyps) > 1 or example.segments
    for place, hyp, refs in example_texts(example):
        tag = f" {place}" if many else ""
        parts.append(_text_part(f"hyp{tag}", hyp))
        parts += [_text_part(f"ref{tag}.{ref_number}", ref)
                  for ref_number, ref in enumerate(refs, start=1)]
    if example.error:
        parts.append(_text_part("error", example.error))
    elif sides[0]:
        a, b = headlines(finding, scale)
        text = f"{sides[0]} {a} vs {sides[1]} {b}"
        parts.append((text, f"<i>{escape(sides[0])}</i> {a} vs <i>{escape(sides[1])}</i> {b}"))
        if isinstance(finding, Finding) and finding.kind == "conformance" and a == b:
            parts.append((f"first difference {finding.first_difference}",
                          f"first difference <code>{escape(finding.first_difference)}</code>"))
    where = f"#{number} in report.json" if number else "in pairs.json"
    tail = f"… (case {example.case_id}: {where})"
    return fit(parts, (tail, f'<span class="note">{escape(tail)}</span>'))


def package_table(report: Report) -> str:
    rows = [[td(f"<code>{escape(row.implementation)}</code>"), td(escape(row.package or "—")),
             td(escape(row.version or "—")), td(escape(row.verdict), f"v-{row.verdict}"),
             td(_plain_cell(departures_cell(row))), td(_plain_cell(defects_cell(row)))]
            for row in report.packages]
    return table(PACKAGE_HEADERS, rows, "packages")


def _plain_cell(markdown_cell: str) -> str:
    """A cell written for packages.md (code spans in backticks) as HTML."""
    if len(markdown_cell) > CELL_LIMIT:
        markdown_cell = markdown_cell[:CELL_LIMIT - 1].rsplit(",", 1)[0] + " …"
    return inline(markdown_cell.replace("**", ""))


def corpus_section(found: MetricComparison) -> str:
    """Every implementation's score on the user's corpus, its gap to the paper
    split by axis; the gaps of the pairs split too."""
    rows = [[td(escape(text), "num" if column in (1, 3) else "")
             for column, text in enumerate(row)] for row in corpus_table.rows(found)]
    notes = corpus_table.notes(found) + [gap.sentence() for gap in corpus_table.pair_gaps(found)]
    return "\n".join([
        f"<h3>Your corpus: {escape(corpus_table.scale(found))}</h3>",
        f"<p>{escape(CORPUS_INTRO)}</p>",
        table(corpus_table.HEADERS, rows),
        "<ul>" + "".join(f"<li>{escape(note)}</li>" for note in notes) + "</ul>" if notes else "",
    ])


def departures_section(section: MetricReport) -> str:
    parts = [f"<h3>Departures from the paper ({escape(PAPERS[section.family])})</h3>",
             f"<p>{escape(DEPARTURES_INTRO)}</p>"]
    if not section.departures:
        parts.append("<p>None: every implementation scores as the paper's profile wherever "
                     "the reference reproduces it.</p>")
    else:
        rows = []
        for group in section.departures:
            who = " · ".join(f"<code>{escape(m.name)}</code> {escape(m.said())}"
                             for m in group.members)
            shown_by = group.shown
            rows.append([
                td("<br>".join(f"{escape(axis)}: <code>{escape(before)}</code> → "
                               f"<code>{escape(after)}</code>"
                               for axis, before, after in group.changes()), "cause"),
                td(who, "who"), td(str(group.cases), "num"),
                td(points(group.max_delta * section.points), "num"),
                td(example_cell(shown_by.finding, shown_by.number, ("paper", shown_by.name),
                                section.points)),
            ])
        parts.append(table(["cause (paper → implementation)", "implementations (cases)",
                            "cases", f"largest difference ({UNITS[section.family]})",
                            "minimal example"], rows))
    if section.quiet:
        parts.append("<ul>" + "".join(
            f"<li><code>{escape(name)}</code> declares "
            f"{', '.join(f'<code>{escape(axis)}</code>' for axis in axes)} but no case here "
            "shows it</li>" for name, axes in section.quiet) + "</ul>")
    return "\n".join(parts)


def defects_section(section: MetricReport) -> str:
    parts = ["<h3>Conformance findings and defects</h3>", f"<p>{escape(DEFECTS_INTRO)}</p>"]
    if not section.defects:
        parts.append("<p>None: every implementation does what it declares wherever it "
                     "scores.</p>")
        return "\n".join(parts)
    head = "".join(f"<th>{escape(h)}</th>" for h in (
        "#", "implementation", "kind", "cause", "cases",
        f"largest difference ({UNITS[section.family]})", "minimal example", "results"))
    rows = [f"<tr>{head}</tr>"]
    for number_, finding in section.defects:
        sides = (finding.impl_a, f"reference as {finding.impl_a}") if (
            finding.kind == "conformance") else (finding.impl_a, finding.impl_b)
        cells = [
            td(str(number_), "num"), td(escape(who(finding))), td(escape(finding.kind)),
            td(f"<code>{escape(cause_of(finding))}</code>"), td(str(finding.count), "num"),
            td(escape(largest(finding, section.points)), "num"),
            td(example_cell(finding, number_, sides, section.points)),
            td(results_cell(finding)),
        ]
        rows.append(f'<tr id="{anchor(section.metric, number_)}">{"".join(cells)}</tr>')
    parts.append("<table>\n" + "\n".join(rows) + "\n</table>")
    return "\n".join(parts)


def results_cell(finding: Finding) -> str:
    """Both sides' results on the example and the first statistic that differs,
    at most ``CELL_LIMIT`` characters."""
    if finding.kind not in COMPARED:
        return "–"
    right = (f"reference as {finding.impl_a}" if finding.kind == "conformance"
             else finding.impl_b)
    parts = [(f"{finding.impl_a}: {_result_text(finding.example.result_a)}",
              f"<i>{escape(finding.impl_a)}</i>: "
              f"{escape(_result_text(finding.example.result_a))}"),
             (f"{right}: {_result_text(finding.example.result_b)}",
              f"<i>{escape(right)}</i>: {escape(_result_text(finding.example.result_b))}"),
             (f"first difference {finding.first_difference or '–'}",
              f"first difference <code>{escape(finding.first_difference or '–')}</code>")]
    return fit(parts, ("…", "…"))


def shade(cell: PairCell) -> str:
    """The CSS class of an agreement cell: its typical difference's shade."""
    level = sum(1 for threshold in SHADES if cell.mean > threshold)
    return f"s{level}"


def matrix_table(matrix: Agreement) -> str:
    """One agreement matrix as a shaded table."""
    head = "<tr><th></th>" + "".join(f"<th>{escape(n)}</th>" for n in matrix.names) + "</tr>"
    rows = []
    for i, name in enumerate(matrix.names):
        cells = [f"<th>{escape(name)}</th>"]
        for j, cell in enumerate(matrix.cells[i]):
            if i == j:
                cells.append('<td class="self"></td>')
            elif not cell.compared:
                cells.append("<td>–</td>")
            elif not cell.differing:
                cells.append('<td class="s0">0%</td>')
            else:
                cells.append(f'<td class="{shade(cell)}">{share(cell.share)}<br>'
                             f"{short(cell.median)} / {short(cell.p95)}</td>")
        rows.append("".join(cells))
    body = "\n".join(f"<tr>{row}</tr>" for row in rows)
    return f'<table class="matrix">\n{head}\n{body}\n</table>'


def agreement_section(section: MetricReport) -> str:
    if not section.matrices:
        return "<h3>Agreement</h3>\n<p>No implementation took part.</p>"
    legend = " ".join(f'<span class="s{level} key">{"≤" if level < len(SHADES) else "&gt;"} '
                      f"{SHADES[min(level, len(SHADES) - 1)]:g}</span>"
                      for level in range(1, len(SHADES) + 1))
    parts = ["<h3>Agreement</h3>",
             f"<p>{escape(agreement_intro(section))} The shade follows the typical "
             "difference, the average |Δ| over every case both scored (in points): "
             f"{legend}.</p>"]
    for matrix in section.matrices:
        parts += [f"<h4>{escape(matrix.group.capitalize())} "
                  f"({plural(matrix.cases, 'case')})</h4>", matrix_table(matrix)]
    return "\n".join(parts)


def pairs_section(section: MetricReport) -> str:
    pairs = section.record.pairs
    if not pairs:
        return ""
    items = []
    for pair in pairs:
        causes = "".join(
            f"<li><code>{escape(cause.describe())}</code>: {plural(cause.count, 'case')}, "
            f"largest difference {points(cause.max_delta * section.points)}<br>"
            f"{example_cell(cause, 0, (pair.impl_a, pair.impl_b), section.points)}</li>"
            for cause in pair.causes[:PAIR_CAUSES])
        more = (f"<li>and {plural(len(pair.causes) - PAIR_CAUSES, 'other cause')} "
                "(pairs.json has them)</li>" if len(pair.causes) > PAIR_CAUSES else "")
        items.append(f"<li><b>{escape(pair.impl_a)} vs {escape(pair.impl_b)}</b> "
                     f"({escape(WHY[pair.why])}): {escape(pair_summary(pair))}"
                     f"<ul>{causes}{more}</ul></li>")
    return "\n".join(["<h3>Pairs derived from the star</h3>", f"<p>{escape(PAIRS_INTRO)}</p>",
                      "<ul>" + "\n".join(items) + "</ul>"])


def profile_table(section: MetricReport) -> str:
    """The declared profiles, one short row each; the signatures apart, each on
    one line (``signature_table``)."""
    rows = [["<td>paper</td>", "<td></td>",
             *(td(f"<code>{escape(v)}</code>") for v in section.paper)]]
    for row in section.profiles:
        cells = [td(f"<code>{escape(value)}</code>", "depart" if departs else "")
                 for value, departs in row.values]
        rows.append([td(escape(row.person.name)), td(escape(row.person.version)), *cells])
    html_rows = [f'<tr class="paper">{"".join(rows[0])}</tr>']
    html_rows += [f"<tr>{''.join(row)}</tr>" for row in rows[1:]]
    head = "".join(f"<th>{escape(h)}</th>"
                   for h in ["implementation", "version", *section.axes])
    return "<table>\n<tr>" + head + "</tr>\n" + "\n".join(html_rows) + "\n</table>"


def signature_table(section: MetricReport) -> str:
    rows = [[td(escape(row.person.name)), td(escape(row.person.signature), "sig")]
            for row in section.profiles]
    return ("<details><summary>Signatures</summary>\n"
            + table(["implementation", "signature"], rows) + "\n</details>")


def conformance_table(section: MetricReport) -> str:
    css = {"conforms": "conforms", "departs": "departs", "fails": "fails"}
    rows = [[td(escape(row.implementation)),
             *(td(escape(status.text()), css[status.status]) for status in row.cells)]
            for row in section.conformance]
    return table(["implementation", *section.clauses], rows)


def _result_text(result: Result | None) -> str:
    """Every statistic of a result, ``?`` for one it does not report."""
    if result is None:
        return "–"
    parts = []
    for key, value in statistics_of(result.to_json()).items():
        if value is None:
            shown = "?"
        elif isinstance(value, list):
            shown = "/".join(f"{item:.6g}" for item in value)
        else:
            shown = f"{value:.6g}"
        parts.append(f"{key} {shown}")
    return ", ".join(parts)


def metric_section(section: MetricReport) -> str:
    record = section.record
    spec = "spec/bleu.md" if section.family == "bleu" else "spec/rouge.md"
    parts = [
        f'<section id="metric-{section.metric}">',
        f"<h2>{escape(section.metric)}</h2>",
        f"<p>{escape(section.counts())}.</p>",
    ]
    if record.corpus is not None:
        parts.append(corpus_section(record.corpus))
    parts += [departures_section(section), defects_section(section),
              agreement_section(section), pairs_section(section)]
    parts += [
        "<h3>Conventions</h3>",
        f"<p>Each implementation's declared profile on the axes {escape(section.metric)} "
        "depends on; <span class=\"depart\">highlighted</span>: a departure from the "
        f"paper's profile ({escape(PAPERS[section.family])}).</p>",
        profile_table(section),
        signature_table(section),
    ]
    notes = [f"tolerance of {name}: {t.describe()}" for name, t in section.tolerances]
    notes += [f"skipped: {reason}" for reason in record.skipped]
    if notes:
        parts.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>")
    parts += [
        f"<h3>Conformance to {spec}</h3>",
        f"<p>One column per clause {escape(section.metric)} depends on; a family of "
        "variant clauses (<code>-*</code>) is one column, each cell naming the clause the "
        "implementation follows. <i>conforms</i> (the declared profile takes the paper's "
        "value on the clause's axes and no conformance finding lands here), <i>departs on "
        "AXIS (VALUE)</i> (declared; <i>found:</i> where a conformance finding shows the "
        "implementation behaving so), <i>fails</i> (a difference from the reference "
        "configured as the implementation that no axis explains starts at a statistic of "
        "this clause).</p>",
        conformance_table(section),
    ]
    if section.unexplained:
        parts.append("<ul>" + "".join(
            f"<li>no axis explains {escape(f.impl_a)} against the reference configured as "
            f"it: {plural(f.count, 'case')}, first difference "
            f"<code>{escape(f.first_difference)}</code></li>" for f in section.unexplained
        ) + "</ul>")
    parts += ["<h3>Cases &times; implementations</h3>", cases_section(section), "</section>"]
    return "\n".join(parts)


LEGEND = (
    'Invisible characters are shown as markers: <span class="inv">⟨TAB⟩</span> a tab, '
    '<span class="inv">⟨LF⟩</span> a line break, <span class="inv">⟨U+XXXX⟩</span> any '
    "other invisible character or combining mark by its code point "
    '(<span class="inv">⟨U+00A0⟩</span> no-break space, <span class="inv">⟨U+200B⟩</span> '
    'zero-width space), <span class="inv">⟨empty⟩</span> an empty text, '
    '<span class="inv">⟨none⟩</span> a missing reference.'
)


def render(report: Report) -> str:
    """The whole of ``report.html``: the package verdict table first."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        "<title>metricdiff audit report</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<h1>metricdiff audit report</h1>",
    ]
    if report.timestamp:
        parts.append(f"<p>Generated {escape(report.timestamp)}.</p>")
    parts.append(f"<p>{escape(report.summary())}</p>")
    cached = report.cache_sentence()
    if cached is not None:
        parts.append(f"<p>{escape(cached)}</p>")
    links = " · ".join(f'<a href="#metric-{m.metric}">{escape(m.metric)}</a>'
                       for m in report.metrics)
    parts.append(f"<nav>Metrics: {links}</nav>")
    parts += ["<h2>Packages</h2>", f"<p>{inline(PACKAGES_INTRO)}</p>", package_table(report),
              f'<p class="note">{LEGEND}</p>']
    parts += [metric_section(section) for section in report.metrics]
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"

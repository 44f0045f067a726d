"""``report.html``: one self-contained page (inline CSS, no script, nothing
fetched) with the tables of ``report.md``, an agreement matrix per metric (a table
whose cells are shaded by the difference), the cases x implementations matrix
grouped by pattern of disagreement, and every minimal example with its invisible
characters shown.

Every text that came from the audited data is escaped with ``html.escape``.
"""

from __future__ import annotations

from html import escape

from metricdiff.comparison import render as corpus_table
from metricdiff.comparison.gaps import MetricComparison
from metricdiff.findings.finding import Finding, cause_of
from metricdiff.profiles.metrics import Result
from metricdiff.reports.content import (
    CORPUS_INTRO,
    PAPERS,
    UNITS,
    MetricReport,
    Report,
    anchor,
    example_texts,
    implementations,
    largest,
    number,
)
from metricdiff.reports.html_cases import CLASS_COLOURS, cases_section
from metricdiff.reports.html_parts import attr, table, td
from metricdiff.reports.matrix import Agreement
from metricdiff.reports.visible import visible_html
from metricdiff.wording import plural

OTHER_COLOUR = "#dddddd"
#: The CSS class of a matrix cell: ``k0``, ``k1``... by letter, ``kx`` for the letters
#: past the colours, ``kf`` for a failed run, ``kn`` for n/a or no headline number.
#: A short class per cell rather than a style keeps the matrices (thousands of
#: cells) small.
CELL_CLASSES = {**{f"k{i}": f"background: {c};" for i, c in enumerate(CLASS_COLOURS)},
                "kx": f"background: {OTHER_COLOUR};", "kf": "background: #555; color: #fff;",
                "kn": "color: #888;"}

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #1a1a1a; max-width: 110em; }
h2 { border-bottom: 2px solid #444; margin-top: 2.5em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.45em; text-align: left;
  vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .text { font-family: ui-monospace, monospace; white-space: pre-wrap;
  word-break: break-all; }
.sig { font-size: 0.8em; word-break: break-all; font-family: ui-monospace, monospace; }
.depart { background: #ffe3a3; font-weight: bold; }
.paper td { font-style: italic; background: #f7f7f7; }
.inv { background: #ffe066; color: #7a3b00; border-radius: 3px; padding: 0 1px;
  font-size: 0.85em; font-family: ui-monospace, monospace; }
.conforms { background: #e6f4e1; }
.departs { background: #ffe3a3; }
.na { color: #888; }
.fails { background: #f4b6b6; }
tr.group th { background: #e4e4f0; }
.note { color: #555; }
""" + ", ".join(f"td.{name}" for name in CELL_CLASSES) + (
    " { text-align: center; font-family: ui-monospace, monospace; }\n") + "".join(
    f"td.{name} {{ {style} }}\n" for name, style in CELL_CLASSES.items())


# ------------------------------------------------------------------ sections


def profile_table(section: MetricReport) -> str:
    rows = [["<td>paper</td>", "<td></td>",
             *(td(f"<code>{escape(v)}</code>") for v in section.paper), "<td></td>"]]
    for row in section.profiles:
        cells = [td(f"<code>{escape(value)}</code>", "depart" if departs else "")
                 for value, departs in row.values]
        rows.append([td(escape(row.person.name)), td(escape(row.person.version)), *cells,
                     td(escape(row.person.signature), "sig")])
    html_rows = [f'<tr class="paper">{"".join(rows[0])}</tr>']
    html_rows += [f"<tr>{''.join(row)}</tr>" for row in rows[1:]]
    head = "".join(f"<th>{escape(h)}</th>"
                   for h in ["implementation", "version", *section.axes, "signature"])
    return "<table>\n<tr>" + head + "</tr>\n" + "\n".join(html_rows) + "\n</table>"


def findings_table(section: MetricReport) -> str:
    """One row per finding with its minimal example in full: one place for each, so
    that the page stays small with hundreds of findings."""
    head = "".join(f"<th>{h}</th>" for h in (
        "#", "kind", "cause", "implementations", "cases", "largest difference",
        "minimal example", "results"))
    rows = [f"<tr>{head}</tr>"]
    for index, finding in enumerate(section.findings, start=1):
        cells = [
            td(str(index), "num"), td(escape(finding.kind)),
            td(f"<code>{escape(cause_of(finding))}</code>"),
            td(escape(implementations(finding))), td(str(finding.count), "num"),
            td(escape(largest(finding)), "num"), td(example_cell(finding)),
            td(results_cell(finding)),
        ]
        rows.append(f'<tr id="{anchor(section.metric, index)}">{"".join(cells)}</tr>')
    return "<table>\n" + "\n".join(rows) + "\n</table>"


def example_cell(finding: Finding) -> str:
    """The minimal example: its case, each segment's hypothesis and references with
    their invisible characters shown, and the error if a run failed."""
    example = finding.example
    lines = [f"case <code>{escape(example.case_id)}</code>"]
    for number_, (hyp, refs) in enumerate(example_texts(finding), start=1):
        tag = f" {number_}" if len(example.hyps) > 1 else ""
        lines.append(f'hyp{tag} <span class="text">{visible_html(hyp)}</span>')
        lines += [f'ref{tag}.{ref_number} <span class="text">{visible_html(ref)}</span>'
                  for ref_number, ref in enumerate(refs, start=1)]
    if example.error:
        lines.append(f'error <span class="text">{visible_html(example.error)}</span>')
    return "<br>".join(lines)


def results_cell(finding: Finding) -> str:
    """Both sides' results on the example and the first statistic that differs."""
    if finding.kind not in ("conformance", "agreement"):
        return "–"
    right = (f"reference as {finding.impl_a}" if finding.kind == "conformance"
             else finding.impl_b)
    return "<br>".join([
        f"<i>{escape(finding.impl_a)}</i>: {escape(_result_text(finding.example.result_a))}",
        f"<i>{escape(right)}</i>: {escape(_result_text(finding.example.result_b))}",
        f"first difference <code>{escape(finding.first_difference or '–')}</code>",
    ])


def conformance_table(section: MetricReport) -> str:
    css = {"conforms": "conforms", "departs": "departs", "fails": "fails"}
    rows = [[td(escape(row.implementation)),
             *(td(escape(status.text()), css[status.status]) for status in row.cells)]
            for row in section.conformance]
    return table(["implementation", *section.clauses], rows)


def _shade(delta: float | None, top: float) -> str:
    """A background from white (no difference) to red (the largest)."""
    if delta is None:
        return "#d0d0d0"
    share = min(1.0, delta / top) if top > 0 else 0.0
    return f"rgb(255,{round(255 - 175 * share)},{round(255 - 205 * share)})"


def agreement_table(matrix: Agreement) -> str:
    """The agreement matrix as a coloured table."""
    top = matrix.largest
    rows = []
    for i, name in enumerate(matrix.names):
        cells = [f"<th>{escape(name)}</th>"]
        for j, delta in enumerate(matrix.max_delta[i]):
            counts = f"{matrix.differing[i][j]}/{matrix.compared[i][j]}"
            title = f"{counts} cases differ beyond tolerance"
            shown = escape(number(delta)) + (f"<br>{counts}" if i != j else "")
            cells.append(f'<td class="num" style="background:{_shade(delta, top)}" '
                         f"title={attr(title)}>{shown}</td>")
        rows.append(cells)
    head = "<tr><th></th>" + "".join(f"<th>{escape(n)}</th>" for n in matrix.names) + "</tr>"
    body = "\n".join(f"<tr>{''.join(row)}</tr>" for row in rows)
    return f"<table>\n{head}\n{body}\n</table>"


def agreement_section(section: MetricReport) -> str:
    unit = UNITS[section.family]
    if not section.agreement.names:
        return "<p>No implementation took part.</p>"
    intro = (f"<p>Each cell: the largest difference between two implementations' headline "
             f"numbers (in {escape(unit)}) over the cases both scored, and on how many of "
             "them they differ beyond tolerance.</p>")
    return intro + "\n" + agreement_table(section.agreement)


def _result_text(result: Result | None) -> str:
    """Every statistic of a result, ``?`` for one it does not report."""
    if result is None:
        return "–"
    parts = []
    for key, value in result.to_json().items():
        if value is None:
            shown = "?"
        elif isinstance(value, list):
            shown = "/".join(f"{item:.6g}" for item in value)
        else:
            shown = f"{value:.6g}"
        parts.append(f"{key} {shown}")
    return ", ".join(parts)


def corpus_section(found: MetricComparison) -> str:
    """Every implementation's score on the user's corpus, each gap split by axis."""
    rows = [[td(escape(text), "num" if column in (1, 2) else "")
             for column, text in enumerate(row)] for row in corpus_table.rows(found)]
    notes = [f"{e.impl} could not score: {e.error}" for e in corpus_table.failures(found)]
    notes += [gap.sentence() for gap in found.gaps]
    return "\n".join([
        f"<h3>Your corpus: {escape(corpus_table.scale(found))}</h3>",
        f"<p>{escape(CORPUS_INTRO)}</p>",
        table(corpus_table.HEADERS, rows),
        "<ul>" + "".join(f"<li>{escape(note)}</li>" for note in notes) + "</ul>",
    ])


def metric_section(section: MetricReport) -> str:
    record = section.record
    spec = "spec/bleu.md" if section.family == "bleu" else "spec/rouge.md"
    parts = [
        f'<section id="metric-{section.metric}">',
        f"<h2>{escape(section.metric)}</h2>",
        f"<p>{plural(len(record.implementations), 'implementation')}, "
        f"{plural(len(record.cases), 'case')}, {plural(len(section.findings), 'finding')}.</p>",
    ]
    if record.corpus is not None:
        parts.append(corpus_section(record.corpus))
    parts += [
        "<h3>Conventions</h3>",
        f"<p>Each implementation's declared profile on the axes {escape(section.metric)} "
        "depends on; <span class=\"depart\">highlighted</span>: a departure from the "
        f"paper's profile ({escape(PAPERS[section.family])}).</p>",
        profile_table(section),
    ]
    notes = [f"tolerance of {name}: {t.describe()}" for name, t in section.tolerances]
    notes += [f"skipped: {reason}" for reason in record.skipped]
    if notes:
        parts.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>")
    parts += ["<h3>Agreement</h3>", agreement_section(section), "<h3>Findings</h3>"]
    if section.findings:
        parts += [f"<p>Largest difference: of the headline number, in "
                  f"{escape(UNITS[section.family])}.</p>", findings_table(section)]
    else:
        parts.append("<p>None: every implementation agrees on every case.</p>")
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
    """The whole of ``report.html``."""
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
    parts.append(f'<p class="note">{LEGEND}</p>')
    links = " · ".join(f'<a href="#metric-{m.metric}">{escape(m.metric)}</a>'
                       for m in report.metrics)
    parts.append(f"<nav>{links}</nav>")
    parts += [metric_section(section) for section in report.metrics]
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"

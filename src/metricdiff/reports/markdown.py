"""``report.md``: the audit as Markdown tables ready to paste into a paper's appendix.

Every text that came from the audited data (texts, errors, implementation names,
signatures, reasons) is either in a code span that nothing inside it can close
(``code``) or escaped (``escape``; both in ``markdown_text``, shared with every
Markdown metricdiff writes), with its invisible characters made visible, so that
neither a table nor a Markdown renderer can be broken by it, and no data becomes
HTML, a link or an image in a viewer.
"""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.comparison import render as corpus_table
from metricdiff.comparison.gaps import MetricComparison
from metricdiff.findings.finding import Finding, cause_of
from metricdiff.markdown_text import code, escape
from metricdiff.reports.content import (
    CORPUS_INTRO,
    PAPERS,
    UNITS,
    MetricReport,
    Report,
    example_texts,
    largest,
)
from metricdiff.reports.visible import visible
from metricdiff.wording import plural

#: Example texts longer than this many characters are cut with an ellipsis.
TEXT_LIMIT = 40

LEGEND = (
    "Invisible characters in examples are shown as markers: `⟨TAB⟩` a tab, `⟨LF⟩` a "
    "line break, `⟨U+XXXX⟩` any other invisible character or combining mark by its "
    "code point (`⟨U+00A0⟩` no-break space, `⟨U+200B⟩` zero-width space), `⟨empty⟩` "
    "an empty text, `⟨none⟩` a missing reference; `…` ends a text cut short."
)


def names(finding: Finding) -> str:
    """The implementations of a finding, each in a code span: ``a`` vs ``b``."""
    if not finding.impl_b:
        return code(finding.impl_a)
    return f"{code(finding.impl_a)} vs {code(finding.impl_b)}"


def shown(text: str | None, limit: int | None = TEXT_LIMIT) -> str:
    """A text from the data: visible markers, cut at ``limit``, in a code span."""
    return code(visible(text, limit))


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub Markdown table of cells already made safe (``escape``, ``code``).  Columns
    are not padded to a common width: with hundreds of findings, padding made most of
    the committed ``report.md`` spaces."""
    lines = [_table_row(headers), "|" + "|".join("---" for _ in headers) + "|"]
    lines += [_table_row(row) for row in rows]
    return "\n".join(lines)


def _table_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def example_cell(finding: Finding) -> str:
    """The minimal example in one cell: each segment's hypothesis and references."""
    segments = example_texts(finding)
    parts = []
    for number_, (hyp, refs) in enumerate(segments, start=1):
        tag = f"{number_}: " if len(segments) > 1 else ""
        refs_shown = ", ".join(shown(ref) for ref in refs)
        parts.append(f"{tag}hyp {shown(hyp)} ref {refs_shown}")
    text = "; ".join(parts)
    if finding.example.error:
        text += f"; error {shown(finding.example.error, 80)}"
    return text


def profile_table(section: MetricReport) -> str:
    """Implementations (rows) x the axes the metric depends on (columns), the
    paper's profile first; a departure from the paper is bold."""
    rows = [["*paper*", "", *(code(value) for value in section.paper), ""]]
    for row in section.profiles:
        values = [f"**{code(value)}**" if departs else code(value)
                  for value, departs in row.values]
        rows.append([code(row.person.name), escape(row.person.version), *values,
                     code(row.person.signature)])
    return table(["implementation", "version", *section.axes, "signature"], rows)


def findings_table(section: MetricReport) -> str:
    rows = [
        [str(index), escape(f.kind), code(cause_of(f)), names(f), str(f.count),
         largest(f), example_cell(f)]
        for index, f in enumerate(section.findings, start=1)
    ]
    return table(["#", "kind", "cause", "implementations", "cases", "largest difference",
                  "minimal example"], rows)


def conformance_table(section: MetricReport) -> str:
    rows = [[code(row.implementation), *(escape(status.text()) for status in row.cells)]
            for row in section.conformance]
    return table(["implementation", *section.clauses], rows)


def corpus_section(found: MetricComparison) -> list[str]:
    """Every implementation's score on the user's corpus, and each gap split by
    axis: what the causes and examples after it account for."""
    rows = [[code(impl), score, delta, escape(part)]
            for impl, score, delta, part in corpus_table.rows(found)]
    lines = [f"### Your corpus: {corpus_table.scale(found)}", "", CORPUS_INTRO, "",
             table(corpus_table.HEADERS, rows), ""]
    lines += [f"- {code(e.impl, table=False)} could not score: {escape(e.error)}"
              for e in corpus_table.failures(found)]
    lines += [f"- {escape(gap.sentence())}" for gap in found.gaps]
    return [*lines, ""]


def metric_section(section: MetricReport) -> list[str]:
    record = section.record
    lines = [
        f"## {section.metric}",
        "",
        f"{plural(len(record.implementations), 'implementation')}, "
        f"{plural(len(record.cases), 'case')}, {plural(len(section.findings), 'finding')}.",
        "",
    ]
    if record.corpus is not None:
        lines += corpus_section(record.corpus)
    lines += [
        "### Conventions",
        "",
        f"Each implementation's declared profile on the axes {section.metric} depends on; "
        f"**bold**: a departure from the paper's profile ({PAPERS[section.family]}).",
        "",
        profile_table(section),
        "",
    ]
    for name, tolerance in section.tolerances:
        lines.append(f"- tolerance of {code(name, table=False)}: "
                     f"{escape(tolerance.describe())}")
    for reason in record.skipped:
        lines.append(f"- skipped: {escape(reason)}")
    if section.tolerances or record.skipped:
        lines.append("")
    lines += ["### Findings", ""]
    if section.findings:
        lines += [f"Largest difference: of the headline number, in {UNITS[section.family]}.",
                  "", findings_table(section), ""]
    else:
        lines += ["None: every implementation agrees on every case.", ""]
    spec = "spec/bleu.md" if section.family == "bleu" else "spec/rouge.md"
    lines += [
        f"### Conformance to {spec}",
        "",
        f"One column per clause {section.metric} depends on; a family of variant "
        "clauses (`-*`) is one column, each cell naming the clause the implementation "
        "follows. `conforms` (the declared profile takes the paper's value on the "
        "clause's axes and no conformance finding lands here), `departs on AXIS (VALUE)` "
        "(declared; `found:` where a conformance finding shows the implementation "
        "behaving so), `fails` (a difference from the reference configured as the "
        "implementation that no axis explains starts at a statistic of this clause).",
        "",
        conformance_table(section),
        "",
    ]
    for finding in section.unexplained:
        lines.append(
            f"- no axis explains {code(finding.impl_a, table=False)} against the reference "
            f"configured as it: {plural(finding.count, 'case')}, first "
            f"difference {code(finding.first_difference, table=False)}"
        )
    if section.unexplained:
        lines.append("")
    return lines


def render(report: Report) -> str:
    """The whole of ``report.md``."""
    lines = ["# metricdiff audit report", ""]
    if report.timestamp:
        lines += [f"Generated {report.timestamp}.", ""]
    lines += [escape(report.summary()), "", LEGEND, ""]  # it may name implementations
    for section in report.metrics:
        lines += metric_section(section)
    return "\n".join(lines).rstrip("\n") + "\n"

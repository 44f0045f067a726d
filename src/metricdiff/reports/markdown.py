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
from metricdiff.findings.pairs import PairCause
from metricdiff.markdown_text import code, escape
from metricdiff.reports.cells import example_texts, excerpt_note, headlines, largest, points
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
from metricdiff.reports.matrix import PairCell
from metricdiff.reports.packages import HEADERS as PACKAGE_HEADERS
from metricdiff.reports.packages import INTRO as PACKAGES_INTRO
from metricdiff.reports.packages import defects_cell, departures_cell
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
    if not finding.impl_b or finding.kind == "conformance":
        return code(finding.impl_a)
    if finding.kind == "departure":
        return code(finding.impl_b)
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


def within(parts: Sequence[str], tail: str, limit: int = CELL_LIMIT, joint: str = "; ") -> str:
    """``parts`` joined, as many as fit in ``limit`` characters with ``tail``
    (what says where the rest is) after them if any is left out."""
    text = ""
    for count, part in enumerate(parts):
        longer = part if not text else f"{text}{joint}{part}"
        rest = len(parts) - count - 1
        if len(longer) + (len(joint) + len(tail) if rest else 0) > limit:
            return f"{text}{joint}{tail}" if text else tail[:limit]
        text = longer
    return text


def example_cell(finding: Finding | PairCause, number: int = 0, sides: tuple[str, str] = ("", ""),
                 scale: float = 1.0) -> str:
    """The minimal example in one cell, at most ``CELL_LIMIT`` characters: each
    segment's hypothesis and references, each side's headline number (``sides``
    names them), the error if a run failed; an excerpt says what it is part of."""
    example = finding.example
    parts = []
    note = excerpt_note(example)
    if note:
        parts.append(escape(note))
    many = len(example.hyps) > 1 or example.segments
    for place, hyp, refs in example_texts(example):
        tag = f"{place}: " if many else ""
        parts.append(f"{tag}hyp {shown(hyp)} ref {', '.join(shown(ref) for ref in refs)}")
    if example.error:
        parts.append(f"error {shown(example.error, 80)}")
    elif sides[0]:
        a, b = headlines(finding, scale)
        parts.append(f"{code(sides[0])} {a} vs {code(sides[1])} {b}")
        if isinstance(finding, Finding) and finding.kind == "conformance" and a == b:
            parts.append(f"first difference {code(finding.first_difference)}")
    where = f"#{number} in report.json" if number else "in pairs.json"
    return within(parts, f"… (case {code(example.case_id)}: {where})")


def capped(text: str, tail: str = "…") -> str:
    """A cell cut at ``CELL_LIMIT`` characters (a list of names, say)."""
    return text if len(text) <= CELL_LIMIT else text[:CELL_LIMIT - len(tail)] + tail


# ------------------------------------------------------------------ sections


def package_table(report: Report) -> str:
    rows = [[code(row.implementation), escape(row.package or "—"), escape(row.version or "—"),
             f"**{row.verdict}**", capped(departures_cell(row)), capped(defects_cell(row))]
            for row in report.packages]
    return table(PACKAGE_HEADERS, rows)


def corpus_section(found: MetricComparison) -> list[str]:
    """Every implementation's score on the user's corpus, and its gap to the
    paper split by axis; the pairs whose gaps were split too."""
    rows = [[code(impl), score, escape(lost), delta, escape(part)]
            for impl, score, lost, delta, part in corpus_table.rows(found)]
    lines = [f"### Your corpus: {corpus_table.scale(found)}", "", CORPUS_INTRO, "",
             table(corpus_table.HEADERS, rows), ""]
    lines += [f"- {escape(note)}" for note in corpus_table.notes(found)]
    lines += [f"- {escape(gap.sentence())}" for gap in corpus_table.pair_gaps(found)]
    return [*lines, ""]


def departures_section(section: MetricReport) -> list[str]:
    lines = [f"### Departures from the paper ({PAPERS[section.family]})", "",
             DEPARTURES_INTRO, ""]
    if section.departures:
        rows = []
        for group in section.departures:
            who = " · ".join(f"{code(m.name)} {escape(m.said())}" for m in group.members)
            shown_by = group.shown
            rows.append([
                "; ".join(f"{code(axis)} {code(before)} → {code(after)}"
                          for axis, before, after in group.changes()), capped(who),
                str(group.cases), points(group.max_delta * section.points),
                example_cell(shown_by.finding, shown_by.number,
                             ("paper", shown_by.name), section.points)])
        lines += [table(["cause (paper → implementation)", "implementations (cases)", "cases",
                         f"largest difference ({UNITS[section.family]})", "minimal example"],
                        rows), ""]
    else:
        lines += ["None: every implementation scores as the paper's profile wherever the "
                  "reference reproduces it.", ""]
    for name, axes in section.quiet:
        lines.append(f"- {code(name, table=False)} declares "
                     f"{', '.join(code(axis, table=False) for axis in axes)} but no case here "
                     "shows it")
    if section.quiet:
        lines.append("")
    return lines


def defects_section(section: MetricReport) -> list[str]:
    lines = ["### Conformance findings and defects", "", DEFECTS_INTRO, ""]
    if not section.defects:
        return [*lines, "None: every implementation does what it declares wherever it "
                "scores.", ""]
    rows = []
    for number_, finding in section.defects:
        sides = (finding.impl_a, f"reference as {finding.impl_a}") if (
            finding.kind == "conformance") else (finding.impl_a, finding.impl_b)
        rows.append([str(number_), names(finding), escape(finding.kind),
                     code(cause_of(finding)), str(finding.count),
                     largest(finding, section.points),
                     example_cell(finding, number_, sides, section.points)])
    return [*lines, table(["#", "implementation", "kind", "cause", "cases",
                           f"largest difference ({UNITS[section.family]})", "minimal example"],
                          rows), ""]


def matrix_cell(cell: PairCell) -> str:
    """``37% 1.2/8.5``: the share of cases that differ, the median and the 95th
    percentile of |Δ| over them; ``0%`` where none does."""
    if not cell.compared:
        return "–"
    if not cell.differing:
        return "0%"
    return f"{share(cell.share)} {short(cell.median)}/{short(cell.p95)}"


def agreement_section(section: MetricReport) -> list[str]:
    lines = ["### Agreement", "", agreement_intro(section), ""]
    for matrix in section.matrices:
        names_ = [code(name) for name in matrix.names]
        rows = [[names_[i], *("" if i == j else matrix_cell(cell)
                              for j, cell in enumerate(row))]
                for i, row in enumerate(matrix.cells)]
        lines += [f"#### {matrix.group.capitalize()} ({plural(matrix.cases, 'case')})", "",
                  table(["", *names_], rows), ""]
    return lines


def pairs_section(section: MetricReport) -> list[str]:
    pairs = section.record.pairs
    if not pairs:
        return []
    lines = ["### Pairs derived from the star", "", PAIRS_INTRO, ""]
    for pair in pairs:
        lines.append(f"- {code(pair.impl_a, table=False)} vs {code(pair.impl_b, table=False)} "
                     f"({WHY[pair.why]}): {escape(pair_summary(pair))}")
        for cause in pair.causes[:PAIR_CAUSES]:
            lines.append(f"  - {code(cause.describe(), table=False)}: "
                         f"{plural(cause.count, 'case')}, largest difference "
                         f"{points(cause.max_delta * section.points)}; "
                         + example_cell(cause, 0, (pair.impl_a, pair.impl_b), section.points))
        if len(pair.causes) > PAIR_CAUSES:
            lines.append(f"  - and {plural(len(pair.causes) - PAIR_CAUSES, 'other cause')} "
                         "(pairs.json has them)")
    return [*lines, ""]


def profile_table(section: MetricReport) -> str:
    """Implementations (rows) x the axes the metric depends on (columns), the
    paper's profile first; a departure from the paper is bold."""
    rows = [["*paper*", "", *(code(value) for value in section.paper)]]
    for row in section.profiles:
        values = [f"**{code(value)}**" if departs else code(value)
                  for value, departs in row.values]
        rows.append([code(row.person.name), escape(row.person.version), *values])
    return table(["implementation", "version", *section.axes], rows)


def signature_table(section: MetricReport) -> str:
    """Each implementation's signature, one line each: what a paper quotes."""
    return table(["implementation", "signature"],
                 [[code(row.person.name), code(row.person.signature)]
                  for row in section.profiles])


def conformance_table(section: MetricReport) -> str:
    rows = [[code(row.implementation), *(capped(escape(status.text()))
                                         for status in row.cells)]
            for row in section.conformance]
    return table(["implementation", *section.clauses], rows)


def metric_section(section: MetricReport) -> list[str]:
    record = section.record
    lines = [f"## {section.metric}", "", f"{section.counts()}.", ""]
    if record.corpus is not None:
        lines += corpus_section(record.corpus)
    lines += departures_section(section)
    lines += defects_section(section)
    lines += agreement_section(section)
    lines += pairs_section(section)
    lines += [
        "### Conventions",
        "",
        f"Each implementation's declared profile on the axes {section.metric} depends on; "
        f"**bold**: a departure from the paper's profile ({PAPERS[section.family]}). "
        "Their signatures follow.",
        "",
        profile_table(section),
        "",
        signature_table(section),
        "",
    ]
    for name, tolerance in section.tolerances:
        lines.append(f"- tolerance of {code(name, table=False)}: "
                     f"{escape(tolerance.describe())}")
    for reason in record.skipped:
        lines.append(f"- skipped: {escape(reason)}")
    if section.tolerances or record.skipped:
        lines.append("")
    spec = "spec/bleu.md" if section.family == "bleu" else "spec/rouge.md"
    lines += [
        f"### Conformance to {spec}",
        "",
        f"One column per clause {section.metric} depends on; a family of variant clauses "
        "(`-*`) is one column, each cell naming the clause the implementation follows. "
        "`conforms` (the declared profile takes the paper's value on the clause's axes and "
        "no conformance finding lands here), `departs on AXIS (VALUE)` (declared; `found:` "
        "where a conformance finding shows the implementation behaving so), `fails` (a "
        "difference from the reference configured as the implementation that no axis "
        "explains starts at a statistic of this clause).",
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
    """The whole of ``report.md``: the package verdict table first."""
    lines = ["# metricdiff audit report", ""]
    if report.timestamp:
        lines += [f"Generated {report.timestamp}.", ""]
    lines += [escape(report.summary()), ""]  # it may name implementations
    cached = report.cache_sentence(lambda folder: code(folder, table=False))
    if cached is not None:
        lines += [cached, ""]
    lines += ["## Packages", "", PACKAGES_INTRO, "", package_table(report), "", LEGEND, ""]
    for section in report.metrics:
        lines += metric_section(section)
    return "\n".join(lines).rstrip("\n") + "\n"

"""A comparison as text or Markdown: per metric, a table (implementation, corpus
score, Δ from the paper's profile, the largest contribution to that Δ) and one
sentence per pair that a paper can quote."""

from __future__ import annotations

from tabulate import tabulate

from metricdiff.comparison.gaps import Comparison, CorpusScore, Gap, MetricComparison, signed
from metricdiff.markdown_text import code, escape

REFERENCE = "reference"
HEADERS = ("implementation", "score", "Δ paper", "largest contribution")
#: tabulate's table format for each output format.
TABLE_FORMATS = {"text": "simple", "md": "github"}


def scale(found: MetricComparison) -> str:
    """What the numbers of a metric are."""
    if found.report is None:
        return "BLEU, points 0-100"
    return f"ROUGE {found.report.upper() if found.report == 'f' else found.report} × 100"


def largest_part(gap: Gap) -> str:
    """The axis that contributes most to a gap (or the residual, when no axis
    explains as much), with its points: ``tokenize +5.74``."""
    parts = [(c.axis, c.points) for c in gap.attribution.contributions] if gap.attribution else []
    if gap.residual is not None:
        parts.append(("residual", gap.residual))
    if not parts or all(signed(points) == "0.00" for _, points in parts):
        return "—"
    axis, points = max(parts, key=lambda part: abs(part[1]))
    return f"{axis} {signed(points)}"


def rows(found: MetricComparison) -> list[tuple[str, str, str, str]]:
    """The table's rows: one per implementation, in the order they took part."""
    paper = next((s for s in found.scores if s.impl == REFERENCE and s.score is not None), None)
    out = []
    for entry in found.scores:
        if entry.score is None:
            out.append((entry.impl, "—", "—", "could not score"))
            continue
        if paper is None or entry.impl == REFERENCE:
            out.append((entry.impl, f"{entry.score:.2f}", "—" if paper is None else "0.00", "—"))
            continue
        gap = found.gap(REFERENCE, entry.impl)
        out.append((entry.impl, f"{entry.score:.2f}", signed(gap.delta), largest_part(gap)))
    return out


def failures(found: MetricComparison) -> list[CorpusScore]:
    return [entry for entry in found.scores if entry.score is None]


def heading(found: MetricComparison) -> str:
    """``bleu (BLEU, points 0-100)``."""
    return f"{found.metric} ({scale(found)})"


def body(found: MetricComparison, fmt: str) -> list[str]:
    """What is said of one metric under its heading: the table, the
    implementations that could not score, and a sentence per pair.  In Markdown
    every name is a code span and every other text from the data escaped
    (``markdown_text``): an implementation's name is any text a user wrote."""
    if fmt == "md":
        cells = [(code(impl), score, delta, escape(part))
                 for impl, score, delta, part in rows(found)]
        lines = [tabulate(cells, headers=HEADERS, tablefmt=TABLE_FORMATS[fmt],
                          disable_numparse=True), ""]
        lines += [f"- {code(e.impl, table=False)} could not score: {escape(e.error)}"
                  for e in failures(found)]
        lines += [f"- {escape(gap.sentence())}" for gap in found.gaps]
        return lines
    table = tabulate(rows(found), headers=HEADERS, tablefmt=TABLE_FORMATS[fmt],
                     disable_numparse=True)
    lines = [table]
    lines += [f"{e.impl} could not score: {e.error}" for e in failures(found)]
    lines += [f"  {gap.sentence()}" for gap in found.gaps]
    return lines


def metric_block(found: MetricComparison, fmt: str) -> str:
    """One metric: heading, then ``body``."""
    if fmt == "md":
        return "\n".join([f"## {heading(found)}", "", *body(found, fmt)])
    return "\n".join([f"== {heading(found)}", *body(found, fmt)])


def render(comparison: Comparison, fmt: str = "text") -> str:
    """The whole comparison as ``text`` or ``md``."""
    return "\n\n".join(metric_block(found, fmt) for found in comparison.metrics) + "\n"


__all__ = ["HEADERS", "body", "failures", "heading", "largest_part", "render", "rows", "scale"]

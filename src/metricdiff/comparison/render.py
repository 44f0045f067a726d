"""A comparison as text or Markdown: per metric, a table (implementation, corpus
score, the share of its input its tokenizer drops, Δ from the paper's profile,
and that Δ split by axis plus the residual), what could not score or was
refused on the way, and one sentence per pair whose gap was split, that a
paper can quote."""

from __future__ import annotations

from tabulate import tabulate

from metricdiff.comparison.gaps import Comparison, CorpusScore, Gap, MetricComparison, signed
from metricdiff.markdown_text import code, escape

REFERENCE = "reference"
HEADERS = ("implementation", "score", "lost input", "Δ paper", "Δ paper split by axis")
#: tabulate's table format for each output format.
TABLE_FORMATS = {"text": "simple", "md": "github"}


def scale(found: MetricComparison) -> str:
    """What the numbers of a metric are."""
    if found.report is None:
        return "BLEU, points 0-100"
    return f"ROUGE {found.report.upper() if found.report == 'f' else found.report} × 100"


def split(gap: Gap) -> str:
    """A gap split by axis, the axes that move it (by 0.01 or more) largest first,
    then the residual: ``tokenize −10.79 · lowercase +1.22 · residual 0.00``."""
    parts = [f"{c.axis} {signed(c.points)}" for c in
             (gap.attribution.contributions if gap.attribution else ())
             if signed(c.points) != "0.00"]
    residual = gap.residual
    parts.append(f"residual {'—' if residual is None else signed(residual)}")
    return " · ".join(parts)


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


def lost(entry: CorpusScore) -> str:
    """The share of each side's tokens its tokenizer drops, or ``—``."""
    return "—" if entry.lost is None else entry.lost.share()


def rows(found: MetricComparison) -> list[tuple[str, str, str, str, str]]:
    """The table's rows: one per implementation, in the order they took part."""
    paper = next((s for s in found.scores if s.impl == REFERENCE and s.score is not None), None)
    out = []
    for entry in found.scores:
        if entry.score is None:
            out.append((entry.impl, "—", lost(entry), "—",
                        "not applicable" if entry.not_applicable else "could not score"))
            continue
        if paper is None or entry.impl == REFERENCE:
            out.append((entry.impl, f"{entry.score:.2f}", lost(entry),
                        "—" if paper is None else "0.00", "—"))
            continue
        gap = found.gap(REFERENCE, entry.impl)
        out.append((entry.impl, f"{entry.score:.2f}", lost(entry), signed(gap.delta),
                    split(gap)))
    return out


def failures(found: MetricComparison) -> list[CorpusScore]:
    return [entry for entry in found.scores if entry.score is None]


def star_gaps(found: MetricComparison) -> list[Gap]:
    """Each implementation's gap to the paper's profile (the table's)."""
    return [gap for gap in found.gaps if gap.impl_a == REFERENCE]


def pair_gaps(found: MetricComparison) -> list[Gap]:
    """The gaps between two implementations that were split."""
    return [gap for gap in found.gaps if REFERENCE not in (gap.impl_a, gap.impl_b)]


def notes(found: MetricComparison, lost: bool = True) -> list[str]:
    """What the table's numbers need said: who could not score and why, what
    a tokenizer drops (unless ``lost`` is false: said already), what an
    attribution to the paper carried, and what detokenizing the input moves."""
    lines = [f"{e.impl} {e.describe()}" for e in failures(found)]
    if lost:
        lines += found.lost_input_lines()
    lines += [f"{gap.impl_b}: {gap.note}" for gap in star_gaps(found) if gap.note]
    return lines + (found.detokenized.lines() if found.detokenized else [])


def heading(found: MetricComparison) -> str:
    """``bleu (BLEU, points 0-100)``."""
    return f"{found.metric} ({scale(found)})"


def body(found: MetricComparison, fmt: str, lost: bool = True) -> list[str]:
    """What is said of one metric under its heading: the table, the notes (what
    a tokenizer drops, unless ``lost`` is false), and a sentence per pair whose
    gap was split.  In Markdown every name is a code span and every other text
    from the data escaped (``markdown_text``): an implementation's name is any
    text a user wrote."""
    pairs = pair_gaps(found)
    if fmt == "md":
        cells = [(code(impl), *(escape(cell) for cell in rest))
                 for impl, *rest in rows(found)]
        lines = [tabulate(cells, headers=HEADERS, tablefmt=TABLE_FORMATS[fmt],
                          disable_numparse=True), ""]
        lines += [f"- {escape(note)}" for note in notes(found, lost)]
        lines += [f"- {escape(gap.sentence())}" for gap in pairs]
        return lines
    table = tabulate(rows(found), headers=HEADERS, tablefmt=TABLE_FORMATS[fmt],
                     disable_numparse=True)
    lines = [table]
    lines += notes(found, lost)
    if pairs:
        lines.append("pairs:")
        lines += [f"  {gap.sentence()}" for gap in pairs]
    return lines


def metric_block(found: MetricComparison, fmt: str) -> str:
    """One metric: heading, then ``body``."""
    if fmt == "md":
        return "\n".join([f"## {heading(found)}", "", *body(found, fmt)])
    return "\n".join([f"== {heading(found)}", *body(found, fmt)])


def render(comparison: Comparison, fmt: str = "text") -> str:
    """The whole comparison as ``text`` or ``md``."""
    return "\n\n".join(metric_block(found, fmt) for found in comparison.metrics) + "\n"


__all__ = ["HEADERS", "body", "failures", "heading", "largest_part", "notes", "pair_gaps",
           "render", "rows", "scale", "split", "star_gaps"]

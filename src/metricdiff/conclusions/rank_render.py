"""A ranking as text or Markdown: per metric, one row per implementation (each
system's score with its 95% interval, each pair's Δ, p-values and verdict), then
one sentence per pair on whether its order holds across implementations and
conventions, ready to paste into a paper."""

from __future__ import annotations

from tabulate import tabulate

from metricdiff.comparison.gaps import signed
from metricdiff.conclusions.rank import pairs_of
from metricdiff.conclusions.ranking import (
    NOT_SIGNIFICANT,
    ImplementationRanking,
    MetricRanking,
    PairTest,
    Ranking,
    SystemScore,
)

#: tabulate's table format for each output format.
TABLE_FORMATS = {"text": "simple", "md": "github"}


def scale(found: MetricRanking) -> str:
    if found.report is None:
        return "BLEU, points 0-100"
    return f"ROUGE {found.report.upper() if found.report == 'f' else found.report} × 100"


def system_cell(entry: SystemScore, scheme: str) -> str:
    """``26.09 (μ 26.11 ± 3.47)`` under sacrebleu's scheme (its μ and half-width),
    ``61.98 [60.12, 63.80]`` under the others (their low and high)."""
    interval = entry.interval
    if scheme == "bootstrap-sacrebleu":
        return f"{entry.score:.2f} (μ {interval.center:.2f} ± {interval.half_width:.2f})"
    return f"{entry.score:.2f} [{interval.low:.2f}, {interval.high:.2f}]"


def _p(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def test_cell(test: PairTest) -> str:
    """``−0.78 p 0.0010/0.0001 worse``: Δ, the bootstrap's and AR's p-values."""
    verdict = "n.s." if test.verdict == NOT_SIGNIFICANT else test.verdict
    return f"{signed(test.delta)} p {_p(test.p_bootstrap)}/{_p(test.p_randomization)} {verdict}"


def rows(found: MetricRanking, scheme: str, all_pairs: bool) -> list[list[str]]:
    out = []
    pairs = pairs_of(found.systems, all_pairs)
    for entry in found.implementations:
        if entry.error:
            out.append([entry.impl, *(["—"] * (len(found.systems) + len(pairs)))])
            continue
        cells = [system_cell(entry.score(system), scheme) for system in found.systems]
        cells += [test_cell(entry.test(a, b)) for a, b in pairs]
        out.append([entry.impl, *cells])
    return out


def headers(found: MetricRanking, all_pairs: bool) -> list[str]:
    pairs = pairs_of(found.systems, all_pairs)
    return ["implementation", *found.systems, *(f"{b} vs {a}" for a, b in pairs)]


def notes(found: MetricRanking) -> list[str]:
    """Implementations that could not rank, and those resampled from scores."""
    lines = [f"{e.impl} could not rank: {e.error}" for e in found.implementations if e.error]
    from_scores = [e for e in found.implementations if e.from_scores and not e.error]
    inexact = [e.impl for e in from_scores if not e.exact]
    exact = [e.impl for e in from_scores if e.exact]
    if inexact:
        lines.append(f"resampled from segment scores (no statistics reported): "
                     f"{', '.join(inexact)}; corpus BLEU is not the mean of segment scores, "
                     "so their intervals and tests are of the mean sentence BLEU")
    recovered = [e.impl for e in found.implementations if e.recovered and not e.error]
    if recovered:
        lines.append(f"statistics recovered from the precisions and lengths reported: "
                     f"{', '.join(recovered)} (each segment's counts are its precisions "
                     "times its n-gram totals)")
    if exact:
        lines.append(f"resampled from segment scores: {', '.join(exact)} (their corpus "
                     "score is the mean of segment scores, so this is exact)")
    return lines


def metric_block(found: MetricRanking, fmt: str) -> str:
    scheme = found.resampling.split("|")[0].partition(":")[2]
    all_pairs = bool(found.implementations) and _all_pairs(found)
    randomized = any(t.p_randomization is not None for e in found.implementations
                     for t in e.tests)
    trials = f", {found.trials} randomization trials" if randomized else ""
    title = (f"{found.metric} ({scale(found)}); resampling {found.resampling}{trials}; "
             "p: paired bootstrap / approximate randomization")
    table = tabulate(rows(found, scheme, all_pairs), headers=headers(found, all_pairs),
                     tablefmt=TABLE_FORMATS[fmt], disable_numparse=True)
    if fmt == "md":
        items = [f"{'- ' if n == 0 else '  - '}{line}" for pair in found.stability
                 for n, line in enumerate(pair.lines())]
        return "\n".join([f"## {title}", "", table, "", *items,
                          *(f"- {line}" for line in notes(found))])
    items = [f"{'  ' if n == 0 else '    '}{line}" for pair in found.stability
             for n, line in enumerate(pair.lines())]
    return "\n".join([f"== {title}", table, *items, *notes(found)])


def _all_pairs(found: MetricRanking) -> bool:
    """Whether the tests cover every pair (``--all-pairs``), read off the results."""
    first = next((e for e in found.implementations if not e.error), None)
    if first is None:
        return False
    return len(first.tests) > max(len(found.systems) - 1, 0)


def render(ranking: Ranking, fmt: str = "text") -> str:
    """The whole ranking as ``text`` or ``md``."""
    blocks = [metric_block(found, fmt) for found in ranking.metrics]
    return "\n\n".join(blocks) + "\n"


__all__ = ["ImplementationRanking", "render", "system_cell", "test_cell"]

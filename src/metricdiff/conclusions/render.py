"""``reproduce`` and ``sensitivity`` as text or Markdown: the candidates that give
a printed number, or the nearest; the effect of each axis value and each
interacting pair, largest first (``rank``'s tables are ``rank_render.py``)."""

from __future__ import annotations

from tabulate import tabulate

from metricdiff.comparison.gaps import signed
from metricdiff.conclusions.reproduce import Candidate, Reproduction
from metricdiff.conclusions.sensitivity import Sensitivity

TABLE_FORMATS = {"text": "simple", "md": "github"}
#: Rows shown of each sensitivity table unless asked for more.
DEFAULT_TOP = 15


def _candidates(rows: tuple[Candidate, ...], fmt: str) -> str:
    table = [[c.label(), f"{c.score:.4f}", str(c.axes_changed),
              {"points": "0-100", "fraction": "0-1"}.get(c.scale or "", "—")] for c in rows]
    return str(tabulate(table, headers=["configuration", "score", "axes changed", "scale"],
                        tablefmt=TABLE_FORMATS[fmt], disable_numparse=True))


def render_reproduction(found: Reproduction, fmt: str = "text") -> str:
    """What reproduces the number (fewest axes changed first), or the nearest; then
    whether the signature fits."""
    lines = []
    if found.reproduced:
        lines.append(f"{found.printed} ({found.metric}) is reproduced by "
                     f"{len(found.matches)} of {found.searched} configurations scored, "
                     "fewest axes changed first:")
        lines.append(_candidates(found.matches, fmt))
    else:
        lines.append(f"nothing reproduces {found.printed} ({found.metric}): none of "
                     f"{found.searched} configurations scored rounds to it. The nearest:")
        lines.append(_candidates(found.nearest, fmt))
    check = found.signature
    if check is not None:
        verdict = "fits" if check.fits else "does not fit"
        scores = ", ".join(f"{c.label()} {c.score:.4f}" for c in check.candidates)
        lines.append(f"the signature ({check.source}'s) {verdict} {found.printed}: {scores}")
    return "\n".join(lines) + "\n"


def render_sensitivity(found: Sensitivity, fmt: str = "text", top: int = DEFAULT_TOP) -> str:
    """The single changes' table, the axes that moved nothing, the interactions."""
    quantity = "F" if found.report == "f" else found.report
    scale = "BLEU" if found.report is None else f"ROUGE {quantity} × 100"
    head = (f"{found.metric} ({scale}): {found.paper_score:.2f} under the paper's profile; "
            "each row changes one axis")
    effects = [[e.axis, f"{e.paper_value} → {e.value}", f"{e.score:.2f}", signed(e.effect)]
               for e in found.effects[:top]]
    table = tabulate(effects, headers=["axis", "value", "score", "effect"],
                     tablefmt=TABLE_FORMATS[fmt], disable_numparse=True)
    lines = [f"## {head}" if fmt == "md" else f"== {head}", table]
    if len(found.effects) > top:
        lines.append(f"({len(found.effects) - top} more rows: --top N, or --format json)")
    if found.unmoved:
        lines.append(f"no value of these moves the score on this corpus: "
                     f"{', '.join(found.unmoved)}")
    pairs = [[f"{a}={v}", f"{b}={w}", signed(i.joint), signed(i.singles), signed(i.interaction)]
             for i in found.interactions[:top]
             for (a, v), (b, w) in [(i.first, i.second)]]
    lines.append(f"{found.pairs_interacting} of {found.pairs_scored} pairs of changes interact "
                 f"(joint effect ≠ the sum of the two by more than {found.tolerance:.1e}, "
                 "float noise)" + (":" if pairs else ""))
    if pairs:
        lines.append(tabulate(pairs, headers=["first", "second", "joint", "sum", "interaction"],
                              tablefmt=TABLE_FORMATS[fmt], disable_numparse=True))
    if fmt == "md":
        return "\n\n".join(lines) + "\n"
    return "\n".join(lines) + "\n"


__all__ = ["render_reproduction", "render_sensitivity"]

"""The agreement matrix as a PNG picture (matplotlib, the optional extra ``html``).

Drawn without pyplot (no global state) on a fixed size and resolution, with the
default style and no ``Software`` metadata, so that the same matrix gives the same
bytes on every run with the same matplotlib.
"""

from __future__ import annotations

import io
import math

from metricdiff.reports.matrix import Agreement

#: Resolution of the picture; its size grows with the number of implementations.
DPI = 100
CELL_INCHES = 0.75
#: The colour map: pale for agreement, dark red for the largest difference.
COLOURMAP = "YlOrRd"
#: What matplotlib needs, for the note shown when it is missing.
INSTALL_HINT = "pip install 'metricdiff[html]'"


def available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def agreement_png(matrix: Agreement, unit: str) -> bytes:
    """The matrix as a PNG: one cell per pair, coloured by the largest difference of
    their headline numbers and labelled with it and with how many of the cases both
    scored differ beyond tolerance; grey where they share no case."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = list(matrix.names)
    size = len(names)
    top = matrix.largest if matrix.largest > 0 else 1.0
    values = [[math.nan if d is None else d for d in row] for row in matrix.max_delta]
    style = {**matplotlib.rcParamsDefault, "font.family": "DejaVu Sans", "font.size": 9.0}
    style.pop("backend", None)
    with matplotlib.rc_context(style):
        side = 2.5 + CELL_INCHES * size
        figure = Figure(figsize=(side + 1.2, side), dpi=DPI, layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        colours = matplotlib.colormaps[COLOURMAP].with_extremes(bad="#d0d0d0")
        image = axes.imshow(values, cmap=colours, vmin=0.0, vmax=top)
        axes.set_xticks(range(size), names, rotation=45, ha="right")
        axes.set_yticks(range(size), names)
        for i, row in enumerate(matrix.max_delta):
            for j, delta in enumerate(row):
                text = "–" if delta is None else f"{delta:.3g}"
                if delta is not None and i != j:
                    text += f"\n{matrix.differing[i][j]}/{matrix.compared[i][j]}"
                dark = delta is not None and delta > 0.6 * top
                axes.text(j, i, text, ha="center", va="center", fontsize=8,
                          color="white" if dark else "black")
        bar = figure.colorbar(image, ax=axes, shrink=0.8)
        bar.set_label(f"largest difference, {unit}")
        axes.set_title("each cell: largest difference; cases that differ / cases both scored",
                       fontsize=9)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()

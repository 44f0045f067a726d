"""The agreement matrix as a PNG picture (matplotlib, the optional extra ``html``).

Drawn without pyplot (no global state) on a fixed size and resolution, with the
default style and no ``Software`` metadata, so that the same matrix gives the same
bytes on every run with the same matplotlib and Pillow.  The picture is reduced to
a palette of ``COLOURS`` colours (Pillow comes with matplotlib): a third of the
bytes of full colour, which the committed ``report.html`` carries once per metric.
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
#: Colours of the saved picture's palette: the matrix cells take a handful, the
#: rest go to the colour bar and the edges of the letters.
COLOURS = 64
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
    from PIL import Image

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
        drawn = io.BytesIO()
        figure.savefig(drawn, format="png", dpi=DPI, metadata={"Software": None})
    with Image.open(drawn) as picture:
        reduced = picture.convert("RGB").quantize(colors=COLOURS)
    buffer = io.BytesIO()
    reduced.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()

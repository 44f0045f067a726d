"""The look of ``report.html``: its one inline style sheet, and the shades and
colours of the agreement and case matrices' cells."""

from __future__ import annotations

from metricdiff.reports.html_cases import CLASS_COLOURS

#: Where the typical difference of two implementations (the mean |Δ| over the
#: cases both scored, in points) crosses into the next shade of an agreement
#: matrix: the colour follows the typical difference, not the largest.
SHADES = (0.0, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0)
SHADE_COLOURS = ("#ffffff", "#fdf3e7", "#fde2c4", "#fbc99a", "#f7a46c", "#ef7b4a", "#d9533b",
                 "#b8322a")

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
.sig { font-size: 0.8em; white-space: nowrap; font-family: ui-monospace, monospace; }
td.cause { white-space: nowrap; }
table.packages code, td.cause code, td.who code { white-space: nowrap; word-break: normal; }
.v-conforms { background: #cdebc5; font-weight: bold; }
.v-convention { background: #ffe3a3; font-weight: bold; }
.v-defect { background: #f4b6b6; font-weight: bold; }
table.matrix td { text-align: center; font-size: 0.9em; white-space: nowrap; }
table.matrix td.self { background: #eee; }
.key { padding: 0 0.4em; border: 1px solid #bbb; }
details summary { cursor: pointer; margin: 0.4em 0; }
table.cases td { text-align: center; font-family: ui-monospace, monospace;
  background: """ + CLASS_COLOURS[0] + """; }
table.cases th { font-weight: normal; }
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
    f"td.{name} {{ {style} }}\n" for name, style in CELL_CLASSES.items()) + "".join(
    f".s{level} {{ background: {colour};{' color: #fff;' if level >= 6 else ''} }}\n"
    for level, colour in enumerate(SHADE_COLOURS))

"""``metricdiff axes [AXIS] [--format text|md]``: every convention axis (or one),
its values and what they mean, and the paper's value.

``--format md`` prints the Markdown of ``docs/conventions.md`` (for one axis, its
section), which is how that file is regenerated.
"""

from __future__ import annotations

import argparse
import sys

from metricdiff.cli._common import Commands
from metricdiff.profiles import axis_named
from metricdiff.profiles.conventions import (
    axes_text,
    axis_markdown,
    axis_text,
    conventions_markdown,
)


def run(args: argparse.Namespace) -> int:
    if args.axis is None:
        text = conventions_markdown() if args.format == "md" else axes_text()
    else:
        axis = axis_named(args.axis)  # an unknown name: ConventionError, exit 2
        text = axis_markdown(axis) if args.format == "md" else axis_text(axis)
    sys.stdout.write(text)
    return 0


def register(commands: Commands) -> None:
    axes = commands.add_parser(
        "axes", help="list the convention axes, their values and the paper's value"
    )
    axes.add_argument("axis", nargs="?", metavar="AXIS",
                      help="one axis (default: every axis)")
    axes.add_argument("--format", choices=("text", "md"), default="text",
                      help="text (default) or md: the Markdown of docs/conventions.md")
    axes.set_defaults(run=run)

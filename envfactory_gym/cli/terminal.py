"""The console every command prints through: the terminal's width, or 160 columns when output goes to a file or
a pipe (so tables in logs keep their columns); wide tables print whole rather than squeezed into a narrow one."""

from __future__ import annotations

import os
import sys

from rich.console import Console, RenderableType
from rich.measure import Measurement

PIPED_WIDTH = 160

console = Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else PIPED_WIDTH)


def print_whole(renderable: RenderableType) -> None:
    """Print `renderable` at its natural width when the console is narrower, so no cell is cut to an ellipsis
    (a narrow terminal wraps the lines; the values stay whole and greppable)."""
    natural = Measurement.get(console, console.options.update_width(1_000), renderable).maximum
    target = console if natural <= console.width else Console(width=natural, highlight=console._highlight)
    target.print(renderable)

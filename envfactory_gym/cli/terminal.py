"""The console every command prints through: the terminal's width, or 160 columns when output goes to a file or
a pipe (so tables in logs keep their columns)."""

from __future__ import annotations

import os
import sys

from rich.console import Console

PIPED_WIDTH = 160

console = Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else PIPED_WIDTH)

"""`envfactory cache`: where the on-disk replay cache lives and what it holds; `--clear` empties it."""

from __future__ import annotations

import argparse
from typing import Any

from .terminal import console


def cmd_cache(args: argparse.Namespace) -> int:
    """Print the cache folder, its file count and size; with `--clear`, delete its files first."""
    from .. import replay_cache

    if args.clear:
        console.print(f"removed {replay_cache.clear()} cached files")
    folder = replay_cache.cache_dir()
    files = [p for p in folder.rglob("*") if p.is_file()] if folder.is_dir() else []
    size = sum(p.stat().st_size for p in files)
    state = "on" if replay_cache.enabled() else "off (ENVFACTORY_REPLAY_CACHE=0)"
    console.print(f"replay cache: {folder} ({len(files)} files, {size / 1e6:.1f} MB; {state})")
    return 0


def register(sub: Any) -> None:
    """Add cache."""
    cache = sub.add_parser("cache", help="show the on-disk replay cache (its folder and size) or clear it")
    cache.add_argument("--clear", action="store_true", help="delete every cached replay and content hash")
    cache.set_defaults(func=cmd_cache)

"""Resource limits of a sandboxed process: what a run may use, and the rlimits that enforce it."""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What one sandboxed run may use."""

    cpu_s: float = 120.0  # CPU seconds of the whole child: its timer first, RLIMIT_CPU one second later
    wall_s: float = 300.0  # wall-clock seconds before the whole process group is killed
    memory_mb: int = 4096  # address space (RLIMIT_AS)
    file_mb: int = 16  # largest file the process may write (RLIMIT_FSIZE)
    processes: int = 16  # extra processes of the user (RLIMIT_NPROC; root is exempt, the guard blocks forks)
    open_files: int = 256  # RLIMIT_NOFILE


def user_process_count(uid: int) -> int:
    """Processes currently owned by `uid` (RLIMIT_NPROC counts them all, so the limit is set above this)."""
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                count += entry.stat().st_uid == uid
            except OSError:
                continue
    return count


def rlimit_values(limits: Limits, uid: int) -> dict[str, int]:
    """The rlimits to set, by `resource` constant name (JSON-ready: the child applies them to itself)."""
    return {
        "RLIMIT_CPU": int(limits.cpu_s) + 1,
        "RLIMIT_AS": limits.memory_mb * MB,
        "RLIMIT_FSIZE": limits.file_mb * MB,
        "RLIMIT_NPROC": user_process_count(uid) + limits.processes,
        "RLIMIT_NOFILE": limits.open_files,
        "RLIMIT_CORE": 0,
    }


def apply_rlimits(values: dict[str, int]) -> None:
    """Set each rlimit (soft = hard, so it cannot be raised again without privileges)."""
    for name, value in values.items():
        resource.setrlimit(getattr(resource, name), (value, value))

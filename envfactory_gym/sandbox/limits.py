"""What one sandboxed worker may use, and the rlimits that enforce it in the kernel."""

from __future__ import annotations

import os
from dataclasses import dataclass

MB = 1024 * 1024
#: The unprivileged user and group a sandboxed worker runs as when the caller is root (`nobody`/`nogroup`).
NOBODY = 65534


@dataclass(frozen=True)
class Limits:
    """Limits of a sandboxed worker. CPU and wall clock count per call; memory, files and processes per worker."""

    cpu_s: float = 120.0  # CPU seconds of one call: an in-process timer first, then the parent kills the worker
    cpu_grace_s: float = 1.0  # how far past `cpu_s` a call may run (e.g. a loop in C code) before it is killed
    wall_s: float = 300.0  # wall-clock seconds of one call (the worker's start included) before it is killed
    memory_mb: int = 4096  # address space of the worker (RLIMIT_AS)
    file_mb: int = 16  # largest file the worker may write (RLIMIT_FSIZE)
    disk_mb: int = 256  # size of its scratch folder (a tmpfs of that size; no other folder is writable)
    processes: int = 0  # child processes it may start: 0 forbids fork, clone and exec (seccomp)
    threads: int = 32  # threads besides the main one (RLIMIT_NPROC counts threads too)
    open_files: int = 256  # RLIMIT_NOFILE
    lifetime_cpu_s: float = 3600.0  # RLIMIT_CPU of the whole worker: the kernel's backstop over all its calls
    message_mb: int = 256  # largest message the parent accepts from the worker

    def __post_init__(self) -> None:
        for name in (
            "cpu_s",
            "cpu_grace_s",
            "wall_s",
            "memory_mb",
            "file_mb",
            "disk_mb",
            "open_files",
            "lifetime_cpu_s",
            "message_mb",
        ):
            if getattr(self, name) <= 0:
                raise ValueError(f"Limits.{name} must be positive, got {getattr(self, name)!r}")
        for name in ("processes", "threads"):
            if getattr(self, name) < 0:
                raise ValueError(f"Limits.{name} must be >= 0, got {getattr(self, name)!r}")


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
    """The rlimits the worker sets on itself before it reads any request (soft = hard), by `resource` name."""
    return {
        "RLIMIT_CPU": int(limits.lifetime_cpu_s) + 1,
        "RLIMIT_AS": limits.memory_mb * MB,
        "RLIMIT_FSIZE": limits.file_mb * MB,
        "RLIMIT_NPROC": user_process_count(uid) + 1 + limits.processes + limits.threads,
        "RLIMIT_NOFILE": limits.open_files,
        "RLIMIT_CORE": 0,
        "RLIMIT_MEMLOCK": 0,
    }

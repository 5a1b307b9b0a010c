"""The worker's second layer: an audit hook that refuses, and reports with the generated file and line, what the
kernel layer (namespaces, seccomp, rlimits, an unprivileged user) would refuse anyway or what generated code should
not do: network, process creation, foreign functions, interpreter introspection, raising limits, writes outside the
scratch folder, and new imports of dangerous modules. It explains refusals; it is not the wall."""

from __future__ import annotations

import os
import sys
from types import FrameType
from typing import Any, Callable

#: Modules generated code may not import (network, processes, foreign functions).
BLOCKED_MODULES = frozenset(
    {
        "socket",
        "_socket",
        "ssl",
        "_ssl",
        "select",
        "selectors",
        "socketserver",
        "http.client",
        "urllib.request",
        "ftplib",
        "smtplib",
        "subprocess",
        "_posixsubprocess",
        "multiprocessing",
        "_multiprocessing",
        "pty",
        "ctypes",
        "_ctypes",
        "cffi",
        "_cffi_backend",
        "mmap",
        "pyseccomp",
    }
)
#: Audit events that are refused outright.
_PROCESS_EVENTS = {
    "os.fork",
    "os.forkpty",
    "os.posix_spawn",
    "os.spawn",
    "os.exec",
    "os.system",
    "subprocess.Popen",
    "pty.spawn",
    "os.kill",
    "os.killpg",
    "signal.pthread_kill",
}
_INTROSPECTION_EVENTS = {"gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._current_frames"}
_LIMIT_EVENTS = {"resource.setrlimit", "resource.prlimit"}
_SQLITE_EVENTS = {"sqlite3.enable_load_extension", "sqlite3.load_extension"}
#: event -> ((path position, dir_fd position or None), ...) for the paths it writes to.
_PATH_EVENTS: dict[str, tuple[tuple[int, int | None], ...]] = {
    "os.remove": ((0, 1),),
    "os.rmdir": ((0, 1),),
    "os.mkdir": ((0, 2),),
    "os.rename": ((0, 2), (1, 3)),
    "os.link": ((0, 2), (1, 3)),
    "os.symlink": ((1, 2),),
    "os.chmod": ((0, 2),),
    "os.chown": ((0, 3),),
    "os.truncate": ((0, None),),
    "os.utime": ((0, 3),),
    "shutil.rmtree": ((0, None),),
    "os.mkfifo": ((0, 2),),
    "os.mknod": ((0, 3),),
    "sqlite3.connect": ((0, None),),
}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_HARMLESS = {os.devnull, ":memory:", ""}


class SandboxViolation(PermissionError):
    """A refused operation (a PermissionError, so library code treats it like a refused system call)."""


def _category(event: str) -> str | None:
    if event.startswith("socket."):
        return "network"
    if event in _PROCESS_EVENTS:
        return "process"
    if event.startswith("ctypes.") or event in _SQLITE_EVENTS:
        return "ffi"
    if event in _INTROSPECTION_EVENTS:
        return "introspection"
    if event in _LIMIT_EVENTS:
        return "limits"
    return None


class Guard:
    """Decides on every audit event; `record` is called with each violation before it is raised."""

    def __init__(
        self, scratch: str, record: Callable[[dict[str, Any]], None], blocked_modules: frozenset[str] = BLOCKED_MODULES
    ) -> None:
        self.scratch = os.path.realpath(scratch)
        self.record = record
        self.blocked_modules = blocked_modules

    def inside(self, path: Any, dir_fd: Any = None) -> bool:
        """Whether a path (str, bytes or path-like; relative to `dir_fd` or the cwd) lies inside the scratch folder."""
        if isinstance(path, int):
            return True  # an already open descriptor: its opening was checked
        text = os.fsdecode(path)
        if text in _HARMLESS or text.startswith("file::memory:"):
            return True
        if isinstance(dir_fd, int) and not os.path.isabs(text):
            try:
                text = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), text)
            except OSError:
                return False
        real = os.path.realpath(text)
        return real == self.scratch or real.startswith(self.scratch + os.sep)

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            writing = any(c in mode for c in "wax+") if isinstance(mode, str) else bool((flags or 0) & _WRITE_FLAGS)
            if writing and path is not None and not self.inside(path):
                self.block("file", event, f"writing {os.fsdecode(path)!r} outside the scratch folder")
            return
        if event == "import":
            name = args[0]
            if name in self.blocked_modules or name.split(".")[0] in self.blocked_modules:
                self.block("import", event, f"importing {name!r} is not allowed")
            return
        positions = _PATH_EVENTS.get(event)
        if positions is not None:
            for index, fd_index in positions:
                path = args[index] if index < len(args) else None
                dir_fd = args[fd_index] if fd_index is not None and fd_index < len(args) else None
                if path is not None and not self.inside(path, dir_fd):
                    self.block("file", event, f"{event} on {os.fsdecode(path)!r} outside the scratch folder")
            return
        category = _category(event)
        if category is not None:
            self.block(category, event, f"{event} is not allowed")

    def block(self, category: str, event: str, message: str) -> None:
        """Record the violation (with the innermost line of scratch-folder code that caused it) and refuse it."""
        self.record({"category": category, "event": event, "message": message, "where": self.culprit()})
        raise SandboxViolation(f"sandbox: {message}")

    def culprit(self) -> str:
        """`path:line` (relative to the scratch folder) of the innermost frame of code from the scratch folder."""
        frame: FrameType | None = sys._getframe(1)
        while frame is not None:
            filename = frame.f_code.co_filename
            if filename.startswith(self.scratch + os.sep):
                return f"{os.path.relpath(filename, self.scratch)}:{frame.f_lineno}"
            frame = frame.f_back
        return ""


def install(guard: Guard) -> None:
    """Forget the already imported blocked modules (a new import must pass the guard) and add the audit hook,
    which stays for the life of the process."""
    for name in list(sys.modules):
        if name in guard.blocked_modules or name.split(".")[0] in guard.blocked_modules:
            del sys.modules[name]
    sys.dont_write_bytecode = True
    sys.addaudithook(guard)

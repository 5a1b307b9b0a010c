"""The in-process guard of a sandboxed child: an audit hook that blocks network, process creation, FFI, new imports
of dangerous modules, and writes outside the scratch folder, and records every blocked attempt."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

#: Modules generated code may not import (network, processes, foreign functions).
BLOCKED_MODULES = frozenset({
    "socket", "_socket", "ssl", "_ssl", "select", "selectors", "socketserver", "http.client", "urllib.request",
    "ftplib", "smtplib", "subprocess", "_posixsubprocess", "multiprocessing", "_multiprocessing", "pty",
    "ctypes", "_ctypes", "cffi", "mmap",
})
#: Audit events that are refused outright, with the reason shown in the report.
_PROCESS_EVENTS = {"os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.exec", "os.system",
                   "subprocess.Popen", "pty.spawn", "os.kill", "os.killpg", "signal.pthread_kill"}
_INTROSPECTION_EVENTS = {"gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._current_frames"}
_LIMIT_EVENTS = {"resource.setrlimit", "resource.prlimit"}
_PATH_EVENTS = {  # event -> positions of the path arguments it writes to
    "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,), "os.rename": (0, 1), "os.link": (0, 1),
    "os.symlink": (1,), "os.chmod": (0,), "os.chown": (0,), "os.truncate": (0,), "os.utime": (0,),
    "shutil.rmtree": (0,), "os.mkfifo": (0,), "os.mknod": (0,),
}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class SandboxViolation(PermissionError):
    """A blocked operation (a PermissionError, so library code treats it like a refused system call)."""


def _category(event: str) -> str | None:
    if event.startswith("socket."):
        return "network"
    if event in _PROCESS_EVENTS:
        return "process"
    if event.startswith("ctypes."):
        return "ffi"
    if event in _INTROSPECTION_EVENTS:
        return "introspection"
    if event in _LIMIT_EVENTS:
        return "limits"
    return None


class Guard:
    """Decides on every audit event; `record` is called with each violation before it is raised."""

    def __init__(self, scratch: Path, record: Callable[[dict[str, Any]], None],
                 blocked_modules: frozenset[str] = BLOCKED_MODULES) -> None:
        self.scratch = os.path.realpath(scratch)
        self.record = record
        self.blocked_modules = blocked_modules

    def inside(self, path: Any) -> bool:
        """Whether a path (str, bytes or path-like; relative to the cwd) resolves inside the scratch folder."""
        if isinstance(path, int):
            return True  # an already open descriptor: its opening was checked
        real = os.path.realpath(os.fsdecode(path))
        if real == os.devnull:
            return True
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
            for index in positions:
                if index < len(args) and args[index] is not None and not self.inside(args[index]):
                    self.block("file", event, f"{event} on {os.fsdecode(args[index])!r} outside the scratch folder")
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
        frame = sys._getframe(1)
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

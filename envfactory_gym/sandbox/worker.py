"""A sandboxed worker (`python -I -B -c ... envfactory_gym.sandbox.worker CONFIG`): it limits itself, receives its
files and the modules to preload, refuses further exec and installs the guard, then answers calls
`entry(payload)` one at a time over the pipe until the parent closes it.

Everything here runs before any generated code, inside the kernel's isolation (see `kernel.py`)."""

from __future__ import annotations

import base64
import errno
import importlib
import importlib.util
import json
import os
import resource
import signal
import sys
import traceback
from pathlib import Path, PurePosixPath
from typing import Any, Callable

from . import channel
from .guard import Guard, SandboxViolation, install
from .protocol import read_frame, write_frame

REQUESTS, RESPONSES = 0, 3
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2


class CPULimitExceeded(BaseException):
    """Raised in the worker when a call's CPU budget is spent (generated code's `except Exception` misses it)."""


def _on_cpu_limit(signum: int, frame: Any) -> None:
    raise CPULimitExceeded(f"CPU time limit exceeded during {channel.current() or 'the call'}")


def apply_rlimits(values: dict[str, int]) -> None:
    """Set each rlimit (soft = hard, so it cannot be raised again)."""
    for name, value in values.items():
        resource.setrlimit(getattr(resource, name), (value, value))


def close_inherited(keep: set[int]) -> None:
    """Close every descriptor but `keep` (nothing the parent or bubblewrap held open stays reachable)."""
    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(resource.getrlimit(resource.RLIMIT_NOFILE)[0]))
    for fd in fds:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def load_seccomp(program: bytes) -> None:
    """Install one more seccomp filter on this process (BPF compiled by the parent)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(buffer))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "cannot load the exec filter")


def write_files(scratch: Path, files: dict[str, str]) -> None:
    """Write the base64-encoded files under the scratch folder (relative paths only)."""
    for relative, encoded in files.items():
        parts = PurePosixPath(relative).parts
        if not parts or PurePosixPath(relative).is_absolute() or ".." in parts:
            raise ValueError(f"file path {relative!r} must be relative and stay inside the scratch folder")
        target = scratch.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(encoded))


_ENTRIES: dict[str, Callable[[Any], Any]] = {}


def resolve_entry(entry: str, scratch: Path) -> Callable[[Any], Any]:
    """`package.module:function` (trusted, importable) or `file.py:function` (a file of the scratch folder)."""
    if entry not in _ENTRIES:
        target, _, function = entry.rpartition(":")
        if target.endswith(".py"):
            path = (scratch / target).resolve()
            module_spec = importlib.util.spec_from_file_location(path.stem, path)
            if module_spec is None or module_spec.loader is None:
                raise ImportError(f"cannot load {target}")
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[path.stem] = module
            module_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(target)
        _ENTRIES[entry] = getattr(module, function)
    return _ENTRIES[entry]


def _failure(status: str, exc: BaseException) -> dict[str, Any]:
    return {
        "status": status,
        "error": f"{type(exc).__name__}: {exc}"[:19000],
        "traceback": "".join(traceback.format_exception(exc)[-6:])[-19000:],
    }


def run_call(request: dict[str, Any], scratch: Path, cpu_s: float) -> dict[str, Any]:
    """Run one call; every way it can end in here becomes a result."""
    channel.begin(request["id"])
    signal.setitimer(signal.ITIMER_PROF, max(0.01, cpu_s))
    try:
        channel.mark("import entry")
        entry = resolve_entry(request["entry"], scratch)
        channel.mark("run entry")
        value = entry(request.get("payload"))
        json.dumps(value)  # a value the parent cannot read is the entry's error
        return {"status": "ok", "value": value}
    except CPULimitExceeded as exc:
        return {"status": "cpu", "error": str(exc)}
    except MemoryError as exc:
        return {"status": "memory", "error": f"memory limit exceeded during {channel.current()}", **_trace(exc)}
    except SandboxViolation as exc:
        return _failure("violation", exc)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            return {"status": "file_size", "error": f"file size limit exceeded during {channel.current()}"}
        return _failure("error", exc)
    except BaseException as exc:  # generated code failing is a result, not a crash of the worker
        return _failure("error", exc)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def _trace(exc: BaseException) -> dict[str, str]:
    return {"traceback": "".join(traceback.format_exception(exc)[-4:])[-19000:]}


def main(argv: list[str]) -> int:
    """Limit this process, set it up from the parent's first message, then serve calls until the pipe closes."""
    config = json.loads(argv[1])
    apply_rlimits(config["rlimits"])
    os.dup2(config["responses"], RESPONSES)
    close_inherited({0, 1, 2, RESPONSES})
    channel.connect(RESPONSES)
    init = read_frame(REQUESTS)
    if init is None:
        return 1
    scratch = Path(config["scratch"])
    write_files(scratch, init.get("files", {}))
    os.chdir(scratch)
    for name in init.get("preload", []):
        importlib.import_module(name)
    if init.get("exec_filter"):
        load_seccomp(base64.b64decode(init["exec_filter"]))
    if init.get("guard", True):
        install(Guard(str(scratch), channel.violation))
    signal.signal(signal.SIGPROF, _on_cpu_limit)
    write_frame(RESPONSES, {"type": "ready", "pid": os.getpid()})
    while (request := read_frame(REQUESTS)) is not None:
        result = run_call(request, scratch, float(init["cpu_s"]))
        try:
            write_frame(RESPONSES, {"type": "result", "id": request["id"], **result})
        except (TypeError, ValueError) as exc:
            write_frame(
                RESPONSES,
                {"type": "result", "id": request["id"], "status": "error", "error": f"result is not JSON: {exc}"},
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Parent side of the sandbox: prepare a scratch folder, start the isolated child, enforce the wall clock, and turn
how it ended into a `SandboxResult` with a clear reason."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .limits import Limits, rlimit_values

UNSHARE = ("unshare", "--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child")
#: Trusted modules the child imports before the guard is installed (generated code then finds them loaded).
VIOLATION_LABELS = {"network": "network access", "process": "process creation", "file": "file write",
                    "import": "import", "ffi": "foreign function call", "introspection": "interpreter introspection",
                    "limits": "change of resource limits"}
DEFAULT_PRELOAD = ("envfactory_gym", "envfactory_gym.verify", "gymnasium.utils.env_checker", "sqlalchemy", "pydantic")


@lru_cache(maxsize=1)
def namespaces_available() -> bool:
    """Whether `unshare` can create user, network and pid namespaces here without privileges."""
    if shutil.which("unshare") is None:
        return False
    try:
        return subprocess.run([*UNSHARE, "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@dataclass
class SandboxResult:
    """How a sandboxed run ended. `status`: ok, error (the entry raised), violation (a blocked operation), cpu,
    memory, timeout, file_size, crashed."""

    status: str
    value: Any = None
    reason: str = ""
    violations: list[dict[str, Any]] = field(default_factory=list)
    last_mark: str = ""
    returncode: int | None = None
    wall_s: float = 0.0
    cpu_s: float = 0.0
    stdout: str = ""
    stderr: str = ""
    isolation: str = ""

    @property
    def ok(self) -> bool:
        """The entry returned a value and nothing was blocked."""
        return self.status == "ok" and not self.violations


def clean_environment(scratch: Path) -> dict[str, str]:
    """The child's whole environment: no inherited secrets, proxies or Python paths."""
    return {
        "PATH": "/usr/bin:/bin", "HOME": str(scratch), "TMPDIR": str(scratch), "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    }


class Sandbox:
    """Runs trusted entry functions on generated code, each run in a fresh scratch folder and process."""

    def __init__(self, limits: Limits = Limits(), *, preload: tuple[str, ...] = DEFAULT_PRELOAD,
                 namespaces: bool | None = None, python: str = sys.executable) -> None:
        self.limits = limits
        self.preload = preload
        self.namespaces = namespaces_available() if namespaces is None else namespaces
        self.python = python

    def run(self, entry: str, payload: Any = None, files: Mapping[str, str | bytes] | None = None) -> SandboxResult:
        """Write `files` (relative path -> content) into a new scratch folder and call `entry(payload)` there.

        `entry` is `package.module:function` (trusted code, imported before the guard) or `file.py:function`
        (a file of the scratch folder, imported under the guard). Nothing of the run stays on disk."""
        with tempfile.TemporaryDirectory(prefix="envfactory-sandbox-") as root:
            io_dir, scratch = Path(root) / "io", Path(root) / "scratch"
            io_dir.mkdir()
            scratch.mkdir()
            for relative, content in (files or {}).items():
                target = scratch / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content if isinstance(content, bytes) else content.encode())
            job = {"entry": entry, "payload": payload, "scratch": str(scratch), "preload": list(self.preload),
                   "cpu_s": self.limits.cpu_s, "rlimits": rlimit_values(self.limits, os.getuid()),
                   "result_path": str(io_dir / "result.json"),
                   "events_path": str(io_dir / "events.jsonl")}
            (io_dir / "job.json").write_text(json.dumps(job, default=str))
            return self._execute(io_dir, scratch)

    def _command(self, io_dir: Path) -> list[str]:
        command = [self.python, "-I", "-B", "-m", "synth.sandbox.child", str(io_dir / "job.json")]
        return [*UNSHARE, *command] if self.namespaces else command

    def _execute(self, io_dir: Path, scratch: Path) -> SandboxResult:
        started = time.monotonic()
        with open(io_dir / "stdout", "wb") as out, open(io_dir / "stderr", "wb") as err:
            process = subprocess.Popen(
                self._command(io_dir), cwd=scratch, env=clean_environment(scratch), stdin=subprocess.DEVNULL,
                stdout=out, stderr=err, start_new_session=True, close_fds=True,
            )
            status, cpu, timed_out = self._wait(process)
        wall = time.monotonic() - started
        result = self._result(io_dir, status, timed_out, cpu)
        result.wall_s, result.cpu_s = round(wall, 3), round(cpu, 3)
        result.isolation = "namespaces+guard" if self.namespaces else "guard"
        return result

    def _wait(self, process: subprocess.Popen) -> tuple[int, float, bool]:
        """Wait for the child (polling `wait4` for its CPU time); on the wall limit kill its process group."""
        deadline = time.monotonic() + self.limits.wall_s
        timed_out = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() >= deadline and not timed_out:
                timed_out = True
                _kill_group(process.pid)
            time.sleep(0.01)
        process.returncode = os.waitstatus_to_exitcode(status)
        _kill_group(process.pid)  # anything the child left behind in its group
        return process.returncode, usage.ru_utime + usage.ru_stime, timed_out

    def _result(self, io_dir: Path, returncode: int, timed_out: bool, cpu: float) -> SandboxResult:
        events = _read_events(io_dir / "events.jsonl")
        marks = [e["mark"] for e in events if "mark" in e]
        violations = [e["violation"] for e in events if "violation" in e]
        result = SandboxResult(status="crashed", violations=violations, last_mark=marks[-1] if marks else "",
                               returncode=returncode, stdout=_tail(io_dir / "stdout"), stderr=_tail(io_dir / "stderr"))
        during = f" during {result.last_mark}" if result.last_mark else ""
        payload = _read_result(io_dir / "result.json")
        if timed_out:
            result.status, result.reason = "timeout", f"wall time limit of {self.limits.wall_s:g} s exceeded{during}"
        elif payload is not None:
            result.status, result.value = payload["status"], payload.get("value")
            result.reason = payload.get("error", "")
            if payload.get("traceback"):
                result.stderr = (result.stderr + "\n" + payload["traceback"]).strip()
        elif cpu >= self.limits.cpu_s - 0.5:  # killed by RLIMIT_CPU (unshare reports it as its own exit)
            result.status, result.reason = "cpu", f"killed at the CPU time limit of {self.limits.cpu_s:g} s{during}"
        elif returncode < 0:
            result.reason = f"killed by {signal.Signals(-returncode).name}{during}"
        else:
            result.reason = f"exited with code {returncode} without a result{during}"
        if violations and result.status in ("ok", "error", "crashed", "violation"):
            result.status, result.reason = "violation", violation_reason(violations[0])
        return result


def violation_reason(violation: dict[str, Any]) -> str:
    """`blocked <what>: <message> (<file:line>, during <mark>)`."""
    when = f"during {violation['during']}" if violation["during"] else ""
    where = ", ".join(x for x in (violation.get("where"), when) if x)
    label = VIOLATION_LABELS.get(violation["category"], violation["category"])
    return f"blocked {label}: {violation['message']}" + (f" ({where})" if where else "")


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    events = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return events


def _read_result(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) and "status" in data else None


def _tail(path: Path, limit: int = 4000) -> str:
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-limit:].decode(errors="replace")

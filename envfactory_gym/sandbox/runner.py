"""Parent side of the sandbox: a persistent sandboxed worker per session (`Worker`), one-shot runs (`Sandbox`),
and the verdict of each call (`SandboxResult`), decided here from what the parent saw, never from a flag the
worker sent."""

from __future__ import annotations

import base64
import collections
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

from pydantic import BaseModel, ValidationError

from . import kernel
from .limits import NOBODY, Limits, rlimit_values
from .protocol import FrameBuffer, Mark, ProtocolError, Ready, Result, Violation, encode, parse

#: Environment variable that, set to "1", explicitly runs workers without kernel isolation (results say so).
OPT_OUT = "ENVFACTORY_UNSANDBOXED"
VIOLATION_LABELS = {
    "network": "network access",
    "process": "process creation",
    "file": "file write",
    "import": "import",
    "ffi": "foreign function call",
    "introspection": "interpreter introspection",
    "limits": "change of resource limits",
}
#: Trusted modules every worker imports before its guard is installed (generated code finds them loaded).
DEFAULT_PRELOAD = ("envfactory_gym", "envfactory_gym.verify", "gymnasium.utils.env_checker", "sqlalchemy", "pydantic")
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class SandboxResult:
    """How a call ended, as the parent saw it. `status`: ok, error (the entry raised; traceback in `stderr`),
    violation (the guard refused something), cpu, memory, file_size, timeout, invalid (the answer failed its schema),
    crashed (the worker died or broke the protocol). `sandboxed` is False only under the explicit opt-out."""

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
    sandboxed: bool = True

    @property
    def ok(self) -> bool:
        """The entry returned a valid value and nothing was refused."""
        return self.status == "ok" and not self.violations


def violation_reason(violation: Mapping[str, Any]) -> str:
    """`blocked <what>: <message> (<file:line>, during <mark>)`."""
    when = f"during {violation['during']}" if violation.get("during") else ""
    where = ", ".join(x for x in (violation.get("where"), when) if x)
    label = VIOLATION_LABELS.get(violation["category"], violation["category"])
    return f"blocked {label}: {violation['message']}" + (f" ({where})" if where else "")


def unsandboxed_opt_out() -> bool:
    """Whether the user asked to run workers without kernel isolation (`ENVFACTORY_UNSANDBOXED=1`)."""
    return os.environ.get(OPT_OUT, "") == "1"


class _OutputTail:
    """Drains the worker's stdout and stderr (one pipe) in a thread, keeping the last `limit` bytes."""

    def __init__(self, fd: int, limit: int = 16000) -> None:
        self.chunks: collections.deque[bytes] = collections.deque()
        self.size, self.limit, self.fd = 0, limit, fd
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        while chunk := os.read(self.fd, 65536):
            self.chunks.append(chunk)
            self.size += len(chunk)
            while self.size - len(self.chunks[0]) >= self.limit:
                self.size -= len(self.chunks.popleft())
        os.close(self.fd)

    def text(self) -> str:
        return b"".join(self.chunks)[-self.limit :].decode(errors="replace")


class Worker:
    """One sandboxed Python process that stays alive across calls (one per environment session).

    `files` (relative path -> content) are written into its scratch folder, `preload` modules are imported before
    its guard, `packages` are the top-level packages whose source folders it may read (besides the Python install).
    Each `call` runs `entry(payload)` in it; a call that breaks a limit kills the worker, and the next call starts a
    fresh one. Without kernel isolation `Worker` raises `SandboxUnavailable`, unless `unsandboxed=True` (or
    `ENVFACTORY_UNSANDBOXED=1`) explicitly opts out; results then carry `sandboxed=False`.
    """

    def __init__(
        self,
        limits: Limits = Limits(),
        *,
        files: Mapping[str, str | bytes] | None = None,
        preload: tuple[str, ...] = DEFAULT_PRELOAD,
        packages: tuple[str, ...] = ("envfactory_gym",),
        unsandboxed: bool | None = None,
        log: Any = None,
        uid: int = NOBODY,
        gid: int = NOBODY,
        guard: bool = True,
    ) -> None:
        self.limits = limits
        self.files = {
            k: base64.b64encode(v if isinstance(v, bytes) else v.encode()).decode() for k, v in (files or {}).items()
        }
        self.preload = preload
        self.packages = tuple(dict.fromkeys(("envfactory_gym", "envfactory_zoo", *packages)))
        self.unsandboxed = unsandboxed_opt_out() if unsandboxed is None else unsandboxed
        self.isolation = (
            "unsandboxed (explicit opt-out): rlimits + guard only" if self.unsandboxed else kernel.check_available()
        )
        self.log = log  # a list (or anything with `append`) kept by the caller: every violation is added to it
        self.uid, self.gid = uid, gid
        self.guard = guard  # False only to test the kernel layer alone
        self.process: subprocess.Popen | None = None
        self._next_id = 0
        self._lock = threading.Lock()

    # ------------------------------------------------------------------------------------------ life cycle
    def _command(self, seccomp_fd: int | None, scratch: str, responses: int) -> list[str]:
        roots = kernel.package_dirs(self.packages)
        config = {
            "rlimits": rlimit_values(self.limits, self.uid if os.geteuid() == 0 else os.getuid()),
            "responses": responses,
            "scratch": scratch,
        }
        boot = (
            f"import sys; sys.path[:0] = {sorted(set(roots.values()))!r}; "
            "from envfactory_gym.sandbox.worker import main; sys.exit(main(sys.argv))"
        )
        python = [sys.executable, "-I", "-B", "-c", boot, json.dumps(config)]
        if self.unsandboxed:
            return python
        python_roots = kernel.python_roots()
        packages = tuple(p for p in sorted(roots) if not any(p.startswith(r + "/") for r in python_roots))
        mounts = kernel.Mounts(tuple(python_roots), packages)
        assert seccomp_fd is not None
        return [
            *kernel.bwrap_command(
                mounts,
                seccomp_fd=seccomp_fd,
                disk_mb=self.limits.disk_mb,
                root=os.geteuid() == 0,
                uid=self.uid,
                gid=self.gid,
            ),
            *python,
        ]

    def start(self) -> None:
        """Start the worker (done by the first call when needed) and wait until it is ready."""
        from .seccomp import base_filter, exec_filter, memfd

        self.close()
        self.started = time.monotonic()
        responses_r, responses_w = os.pipe()
        output_r, output_w = os.pipe()
        seccomp_fd = None if self.unsandboxed else memfd(base_filter(self.limits.processes > 0), "envfactory-seccomp")
        self._scratch_dir = tempfile.TemporaryDirectory(prefix="envfactory-sandbox-") if self.unsandboxed else None
        scratch = self._scratch_dir.name if self._scratch_dir else kernel.SCRATCH
        keep = (responses_w,) if seccomp_fd is None else (responses_w, seccomp_fd)
        try:
            self.process = subprocess.Popen(
                self._command(seccomp_fd, scratch, responses_w),
                stdin=subprocess.PIPE,
                stdout=output_w,
                stderr=output_w,
                pass_fds=keep,
                close_fds=True,
                start_new_session=True,
                cwd=scratch if self.unsandboxed else "/",
                env=kernel.worker_environment(scratch),
            )
        finally:
            for fd in (responses_w, output_w, *(() if seccomp_fd is None else (seccomp_fd,))):
                os.close(fd)
        self._responses, self._buffer = responses_r, FrameBuffer(self.limits.message_mb * 1024 * 1024)
        self._output = _OutputTail(output_r)
        self._pid: int | None = None
        exec_program = "" if self.limits.processes > 0 or self.unsandboxed else base64.b64encode(exec_filter()).decode()
        init = {
            "files": self.files,
            "preload": list(self.preload),
            "cpu_s": self.limits.cpu_s,
            "exec_filter": exec_program,
            "guard": self.guard,
        }
        self._call_started = time.monotonic()
        deadline = self._call_started + self.limits.wall_s
        frames: list[Any] = []
        outcome = self._send(init, deadline)
        if outcome is None:
            outcome = self._receive(lambda f: isinstance(f, Ready), frames, deadline, None)
        if outcome is not None:
            status, reason = outcome
            output = self._last_output
            self.close()
            raise WorkerStartError(f"the sandboxed worker did not start ({status}): {reason}\n{output[-2000:]}")

    def close(self) -> None:
        """Stop the worker (its scratch folder goes with it)."""
        process, self.process = self.process, None
        if process is not None:
            _kill(process)
            for stream in (process.stdin,):
                try:
                    stream.close()  # type: ignore[union-attr]
                except OSError:
                    pass
            os.close(self._responses)
            self._output.thread.join(timeout=2)
        scratch_dir = getattr(self, "_scratch_dir", None)
        if scratch_dir is not None:
            scratch_dir.cleanup()
            self._scratch_dir = None

    def __enter__(self) -> "Worker":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    # ------------------------------------------------------------------------------------------ calls
    def call(
        self, entry: str, payload: Any = None, schema: type[BaseModel] | Any = None, wall_s: float | None = None
    ) -> SandboxResult:
        """Run `entry(payload)` in the worker: `package.module:function` (trusted code, preloaded or importable) or
        `file.py:function` (a file of the scratch folder). With `schema` (a pydantic model or TypeAdapter), an
        ok value must validate against it (the validated object becomes `value`). `wall_s` lowers the wall-clock
        limit of this call."""
        with self._lock:
            started = self._call_started = time.monotonic()
            wall = min(wall_s, self.limits.wall_s) if wall_s else self.limits.wall_s
            if self.process is not None and select.select([self._responses], [], [], 0)[0]:
                self.close()  # it sent something between calls (answers forged ahead): it is not trusted again
            if self.process is None:
                try:
                    self.start()
                except (WorkerStartError, OSError) as exc:
                    return SandboxResult(
                        status="crashed",
                        reason=str(exc),
                        isolation=self.isolation,
                        sandboxed=not self.unsandboxed,
                        wall_s=round(time.monotonic() - started, 3),
                    )
            self._next_id += 1
            call_id = self._next_id
            deadline = started + wall
            frames: list[Any] = []
            cpu_before = self._cpu_at_end = self._cpu()
            outcome = self._send({"type": "call", "id": call_id, "entry": entry, "payload": payload}, deadline)
            if outcome is None:
                outcome = self._receive(
                    lambda f: isinstance(f, Result) and f.id == call_id, frames, deadline, cpu_before
                )
            result = self._verdict(call_id, frames, outcome, schema)
            result.wall_s = round(time.monotonic() - started, 3)
            result.cpu_s = round(max(0.0, self._cpu_at_end - cpu_before), 3)
            return result

    def _verdict(self, call_id: int, frames: list[Any], outcome: tuple[str, str] | None, schema: Any) -> SandboxResult:
        marks = [f.label for f in frames if isinstance(f, Mark) and f.id == call_id]
        violations = [f.violation.model_dump() for f in frames if isinstance(f, Violation)]  # whatever call it names
        for record in violations:
            if self.log is not None:
                self.log.append(record)
        result = SandboxResult(
            status="crashed",
            violations=violations,
            last_mark=marks[-1] if marks else "",
            isolation=self.isolation,
            sandboxed=not self.unsandboxed,
        )
        during = f" during {result.last_mark}" if result.last_mark else ""
        if outcome is not None:  # the worker is gone or was killed
            result.status, result.reason = outcome
            if not result.reason.endswith(during):
                result.reason += during
            result.returncode = self._last_returncode
            result.stdout = result.stderr = self._last_output
        else:
            answer = next(f for f in frames if isinstance(f, Result) and f.id == call_id)
            result.status, result.reason = answer.status, answer.error
            result.stdout = self._output.text()
            result.stderr = (result.stdout + "\n" + answer.traceback).strip() if answer.traceback else result.stdout
            if answer.status == "ok":
                result.value = answer.value
                if schema is not None:
                    try:
                        validator = schema if hasattr(schema, "validate_python") else None
                        result.value = (
                            validator.validate_python(answer.value)
                            if validator
                            else schema.model_validate(answer.value)
                        )
                    except ValidationError as exc:
                        result.status, result.value = "invalid", None
                        result.reason = f"the answer does not match its schema: {str(exc)[:1500]}"
        if violations and result.status in ("ok", "error", "crashed", "violation", "invalid"):
            result.status, result.reason = "violation", violation_reason(violations[0])
        return result

    # ------------------------------------------------------------------------------------------ the pipe
    def _send(self, message: dict[str, Any], deadline: float) -> tuple[str, str] | None:
        """Write one frame to the worker without blocking past the deadline; None when it was sent."""
        assert self.process is not None and self.process.stdin is not None
        data = memoryview(encode(message))
        fd = self.process.stdin.fileno()
        os.set_blocking(fd, False)
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return self._stop(
                    "timeout", f"wall time limit of {deadline - self._call_started:g} s exceeded (sending)"
                )
            _, writable, _ = select.select([], [fd], [], min(remaining, 0.1))
            if writable:
                try:
                    data = data[os.write(fd, data) :]
                except BrokenPipeError:
                    return self._ended()
        return None

    def _receive(
        self, done: Any, frames: list[Any], deadline: float, cpu_before: float | None
    ) -> tuple[str, str] | None:
        """Collect frames until `done(frame)`; (status, reason) when the worker ended or was stopped instead."""
        self._cpu_at_end = self._cpu() if cpu_before is not None else 0.0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return self._stop("timeout", f"wall time limit of {deadline - self._call_started:g} s exceeded")
            readable, _, _ = select.select([self._responses], [], [], min(remaining, 0.1))
            if cpu_before is not None:
                self._cpu_at_end = self._cpu()
                if self._cpu_at_end - cpu_before > self.limits.cpu_s + self.limits.cpu_grace_s:
                    return self._stop("cpu", f"killed at the CPU time limit of {self.limits.cpu_s:g} s")
            if not readable:
                continue
            chunk = os.read(self._responses, 1 << 20)
            if not chunk:
                return self._ended()
            try:
                bodies = self._buffer.feed(chunk)
                for index, body in enumerate(bodies):
                    frame = parse(body)
                    frames.append(frame)
                    if done(frame):
                        if index + 1 < len(bodies) or self._buffer.data:
                            raise ProtocolError("the worker sent more after its answer")
                        return None
                    if isinstance(frame, (Result, Ready)):
                        raise ProtocolError(f"the worker sent an unexpected {frame.type} message")
            except ProtocolError as exc:
                return self._stop("crashed", str(exc))

    def _cpu(self) -> float:
        """CPU seconds used so far by the worker's Python process (read from the host's /proc)."""
        pid = self._worker_pid()
        if pid is None:
            return 0.0
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS

    def _worker_pid(self) -> int | None:
        if self._pid is None and self.process is not None:
            if self.unsandboxed:
                self._pid = self.process.pid
            else:  # bubblewrap's only child is the worker (pid 1 of its namespace)
                children = _children(self.process.pid)
                self._pid = children[0] if children else None
        return self._pid

    def _stop(self, status: str, reason: str) -> tuple[str, str]:
        self._finish(wait_s=0)
        return status, reason

    def _ended(self) -> tuple[str, str]:
        """The worker closed the pipe: why it ended."""
        code = self._finish(wait_s=2)
        if code is not None and code < 0:
            name = signal.Signals(-code).name
            if -code in (signal.SIGXCPU, signal.SIGKILL) and self._cpu_at_end >= self.limits.lifetime_cpu_s - 1:
                return "cpu", f"killed at the worker's lifetime CPU limit ({name})"
            return "crashed", f"killed by {name}"
        return "crashed", f"exited with code {code} without a result"

    def _finish(self, wait_s: float) -> int | None:
        """Let the worker end (at most `wait_s`), kill what is left, and remember how it ended and what it printed
        (the next call starts a new one)."""
        process = self.process
        if process is not None and wait_s:
            try:
                process.wait(timeout=wait_s)
            except subprocess.TimeoutExpired:
                pass
        code = _kill(process) if process is not None else None
        if process is not None:
            self._output.thread.join(timeout=2)
        self._last_returncode, self._last_output = code, self._output.text()
        self.close()
        return code


class WorkerStartError(RuntimeError):
    """The worker could not be started or set up."""


def _kill(process: subprocess.Popen) -> int | None:
    """SIGKILL the sandboxed worker and the process group it was started in, and reap it.

    The worker is killed by its own pid, read while bubblewrap still holds it: `--new-session` takes it out of
    bubblewrap's process group, and dropping to an unprivileged user clears its parent-death signal, so neither
    the group kill nor bubblewrap's death would reach it (a looping worker then ran on for an hour). It is pid 1
    of its namespace: everything inside goes with it."""
    if process.poll() is None:
        for pid in _children(process.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        return process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        return None


def _children(pid: int) -> list[int]:
    """The direct children of a process (from /proc; none when it is gone)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(child) for child in listing.read().split()]
    except OSError:
        return []


class Sandbox:
    """One-shot runs: each `run` gets a fresh worker with its own scratch folder, used for one call and stopped."""

    def __init__(
        self,
        limits: Limits = Limits(),
        *,
        preload: tuple[str, ...] = DEFAULT_PRELOAD,
        packages: tuple[str, ...] = ("envfactory_gym",),
        unsandboxed: bool | None = None,
        log: Any = None,
    ) -> None:
        self.limits, self.preload, self.packages, self.log = limits, preload, packages, log
        self.unsandboxed = unsandboxed_opt_out() if unsandboxed is None else unsandboxed

    def worker(self, files: Mapping[str, str | bytes] | None = None) -> Worker:
        """A persistent worker with these limits and files (the caller closes it)."""
        return Worker(
            self.limits,
            files=files,
            preload=self.preload,
            packages=self.packages,
            unsandboxed=self.unsandboxed,
            log=self.log,
        )

    def run(
        self, entry: str, payload: Any = None, files: Mapping[str, str | bytes] | None = None, schema: Any = None
    ) -> SandboxResult:
        """Start a worker with `files`, call `entry(payload)` once, stop it."""
        with self.worker(files) as worker:
            return worker.call(entry, payload, schema)

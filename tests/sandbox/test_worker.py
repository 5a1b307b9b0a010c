"""The sandboxed worker's contract: values over the pipe, clear reasons, the limits it sets on itself, a clean
environment, the answer schema, persistence across calls, and the explicit opt-out."""

from __future__ import annotations

import os
import time

import pytest
from pydantic import BaseModel

from envfactory_gym.sandbox import Limits, Sandbox, SandboxUnavailable, Worker, kernel

LIMITS = Limits(cpu_s=5, wall_s=30, memory_mb=1024, file_mb=4, disk_mb=16)
PROBE = (
    "import os, resource, sys\n"
    "def main(payload):\n"
    "    with open('notes.txt', 'w') as f:\n"
    "        f.write(payload['text'])\n"
    "    return {'read': open('notes.txt').read(), 'uid': os.getuid(), 'gid': os.getgid(), 'groups': os.getgroups(),\n"
    "            'cwd': os.getcwd(), 'secret': os.environ.get('ENVFACTORY_TEST_SECRET'), 'pid': os.getpid(),\n"
    "            'limits': [resource.getrlimit(resource.RLIMIT_AS)[0], resource.getrlimit(resource.RLIMIT_FSIZE)[0]],\n"
    "            'net': os.readlink('/proc/self/ns/net'), 'fds': sorted(os.listdir('/proc/self/fd'))}\n"
)


@pytest.fixture(scope="module")
def worker():
    with Worker(
        LIMITS,
        files={"probe.py": PROBE, "count.py": "calls = []\ndef main(p):\n    calls.append(p)\n    return len(calls)\n"},
    ) as sandboxed:
        yield sandboxed


def test_a_harmless_entry_runs_unprivileged_in_its_own_namespaces(worker, monkeypatch):
    monkeypatch.setenv("ENVFACTORY_TEST_SECRET", "do-not-leak")
    result = worker.call("probe.py:main", {"text": "hello"})
    assert result.ok and result.sandboxed, result.reason
    value = result.value
    assert value["read"] == "hello" and value["cwd"] == kernel.SCRATCH
    assert value["uid"] != 0 and value["gid"] != 0 and value["groups"] == []  # never root
    assert value["secret"] is None  # a clean environment: nothing inherited
    assert value["pid"] == 1 and value["net"] != os.readlink("/proc/self/ns/net")
    assert value["limits"] == [LIMITS.memory_mb * 2**20, LIMITS.file_mb * 2**20]
    assert value["fds"] == ["0", "1", "2", "3", "4"]  # the pipes, and the listing's own descriptor


def test_the_worker_persists_across_calls(worker):
    first = worker.call("count.py:main", 0).value
    assert worker.call("count.py:main", 1).value == first + 1


def test_an_exception_is_an_error_with_its_traceback(worker):
    result = worker.call("probe.py:main", {})
    assert result.status == "error" and "KeyError" in result.reason and "probe.py" in result.stderr


def test_an_answer_that_fails_its_schema_is_invalid(worker):
    class Count(BaseModel):
        count: int

    result = worker.call("count.py:main", 0, schema=Count)
    assert result.status == "invalid" and result.value is None and "schema" in result.reason


def test_an_abrupt_exit_is_reported_and_the_next_call_gets_a_fresh_worker():
    with Worker(
        LIMITS, files={"exit.py": "import os\ndef main(p):\n    if p:\n        os._exit(3)\n    return 'ok'\n"}
    ) as w:
        result = w.call("exit.py:main", True)
        assert result.status == "crashed" and "code 3" in result.reason
        assert w.call("exit.py:main", False).value == "ok"


def test_a_stopped_worker_leaves_no_process_behind():
    """A worker the parent stops at its CPU limit (the program swallows the worker's own timer) is gone, not left
    looping as the unprivileged user."""
    loop = (
        "def main(p):\n    while p:\n        try:\n            while True:\n                pass\n"
        "        except BaseException:\n            pass\n    return 'idle'\n"
    )
    with Worker(Limits(cpu_s=0.3, cpu_grace_s=0.2, wall_s=30, memory_mb=1024), files={"loop.py": loop}) as w:
        assert w.call("loop.py:main", False).value == "idle"  # the worker is up
        pid = w._worker_pid()
        assert pid is not None and _running(pid)
        result = w.call("loop.py:main", True, wall_s=5)
        assert result.status in ("cpu", "timeout"), result
        deadline = time.monotonic() + 5
        while _running(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(pid), f"worker {pid} outlived its stop"


def _running(pid: int) -> bool:
    """Whether a process exists and is not a zombie waiting to be reaped by whoever inherited it."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_missing_sandbox_is_a_clear_error_and_the_opt_out_is_explicit(monkeypatch):
    def unavailable() -> str:
        raise SandboxUnavailable("bubblewrap is not installed")

    monkeypatch.setattr(kernel, "check_available", unavailable)
    monkeypatch.delenv("ENVFACTORY_UNSANDBOXED", raising=False)
    with pytest.raises(SandboxUnavailable, match="bubblewrap"):
        Worker(LIMITS)
    monkeypatch.setenv("ENVFACTORY_UNSANDBOXED", "1")
    result = Sandbox(LIMITS).run("probe.py:main", {"text": "x"}, {"probe.py": PROBE})
    assert result.ok and not result.sandboxed and "unsandboxed" in result.isolation


def test_bad_limits_are_refused():
    with pytest.raises(ValueError, match="Limits.cpu_s"):
        Limits(cpu_s=0)

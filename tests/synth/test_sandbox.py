"""The sandbox contains hostile generated code: each case runs for real in a child process and must end with a
clear reason, leaving the parent and the file system untouched."""

from __future__ import annotations

import os
import socket
import threading

import pytest

from synth.sandbox import Limits, Sandbox, namespaces_available

LIMITS = Limits(cpu_s=1.5, wall_s=20, memory_mb=1024, file_mb=4)


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    return Sandbox(LIMITS)


def run(sandbox: Sandbox, code: str, payload=None):
    return sandbox.run("generated.py:main", payload, {"generated.py": code})


def test_a_harmless_entry_returns_its_value_and_may_use_its_scratch_folder(sandbox):
    code = ("import os, sys\n"
            "def main(payload):\n"
            "    with open('notes.txt', 'w') as f:\n"
            "        f.write(payload['text'])\n"
            "    return {'read': open('notes.txt').read(), 'isolated': sys.flags.isolated,\n"
            "            'secret': os.environ.get('ENVFACTORY_TEST_SECRET'), 'home': os.environ['HOME']}\n")
    os.environ["ENVFACTORY_TEST_SECRET"] = "do-not-leak"
    try:
        result = run(sandbox, code, {"text": "hello"})
    finally:
        del os.environ["ENVFACTORY_TEST_SECRET"]
    assert result.ok, result.reason
    assert result.value["read"] == "hello" and result.value["isolated"] == 1
    assert result.value["secret"] is None  # a clean environment: nothing inherited
    assert result.value["home"].endswith("scratch")


def test_an_exception_of_generated_code_is_a_result_with_its_traceback(sandbox):
    result = run(sandbox, "def main(payload):\n    return {}['missing']\n")
    assert result.status == "error" and "KeyError" in result.reason
    assert "generated.py" in result.stderr


@pytest.mark.parametrize("code", [
    "def main(payload):\n    while True:\n        pass\n",
    "def main(payload):\n    while True:\n        try:\n            while True:\n                pass\n"
    "        except BaseException:\n            pass\n",
], ids=["loop", "loop-that-swallows-the-timer"])
def test_an_infinite_loop_stops_at_the_cpu_limit(sandbox, code):
    result = run(sandbox, code)
    assert result.status == "cpu", result.reason
    assert "CPU time limit" in result.reason and result.wall_s < LIMITS.wall_s


def test_a_loop_inside_c_code_is_killed_by_rlimit_cpu(sandbox):
    result = run(sandbox, "def main(payload):\n    return sum(range(10**13))\n")
    assert result.status == "cpu"
    assert "killed at the CPU time limit" in result.reason
    assert result.cpu_s >= LIMITS.cpu_s - 0.5


def test_a_sleeping_child_is_killed_at_the_wall_limit():
    result = Sandbox(Limits(cpu_s=5, wall_s=1.5)).run("g.py:main", None, {"g.py": (
        "import time\ndef main(payload):\n    time.sleep(60)\n")})
    assert result.status == "timeout"
    assert "wall time limit of 1.5 s" in result.reason and result.wall_s < 10


@pytest.mark.parametrize("code, event", [
    ("import os\ndef main(payload):\n    while True:\n        os.fork()\n", "os.fork"),
    ("import os\ndef main(payload):\n    os.system('echo escaped')\n", "os.system"),
    ("def main(payload):\n    import subprocess\n", "import"),
    ("import os\ndef main(payload):\n    os.posix_spawn('/bin/true', ['true'], {})\n", "os.posix_spawn"),
], ids=["fork-bomb", "os-system", "subprocess", "posix-spawn"])
def test_process_creation_is_refused(sandbox, code, event):
    result = run(sandbox, code)
    assert result.status == "violation"
    assert result.violations[0]["event"] == event
    assert result.violations[0]["where"].startswith("generated.py:")
    assert "blocked" in result.reason


@pytest.mark.parametrize("code", [
    "def main(payload):\n    data = bytearray(8 * 1024 ** 3)\n    return len(data)\n",
    "def main(payload):\n    chunks = []\n    while True:\n        chunks.append(' ' * 10 ** 6)\n",
], ids=["one-huge-block", "growing"])
def test_a_huge_allocation_hits_the_memory_limit(code):
    # A CPU budget that cannot bind first, even on a loaded machine: this case is about the memory cap.
    result = run(Sandbox(Limits(cpu_s=30, wall_s=60, memory_mb=LIMITS.memory_mb, file_mb=4)), code)
    assert result.status == "memory"
    assert "memory limit exceeded" in result.reason


def test_writing_outside_the_scratch_folder_is_refused(sandbox, tmp_path):
    target = tmp_path / "escaped.txt"
    result = run(sandbox, f"def main(payload):\n    open({str(target)!r}, 'w').write('x')\n")
    assert result.status == "violation"
    assert result.violations[0]["category"] == "file" and str(target) in result.reason
    assert not target.exists()


def test_deleting_outside_the_scratch_folder_is_refused(sandbox, tmp_path):
    victim = tmp_path / "keep.txt"
    victim.write_text("precious")
    result = run(sandbox, f"import os\ndef main(payload):\n    os.remove({str(victim)!r})\n")
    assert result.status == "violation" and victim.read_text() == "precious"


def test_a_file_larger_than_the_limit_is_stopped(sandbox):
    result = run(sandbox, "def main(payload):\n    with open('big.bin', 'wb') as f:\n"
                          "        for _ in range(100):\n            f.write(b'x' * 10 ** 6)\n")
    assert result.status == "file_size"


@pytest.fixture
def listener():
    """A TCP server of the parent; records whether anything connected."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(5)
    hits: list[bool] = []

    def accept() -> None:
        try:
            server.accept()
            hits.append(True)
        except OSError:
            pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    port = server.getsockname()[1]
    yield port, hits  # checked by the test before the wake-up connection below
    if thread.is_alive():
        socket.create_connection(("127.0.0.1", port)).close()  # wake accept() so the thread ends now
    thread.join(timeout=6)
    server.close()


def test_importing_socket_is_refused(sandbox):
    result = run(sandbox, "import socket\ndef main(payload):\n    return 1\n")
    assert result.status == "violation"
    assert "importing 'socket'" in result.reason and "generated.py:1" in result.reason


def test_socket_use_through_an_already_loaded_module_is_refused(sandbox, listener):
    port, hits = listener
    code = ("import asyncio.base_events as loaded\n"
            "def main(payload):\n"
            "    try:\n"
            f"        loaded.socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
            "    except Exception as exc:\n"
            "        return str(exc)\n"
            "    return 'connected'\n")
    result = run(sandbox, code)
    assert result.status == "violation"  # swallowing the error does not hide it
    assert result.violations[0]["category"] == "network"
    assert result.value == "sandbox: socket.getaddrinfo is not allowed" or result.value is None
    assert not hits


def test_foreign_function_calls_are_refused(sandbox):
    result = run(sandbox, "def main(payload):\n    import ctypes\n    return ctypes.CDLL(None).getpid()\n")
    assert result.status == "violation" and "ctypes" in result.reason


def test_an_abrupt_exit_is_reported(sandbox):
    result = run(sandbox, "import os\ndef main(payload):\n    os._exit(3)\n")
    assert result.status == "crashed" and "code 3" in result.reason


@pytest.mark.skipif(not namespaces_available(), reason="unshare cannot create namespaces here")
def test_namespaces_cut_the_child_off_the_network_and_process_tree(sandbox):
    code = "import os\ndef main(payload):\n    return [os.readlink('/proc/self/ns/net'), os.getpid()]\n"
    result = run(sandbox, code)
    assert result.ok and result.isolation == "namespaces+guard"
    net, pid = result.value
    assert net != os.readlink("/proc/self/ns/net")  # its own, empty network namespace
    assert pid == 1  # first process of its own pid namespace: its descendants die with it


def test_raising_its_own_limits_is_refused(sandbox):
    code = ("import resource\ndef main(payload):\n"
            "    resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))\n")
    result = run(sandbox, code)
    assert result.status == "violation" and "resource.setrlimit" in result.reason


def test_the_rlimits_are_set_in_the_child(sandbox):
    code = "import resource\ndef main(payload):\n    return [resource.getrlimit(resource.RLIMIT_AS)[0], " \
           "resource.getrlimit(resource.RLIMIT_FSIZE)[0]]\n"
    assert run(sandbox, code).value == [LIMITS.memory_mb * 1024 * 1024, LIMITS.file_mb * 1024 * 1024]

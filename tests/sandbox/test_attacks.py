"""The attack suite: every hostile program of `attacks.py` runs for real in a sandboxed worker, once with the
audit hook and once without it (the kernel layer alone). Each must fail inside the sandbox or be reported as a
violation, and nothing outside may change: a world-writable canary folder of the host, the runtime's source and
the virtual environment's packages are compared before and after every program."""

from __future__ import annotations

import os
import socket
import sysconfig
import threading
import time
from pathlib import Path

import pytest

import envfactory_gym
from envfactory_gym.sandbox import Limits, Worker

from .attacks import ATTACKS, LIMIT_ATTACKS, PRELUDE

LIMITS = Limits(cpu_s=0.5, cpu_grace_s=0.25, wall_s=30, memory_mb=1024, file_mb=8, disk_mb=24, threads=16)
#: Wall-clock limit of each call: only the sleeping program reaches it (the CPU limit stops loops first).
CALL_WALL_S = {"sleep_forever": 1.5}
NO_CATCH = "\ndef main(p):\n    return act(p)\n"
#: Attacks that leave a thread behind which forges answers later: the shared worker is replaced after them, so the
#: forgeries cannot land in whichever test runs next (test_answers_forged_for_later_calls_are_never_taken covers them).
LINGERING = {"results_forged_ahead"}


def files() -> dict[str, str]:
    programs = {f"{name}.py": PRELUDE + code for name, code in ATTACKS.items()}
    programs.update({f"{name}.py": PRELUDE + code + NO_CATCH for name, (code, _) in LIMIT_ATTACKS.items()})
    return programs


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module", params=[True, False], ids=["with-guard", "kernel-only"])
def worker(request, monkeypatch_module):
    monkeypatch_module.setenv("ENVFACTORY_TEST_SECRET", "do-not-leak")  # must not reach the worker
    log: list[dict] = []
    with Worker(LIMITS, files=files(), guard=request.param, log=log) as sandboxed:
        sandboxed.violation_log = log
        assert sandboxed.call("stdout_flood.py:main", {}).ok  # call 1: every attack below runs as a later call
        yield sandboxed


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """The host side: a world-writable canary folder, a TCP listener and an abstract unix socket."""
    canary = tmp_path_factory.mktemp("canary")
    canary.chmod(0o777)
    (canary / "precious.txt").write_text("precious")
    (canary / "precious.txt").chmod(0o666)
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    abstract = f"envfactory-sandbox-test-{os.getpid()}"
    unix = socket.socket(socket.AF_UNIX)
    unix.bind("\0" + abstract)
    unix.listen()
    unix.settimeout(0.2)
    hits: list[str] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            for listener in (server, unix):
                try:
                    listener.accept()[0].close()
                    hits.append(str(listener))
                except OSError:
                    continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield {
        "canary": str(canary),
        "parent": os.getpid(),
        "repo": str(Path(envfactory_gym.__file__).parents[1]),
        "port": server.getsockname()[1],
        "abstract": abstract,
        "hits": hits,
    }
    stop.set()
    thread.join(timeout=2)
    server.close()
    unix.close()


def outside_state(canary: str) -> dict[str, object]:
    """What must not change: the canary folder (names, contents), the runtime's source and the venv's packages."""
    folder = Path(canary)
    runtime = Path(envfactory_gym.__file__).parent
    return {
        "canary": {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()},
        "canary_names": sorted(str(p.relative_to(folder)) for p in folder.rglob("*")),
        "runtime": sorted((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in runtime.rglob("*.py")),
        "site": sorted(os.listdir(sysconfig.get_paths()["purelib"])),
    }


def run(worker, host, name):
    payload = {k: v for k, v in host.items() if k != "hits"}
    before = outside_state(host["canary"])
    result = worker.call(f"{name}.py:main", payload, wall_s=CALL_WALL_S.get(name))
    assert outside_state(host["canary"]) == before, f"{name} changed the host"
    assert not host["hits"], f"{name} reached a socket of the host"
    return result


def test_the_suite_is_large_enough():
    assert len(ATTACKS) + len(LIMIT_ATTACKS) >= 40


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_fails_inside_or_is_a_violation(worker, host, name):
    result = run(worker, host, name)
    if name in LINGERING:
        worker.close()
    contained = result.status != "ok" or (isinstance(result.value, dict) and "blocked" in result.value)
    assert contained, f"{name} escaped: {result.value} ({result.status}: {result.reason})"
    assert not (isinstance(result.value, dict) and "escaped" in result.value)
    if result.status == "ok" and worker.guard and result.violations:
        pytest.fail("a call with violations must not be ok")
    assert result.sandboxed and "bubblewrap" in result.isolation


@pytest.mark.parametrize("name", sorted(LIMIT_ATTACKS))
def test_limits_stop_the_program(worker, host, name):
    if not worker.guard:
        pytest.skip("limits are the kernel's and the parent's with or without the guard: run once")
    result = run(worker, host, name)
    assert result.status == LIMIT_ATTACKS[name][1], (result.status, result.reason)
    assert result.wall_s < LIMITS.wall_s


def test_the_violation_log_is_the_parents(worker, host):
    """A refused write, then attempts to erase the record: the parent's log still holds it."""
    if not worker.guard:
        pytest.skip("violations are the guard's reports")
    before = len(worker.violation_log)
    result = run(worker, host, "truncate_the_violation_log")
    assert result.status == "violation" and "outside the scratch folder" in result.reason
    assert len(worker.violation_log) > before
    assert worker.violation_log[before]["category"] == "file"


def test_forged_and_garbled_answers_end_the_worker_not_the_verdict(worker, host):
    """Answers for calls the parent did not make, or malformed ones, end the worker. (An answer forged for the
    running call itself is indistinguishable from the entry's own value: values are data, and verdicts are computed
    from them by the parent; see test_generated_code_cannot_make_its_own_draft_pass.)"""
    if not worker.guard:
        pytest.skip("the protocol check is the parent's: run once")
    for name in ("forged_results_for_every_id", "garbage_into_the_result_pipe"):
        result = run(worker, host, name)
        assert result.status == "crashed" and result.value is None, (name, result)
    assert worker.call("write_outside.py:main", {k: v for k, v in host.items() if k != "hits"}).status in (
        "ok",
        "violation",
    )  # a fresh worker answers the next call


@pytest.mark.parametrize("attack", ["forged_results_for_every_id", "results_forged_ahead"])
def test_answers_forged_for_later_calls_are_never_taken(attack):
    """A call forges answers for every id, in its own answer's stream or while the worker waits: later calls get
    their own answers, from a fresh worker."""
    code = PRELUDE + ATTACKS[attack]
    with Worker(LIMITS, files={"forge.py": code, "echo.py": "def main(p):\n    return {'echo': p}\n"}) as fresh:
        fresh.call("forge.py:main", {})
        time.sleep(1)  # the forging thread writes
        for call in range(3):
            result = fresh.call("echo.py:main", call)
            assert result.ok and result.value == {"echo": call}, result

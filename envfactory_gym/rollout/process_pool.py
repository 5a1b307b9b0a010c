"""The process backend: env workers are local processes, each holding many envs; the episodes run on the caller's
event loop. Environment work (tools, scoring) is Python, so threads share one core; worker processes use them all.

Each worker runs an `EnvWorker` and answers requests from its pipe in the order they arrive, so calls to one env
run one at a time in the order they were sent (also after a cancelled call), as with the Ray backend, without a
Ray cluster. Per worker, one thread sends requests and one receives answers, so a full pipe never blocks the loop.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import queue
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from typing import Any

from .pool import EnvHandle
from .worker import EnvWorker, RemoteEnvHandle


class WorkerDied(RuntimeError):
    """An env worker process ended while calls to it were pending."""


def _serve(requests: Connection, answers: Connection) -> None:
    """A worker process: receive the env options, then answer `(number, method, args)` requests with
    `(number, ok, result or exception)` until told to stop or the pipe closes."""
    worker = EnvWorker(requests.recv())
    while True:
        try:
            request = requests.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        number, method, args = request
        try:
            answer = (number, True, getattr(worker, method)(*args))
        except Exception as exc:  # the caller gets the exception; the worker serves on
            answer = (number, False, exc)
        try:
            answers.send(answer)
        except Exception as exc:  # an unpicklable result or exception still answers the call
            answers.send((number, False, RuntimeError(f"{type(exc).__name__}: {exc}")))


class _WorkerProcess:
    """One worker process (a fresh interpreter running this module, on this process's import path) and the two
    threads that talk to it over a pair of pipes."""

    def __init__(self, env_kwargs: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
        request_read, request_write = os.pipe()
        answer_read, answer_write = os.pipe()
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__, str(request_read), str(answer_write)],
            pass_fds=(request_read, answer_write),
            env=environment,
        )
        os.close(request_read)
        os.close(answer_write)
        self.connection = Connection(answer_read, writable=False)
        self._writer = Connection(request_write, readable=False)
        self._writer.send(env_kwargs)
        self.loop = loop
        self.load = 0
        self._numbers = itertools.count()
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        threading.Thread(target=self._send_loop, daemon=True, name="envfactory-send").start()
        threading.Thread(target=self._receive_loop, daemon=True, name="envfactory-receive").start()

    def call(self, method: str, *args: Any) -> asyncio.Future[Any]:
        """Send one `EnvWorker` call; the future resolves with its result (or raises its exception)."""
        number = next(self._numbers)
        future = self.loop.create_future()
        self._pending[number] = future
        self._outbox.put((number, method, args))
        return future

    def _send_loop(self) -> None:
        while (request := self._outbox.get()) is not None:
            try:
                self._writer.send(request)
            except (OSError, ValueError):
                return
        try:
            self._writer.send(None)
        except (OSError, ValueError):
            pass

    def _receive_loop(self) -> None:
        while True:
            try:
                number, ok, value = self.connection.recv()
            except (EOFError, OSError):
                self.loop.call_soon_threadsafe(self._fail_pending)
                return
            self.loop.call_soon_threadsafe(self._resolve, number, ok, value)

    def _resolve(self, number: int, ok: bool, value: Any) -> None:
        future = self._pending.pop(number, None)
        if future is None or future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def _fail_pending(self) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(WorkerDied(f"env worker process {self.process.pid} ended"))
        self._pending.clear()

    def close(self) -> None:
        """Ask the worker to stop, then make sure it has."""
        self._outbox.put(None)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.connection.close()


class ProcessEnvPool:
    """`workers` local worker processes (default: one per core); new envs go to the worker holding the fewest.

    Each worker is a fresh interpreter (no inherited threads, locks or `__main__` re-run) on this process's
    import path; it imports the runtime itself, about a second per worker, once per pool. `env_kwargs` reach
    it pickled."""

    def __init__(self, workers: int | None = None, **env_kwargs: Any) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.env_kwargs = env_kwargs
        self._processes: list[_WorkerProcess] = []
        self._idle: dict[str, list[RemoteEnvHandle]] = {}

    @property
    def size(self) -> int:
        """How many envs the workers hold."""
        return sum(p.load for p in self._processes)

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        self._processes = [_WorkerProcess(self.env_kwargs, loop) for _ in range(self.workers)]

    async def acquire(self, env_id: str) -> RemoteEnvHandle:
        """An idle env of `env_id`, or a new one on the worker holding the fewest envs."""
        if not self._processes:
            self._start()
        idle = self._idle.setdefault(env_id, [])
        if idle:
            return idle.pop()
        worker = min(self._processes, key=lambda p: p.load)
        worker.load += 1
        slot = await worker.call("open", env_id)
        return RemoteEnvHandle(worker.call, slot, env_id)

    def release(self, handle: EnvHandle) -> None:
        """Make `handle` available again."""
        assert isinstance(handle, RemoteEnvHandle)
        self._idle[handle.env_id].append(handle)

    async def aclose(self) -> None:
        """Stop the workers (and with them their envs)."""
        processes, self._processes = self._processes, []

        def close_all() -> None:
            for process in processes:
                process.close()

        await asyncio.get_running_loop().run_in_executor(None, close_all)
        self._idle.clear()


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))

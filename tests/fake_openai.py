"""A loopback OpenAI-compatible endpoint for tests: the network is the one boundary faked; clients, policies and
the benchmark talk real HTTP to it on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Reply = tuple[int, dict[str, str], Any, float]  # status, headers, body, delay in seconds


def completion(
    content: str | None = "",
    tool_calls: list | None = None,
    prompt_tokens: int = 11,
    completion_tokens: int = 7,
    **message_extra: Any,
) -> dict:
    """A chat-completion body with one choice and token usage."""
    message = {"role": "assistant", "content": content, **message_extra}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "x",
        "model": "served-model",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
    }


class FakeEndpoint:
    """Answers `POST .../chat/completions` with, in order of precedence: `respond(body, n)` (a full `Reply`, `n`
    the request's number from 1), `responder(body)` (a 200 body), or the next scripted reply (`add`), else a
    default completion. `GET .../models` lists the ids in `models` (owned by `fake-server`), or answers
    `models_status` when that is set. Every request is kept in `requests`."""

    def __init__(self) -> None:
        self.script: list[Reply] = []
        self.respond: Callable[[dict, int], Reply] | None = None
        self.responder: Callable[[dict], dict] | None = None
        self.requests: list[dict[str, Any]] = []
        self.models: list[str] = ["listed-model"]
        self.models_status: int | None = None
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def _reply(self, status: int, headers: dict[str, str], body: Any) -> None:
                data = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    for key, value in {"Content-Type": "application/json", **headers}.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
                    pass

            def do_GET(self) -> None:
                endpoint.requests.append({"path": self.path, "headers": dict(self.headers)})
                if endpoint.models_status is not None:
                    self._reply(endpoint.models_status, {}, {"error": "no models here"})
                    return
                self._reply(
                    200,
                    {},
                    {
                        "object": "list",
                        "data": [
                            {"id": name, "object": "model", "owned_by": "fake-server", "max_model_len": 32768}
                            for name in endpoint.models
                        ],
                    },
                )

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with endpoint.lock:
                    endpoint.requests.append(
                        {
                            "path": self.path,
                            "headers": dict(self.headers),
                            "auth": self.headers.get("Authorization"),
                            "body": body,
                        }
                    )
                    number = len(endpoint.requests)
                    endpoint.in_flight += 1
                    endpoint.max_in_flight = max(endpoint.max_in_flight, endpoint.in_flight)
                    scripted = None
                    if endpoint.respond is None and endpoint.responder is None and endpoint.script:
                        scripted = endpoint.script.pop(0)
                if endpoint.respond is not None:
                    status, headers, reply, delay = endpoint.respond(body, number)
                elif endpoint.responder is not None:
                    status, headers, reply, delay = 200, {}, endpoint.responder(body), 0.0
                else:
                    status, headers, reply, delay = scripted or (200, {}, completion("default"), 0.0)
                time.sleep(delay)
                with endpoint.lock:
                    endpoint.in_flight -= 1
                self._reply(status, headers, reply)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def add(
        self, status: int = 200, body: dict | None = None, delay: float = 0.0, headers: dict[str, str] | None = None
    ) -> None:
        """Script the next reply."""
        self.script.append((status, headers or {}, body if body is not None else completion("ok"), delay))

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()

"""The pipe protocol between the parent and a sandboxed worker: length-prefixed JSON frames.

The parent sends `Init` once, then `Call`s. The worker answers with `Ready`, and per call any number of `Mark`s and
`Violation`s, then one `Result`. Every frame the worker sends is parsed against these models by the parent, and
nothing in them is trusted as a verdict: a `Result` only carries a value (or the reason the call failed in the
worker); whether the call counts as ok is decided by the parent from what it observed.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

HEADER = struct.Struct(">I")
MAX_FRAME = 2**31 - 1


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ready(_Frame):
    """The worker has its files, preloaded its modules and installed its guard."""

    type: Literal["ready"] = "ready"
    pid: int


class Mark(_Frame):
    """What the worker is doing now (named when the call is stopped)."""

    type: Literal["mark"] = "mark"
    id: int
    label: str = Field(max_length=500)


class ViolationRecord(_Frame):
    """One operation the worker's guard refused."""

    category: str = Field(max_length=50)
    event: str = Field(max_length=200)
    message: str = Field(max_length=2000)
    where: str = Field(default="", max_length=500)
    during: str = Field(default="", max_length=500)


class Violation(_Frame):
    """A refused operation, sent before the refusal is raised (so swallowing the error cannot hide it)."""

    type: Literal["violation"] = "violation"
    id: int
    violation: ViolationRecord


class Result(_Frame):
    """How a call ended in the worker: `ok` with a JSON value, or the reason it failed there."""

    type: Literal["result"] = "result"
    id: int
    status: Literal["ok", "error", "cpu", "memory", "file_size", "violation"]
    value: Any = None
    error: str = Field(default="", max_length=20000)
    traceback: str = Field(default="", max_length=20000)


WorkerFrame = TypeAdapter(Union[Ready, Mark, Violation, Result])


class ProtocolError(Exception):
    """The worker sent something that is not a frame of this protocol."""


def encode(message: dict[str, Any]) -> bytes:
    """One frame: 4-byte big-endian length, then the JSON text."""
    body = json.dumps(message, default=str, ensure_ascii=False).encode()
    if len(body) > MAX_FRAME:
        raise ValueError(f"message of {len(body)} bytes is too large for one frame")
    return HEADER.pack(len(body)) + body


def parse(body: bytes) -> Union[Ready, Mark, Violation, Result]:
    """A frame body from the worker, validated (ProtocolError when it is not one)."""
    try:
        return WorkerFrame.validate_json(body)
    except ValueError as exc:
        raise ProtocolError(f"malformed message from the worker: {str(exc)[:300]}") from exc


class FrameBuffer:
    """Collects bytes read from the worker and yields complete frame bodies (at most `limit` bytes each)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.data = bytearray()

    def feed(self, chunk: bytes) -> list[bytes]:
        """Add bytes; return the bodies completed by them."""
        self.data += chunk
        bodies = []
        while len(self.data) >= HEADER.size:
            (size,) = HEADER.unpack_from(self.data)
            if size > self.limit:
                raise ProtocolError(f"the worker sent a message of {size} bytes (limit {self.limit})")
            if len(self.data) < HEADER.size + size:
                break
            bodies.append(bytes(self.data[HEADER.size : HEADER.size + size]))
            del self.data[: HEADER.size + size]
        return bodies


def read_frame(fd: int) -> Optional[dict[str, Any]]:
    """Worker side: the next message from the parent (blocking), or None at end of input."""
    header = _read_exactly(fd, HEADER.size)
    if header is None:
        return None
    body = _read_exactly(fd, HEADER.unpack(header)[0])
    if body is None:
        return None
    return json.loads(body)


def _read_exactly(fd: int, size: int) -> Optional[bytes]:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def write_frame(fd: int, message: dict[str, Any]) -> None:
    """Worker side: send one message (blocking until the parent has it all in the pipe)."""
    data = memoryview(encode(message))
    while data:
        data = data[os.write(fd, data) :]

"""A lean HTTP/1.1 client for the write benchmarks: one keep-alive connection per writer,
requests written as bytes, answers read by their Content-Length.

On a 2-core machine the load generator shares the cores with the server it measures.
httpx spends 4-5 ms of CPU on each request with 30 concurrent writers, more than the
server does, so the figures measured the client; a phone's browser on its own CPU costs
the companion nothing of that. This client costs a fraction of a millisecond, so the
figures are the server's (benchmarks/store.py prints both, the httpx figures too).
It speaks only what the benchmarks send: JSON bodies, answers with Content-Length.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any


class RawConnection:
    """One keep-alive connection to ``host:port``."""

    def __init__(self, host: str, port: int, headers: dict[str, str] | None = None) -> None:
        self.host, self.port = host, port
        self.extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except (ConnectionError, OSError):
                pass
            self._writer = self._reader = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        """Send one request; return its status and body."""
        if self._writer is None or self._reader is None:
            await self.open()
        assert self._writer is not None and self._reader is not None
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode("utf-8")
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{self.extra}"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        self._writer.write(head.encode("latin-1") + data)
        status_line = await self._reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self._reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        payload = await self._reader.readexactly(length) if length else b""
        return status, payload

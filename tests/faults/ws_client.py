"""A WebSocket client small enough to read a server's text frames in a test (no package
on the machine offers one outside a browser)."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from typing import Any
from urllib.parse import urlsplit


class WsClient:
    def __init__(self, base: str, path: str, origin: str | None = None) -> None:
        parts = urlsplit(base)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        self.sock = socket.create_connection((host, port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {origin or base}\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                break
            head += chunk
        self.status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
        self.buffer = b""

    def _read(self, n: int, deadline: float) -> bytes:
        while len(self.buffer) < n:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the socket")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self, timeout: float = 10.0) -> str:
        """The next text frame (pings are skipped); TimeoutError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            first, second = self._read(2, deadline)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._read(2, deadline))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._read(8, deadline))
            payload = self._read(length, deadline)
            opcode = first & 0x0F
            if opcode == 1:
                return payload.decode()
            if opcode == 8:
                raise ConnectionError("the server closed the socket")

    def receive_json_until(self, wanted: Any, timeout: float = 15.0) -> dict[str, Any]:
        """Read JSON frames until one for which ``wanted(message)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            message: dict[str, Any] = json.loads(self.receive(max(0.01, deadline - time.monotonic())))
            if wanted(message):
                return message

    def close(self) -> None:
        self.sock.close()

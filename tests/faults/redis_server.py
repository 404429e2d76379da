"""A redis-server of a test's own, started and stopped by the test (never the shared one)."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

PORTS = range(6391, 6395)


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as s, contextlib.suppress(OSError):
            # As redis-server binds: a port whose last connections wait out TIME_WAIT (a
            # test's server stopped a moment ago) is free for it, not taken.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
            return port
    pytest.skip(f"no free port in {PORTS.start}-{PORTS.stop - 1} for a redis-server")


class RedisServer:
    def __init__(self, binary: str, port: int, directory: Path) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.argv = [binary, "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(directory)]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self._answers, "redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def _answers(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
        except OSError:
            return False
        return True


def wait_for(condition: Callable[[], object], message: str, timeout: float = 15.0) -> None:
    """Poll ``condition`` until it holds; fail with ``message`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(message)
        time.sleep(0.05)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not on PATH")
    server = RedisServer(binary, _free_port(), tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()

"""Network faults for the browser tests: a proxy whose connections can be cut, and an
embedded server that can be killed and started again.

Playwright's ``context.set_offline(True)`` is not enough: Chromium's offline emulation
fails new requests but leaves an open WebSocket open (its frames are held back until the
context is online again), so the page never learns that it lost its connection.
"""

from __future__ import annotations

import contextlib
import re
import signal
import socket
import threading
from pathlib import Path
from typing import Any

from .conftest import Processes, free_port, wait_for_port


class Proxy:
    """A loopback TCP proxy to ``target_port``. ``cut()`` drops every connection through
    it and refuses new ones (nothing listens on its port), ``restore()`` listens again.
    ``deafen()`` lets requests through but throws the server's answers away until restored:
    the network that dies while a request is on its way."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.port = free_port()
        self.lock = threading.Lock()
        self.connections: set[socket.socket] = set()
        self.upstream: set[socket.socket] = set()
        self.deaf = False
        self.listener: socket.socket | None = None
        self.restore()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def restore(self) -> None:
        listener = socket.create_server(("127.0.0.1", self.port))  # SO_REUSEADDR: the same port again
        with self.lock:
            self.listener = listener
            self.deaf = False
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def deafen(self) -> None:
        self.deaf = True

    def cut(self) -> None:
        with self.lock:
            listener, self.listener = self.listener, None
            connections, self.connections = self.connections, set()
        if listener is not None:
            close(listener)  # wakes the thread blocked in accept()
        for connection in connections:
            close(connection)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:  # the server is down: the client sees its connection closed
                close(client)
                continue
            with self.lock:
                if self.listener is not listener:
                    close(client)
                    close(upstream)
                    continue
                self.connections |= {client, upstream}
                self.upstream.add(upstream)
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if not (self.deaf and source in self.upstream):
                    sink.sendall(data)
        except OSError:
            pass
        with self.lock:
            self.connections -= {source, sink}
            self.upstream -= {source, sink}
        close(source)
        close(sink)


def close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # not connected, or already shut
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


class RestartableServer:
    """One embedded Daphne on a fixed port: ``kill()`` sends it SIGKILL, ``start()`` starts
    a new one on the same port with the same SQLite file."""

    def __init__(self, processes: Processes) -> None:
        self.processes = processes
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.starts = 0
        self.start()

    @property
    def database(self) -> Path:
        return Path(self.processes.env["SQLITE_PATH"])

    def start(self) -> None:
        self.starts += 1
        name = f"daphne-{self.starts}"
        self.proc = self.processes.start(
            name, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "quarto_site.asgi:application"
        )
        wait_for_port(self.port, self.proc, self.processes.folder / f"{name}.log")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


class Gate:
    """A page's game socket, routed through the test (Playwright's route_web_socket; set up
    before the game page opens): its first ``keep`` move frames are held here (the server
    does not get them until ``release()``); every frame the server sends is recorded in
    ``received``, and thrown away while ``mute`` is set (a page that misses pushes)."""

    def __init__(self, page: Any, keep: int = 1) -> None:
        self.keep = keep
        self.mute = False
        self.held: list[tuple[Any, Any]] = []
        self.received: list[str] = []
        page.route_web_socket(re.compile(r"/ws/games/\d+/"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: Any) -> None:
            if self.keep and '"move"' in str(message):
                self.keep -= 1
                self.held.append((server, message))
            else:
                server.send(message)

        def from_server(message: Any) -> None:
            self.received.append(str(message))
            if not self.mute:
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def release(self) -> None:
        for server, message in self.held:
            server.send(message)

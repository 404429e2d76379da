"""How fast Daphne alone completes WebSocket handshakes on this machine.

Starts Daphne on a trivial ASGI application (accept, send one text frame; no Django,
no Channels) and opens ``--sockets`` WebSockets at once, with the client of
``bench/live_load.py``: the time until the last one had its frame is the server's
handshake ceiling, to compare with the site's ``live_load.py --scenario sockets``.

    .venv/bin/python bench/ws_handshake.py --sockets 2000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_load import WebSocket, free_port, raise_open_files, stop_processes


async def app(scope: dict, receive, send) -> None:  # type: ignore[no-untyped-def,type-arg]
    """The trivial application Daphne serves in the child process."""
    if scope["type"] == "lifespan":
        return
    if scope["type"] != "websocket":
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": "hello"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def main_async(sockets: int, timeout: float) -> None:
    raise_open_files()
    port = free_port()
    here = Path(__file__).resolve().parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "ws_handshake:app"],
        cwd=here,
        env={**os.environ, "PYTHONPATH": str(here)},
        stdout=subprocess.DEVNULL,  # its access log
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        print(f"# load average at start: {os.getloadavg()[0]:.2f} (2 cores shared with the server)")
        start = time.perf_counter()
        opened: list[float] = []
        errors: dict[str, int] = {}
        held: list[WebSocket] = []

        async def one() -> None:
            try:
                ws = await asyncio.wait_for(WebSocket.connect(base, "/ws/"), timeout)
                await asyncio.wait_for(ws.recv(), timeout)
                opened.append(time.perf_counter() - start)
                held.append(ws)
            except Exception as exc:
                name = str(exc)[:40] or type(exc).__name__
                errors[name] = errors.get(name, 0) + 1

        await asyncio.gather(*(one() for _ in range(sockets)))
        print(f"handshake sockets {sockets}")
        print(f"handshake opened {len(opened)}")
        if opened:
            print(f"handshake open_all_s {max(opened):.2f} s")
            print(f"handshake per_s {len(opened) / max(opened):.0f} /s")
        for reason, count in sorted(errors.items()):
            print(f"handshake failed {count} {reason}")
        await asyncio.gather(*(ws.close() for ws in held))
    finally:
        stop_processes([proc])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    asyncio.run(main_async(args.sockets, args.timeout))


if __name__ == "__main__":
    main()

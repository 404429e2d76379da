"""Socket attacks: odd input, the 51st socket, a password change with an open socket.
python socket_round.py http://host:port [parts]"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time

import websockets
from lib import BASE, Browser, check, fresh_name, report

PARTS = sys.argv[2].split(",") if len(sys.argv) > 2 else ["all"]
WS = BASE.replace("http", "ws", 1)


def want(part: str) -> bool:
    return "all" in PARTS or part in PARTS


def cookie(br: Browser) -> str:
    return "; ".join(f"{k}={v}" for k, v in br.s.cookies.items())


async def connect(path: str, br: Browser | None = None):  # type: ignore[no-untyped-def]
    headers = {"Cookie": cookie(br)} if br else {}
    return await websockets.connect(
        WS + path, origin=BASE, additional_headers=headers, open_timeout=20, max_size=None
    )


async def frames_until(ws, needle: str, timeout: float = 10.0) -> str | None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            text = await asyncio.wait_for(ws.recv(), end - time.monotonic())
        except (TimeoutError, websockets.ConnectionClosed):
            return None
        if needle in text:
            return text
    return None


def game_between() -> tuple[Browser, Browser, int]:
    """A human game: the first seat in browser one, the second joined by the invite in two."""
    one, two = Browser(), Browser()
    one.get("/")
    r = one.post("/games/new", {"kind": "tictactoe", "opponent": "human", "seat": "first", "clock": ""})
    gid = int(r.headers["Location"].strip("/").split("/")[-1])
    code = re.search(r"/join/([A-Za-z0-9_-]+)", one.get(f"/games/{gid}/").text).group(1)
    two.get(f"/join/{code}")
    two.post(f"/join/{code}")
    return one, two, gid


async def odd_input() -> None:
    br = Browser()
    br.get("/lobby/")
    for seek in ["%C2%B2", "²", "9" * 5000, "9" * 30, "-1", "abc", "1e400", "%00"]:
        try:
            ws = await connect(f"/ws/lobby/wait/?seek={seek}", br)
            text = await asyncio.wait_for(ws.recv(), 10)
            await ws.close()
            check("odd socket input", '"go"' in text, f"?seek={seek[:12]} -> {text[:80]}")
        except websockets.ConnectionClosed as exc:
            check(
                "odd socket input",
                exc.rcvd is not None and exc.rcvd.code != 1011,
                f"?seek={seek[:12]} closed {exc.rcvd}",
            )
        except Exception as exc:
            check("odd socket input", False, f"?seek={seek[:12]} {exc!r}")
    one, _two, gid = game_between()
    for fmt in ("?format=json", ""):
        ws = await connect(f"/ws/games/{gid}/{fmt}", one)
        await asyncio.wait_for(ws.recv(), 10)
        odd = [
            '{"move": ' + "[" * 5000,
            "[" * 5000,
            '{"move": "a1", "x": ' + "{" * 3000,
            '{"move": "a1", "ply": 1e400}',
            '{"move": "a1", "ply": ' + "9" * 5000 + "}",
            '{"move": "a1", "ply": NaN}',
            '{"move": "a1", "ply": -1}',
            '{"move": "a1", "ply": true}',
            '{"move": ["a1"], "ply": 0}',
            '{"move": "a1", "ply": 0, "revision": Infinity}',
            '{"move": "' + "a" * 60000 + '", "ply": 0}',
            "\x00\xff",
            '{"type": "websocket.disconnect"}',
            '{"type": "game.push", "move": "a1"}',
        ]
        for frame in odd:
            await ws.send(frame)
            try:
                await asyncio.wait_for(ws.recv(), 10)
                check("odd socket input", True, "")
            except websockets.ConnectionClosed as exc:
                check("odd socket input", False, f"game socket{fmt} {frame[:30]!r} closed {exc.rcvd}")
                ws = await connect(f"/ws/games/{gid}/{fmt}", one)
                await asyncio.wait_for(ws.recv(), 10)
            except TimeoutError:
                check("odd socket input", True, "")  # no answer is fine when open
        await ws.send(json.dumps({"move": "b2", "ply": 0}))
        await frames_until(ws, '"ply": 1' if fmt else "b2", 10)
        ply = one.api("GET", f"/games/{gid}").json()["ply"]
        check("odd socket input", ply == 1 or not fmt, f"a move after the odd frames: ply {ply}")
        await ws.close()
    await asyncio.sleep(0.5)


async def cap() -> None:
    br = Browser()
    _one, _two, gid = game_between()
    socks = []
    refused = None
    try:
        for i in range(55):
            path = "/ws/lobby/" if i % 2 else f"/ws/games/{gid}/"
            try:
                ws = await connect(path, br)
            except Exception as exc:
                refused = (i + 1, f"handshake refused: {exc!r}"[:120])
                break
            socks.append(ws)
            if i >= 49:
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 3)
                except websockets.ConnectionClosed as exc:
                    refused = (i + 1, f"close {exc.rcvd.code if exc.rcvd else None}")
                    break
                except TimeoutError:
                    pass
        check(
            "51st socket",
            refused is not None and refused[0] == 51 and "4429" in refused[1],
            f"refused at {refused}",
            55,
        )
    finally:
        for ws in socks:
            await ws.close()


async def password_change() -> None:
    name = fresh_name("v")
    T, V, S = Browser(), Browser(), Browser()
    T.signup(name)
    V.login(name)
    T.get("/")
    r = T.post("/games/new", {"kind": "tictactoe", "opponent": "human", "seat": "first", "clock": ""})
    gid = int(r.headers["Location"].strip("/").split("/")[-1])
    code = re.search(r"/join/([A-Za-z0-9_-]+)", T.get(f"/games/{gid}/").text).group(1)
    S.get(f"/join/{code}")
    S.post(f"/join/{code}")
    ws = await connect(f"/ws/games/{gid}/?format=json", T)
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    html_ws = await connect(f"/ws/games/{gid}/", T)
    first_html = await asyncio.wait_for(html_ws.recv(), 10)
    seat_form = 'name="move"' in first_html
    V.get("/accounts/password/change/")
    ch = V.post(
        "/accounts/password/change/",
        {
            "oldpassword": "a-long-pass-1234",
            "password1": "another-pass-5678",
            "password2": "another-pass-5678",
        },
    )
    check("password change ends other sessions", ch.status_code == 302, f"change -> {ch.status_code}")
    # The open HTML socket should get a spectator's rendering (no move form) at once.
    spectator = None
    end = time.monotonic() + 8
    while time.monotonic() < end:
        try:
            text = await asyncio.wait_for(html_ws.recv(), end - time.monotonic())
        except (TimeoutError, websockets.ConnectionClosed):
            break
        spectator = 'name="move"' not in text
        if spectator:
            break
    check(
        "password change ends other sessions",
        seat_form and spectator is True,
        f"open socket after the change: was seat {seat_form}, spectator now {spectator}",
    )
    await ws.send(json.dumps({"move": "b2", "ply": 0}))
    await asyncio.sleep(1.5)
    ply = S.api("GET", f"/games/{gid}").json()["ply"]
    check(
        "password change ends other sessions",
        ply == 0,
        f"socket move after the change: ply {ply} (first frame {str(first)[:60]})",
    )
    p = T.post(f"/games/{gid}/move", {"move": "b2", "ply": "0"})
    ply = S.api("GET", f"/games/{gid}").json()["ply"]
    check(
        "password change ends other sessions",
        ply == 0,
        f"form post after the change -> {p.status_code}, ply {ply}",
    )
    page = T.get(f"/games/{gid}/").text
    check(
        "password change ends other sessions",
        'name="move"' not in page or name not in page.split("site-header")[-1][:2000],
        "T's page after the change still a seat?",
    )
    # V plays on
    vp = V.post(f"/games/{gid}/move", {"move": "b2", "ply": "0"})
    ply = S.api("GET", f"/games/{gid}").json()["ply"]
    check(
        "password change ends other sessions",
        ply == 1,
        f"V (who changed it) plays on -> {vp.status_code}, ply {ply}",
    )
    await ws.close()
    await html_ws.close()


async def main() -> None:
    started = time.time()
    for part, fn in [("odd", odd_input), ("cap", cap), ("password", password_change)]:
        if want(part):
            print("--", part, flush=True)
            try:
                await fn()
            except Exception as exc:
                check(part + " (script)", False, f"crashed: {exc!r}")
    report()
    print(f"{time.time() - started:.0f} s against {BASE}")


asyncio.run(main())

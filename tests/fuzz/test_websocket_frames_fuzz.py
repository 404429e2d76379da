"""hypothesis against the game's WebSocket: whatever a page (or anyone) sends, text or
bytes, the consumer never crashes, never changes the game, and the socket stays usable:
every frame is answered with the current position (a frame carrying a move, never a
legal one here, with its refusal), and a push still arrives after.

``WS_RESYNC_INTERVAL`` is 0 here, so each frame costs a render and gets its answer (the
coalescing of bursts has its own test in tests/web/test_limits.py).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from hypothesis import given
from hypothesis import strategies as st

from games.live import moves as socket_moves
from games.live import rounds
from games.models import Game, Move
from games.services import players
from quarto_site.asgi import application

from ..web.helpers import two_humans
from .conftest import fuzz

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://localhost")
# What a real client might send (valid UTF-8 text, any bytes), and things that look
# like the htmx ws extension's JSON or an API action.
texts = st.text(st.characters(blacklist_categories=["Cs"]), max_size=300)
frames = st.one_of(
    texts.map(lambda t: ("text", t)),
    st.binary(max_size=300).map(lambda b: ("bytes", b)),
    st.sampled_from(
        [
            ("text", '{"move": "a1", "ply": 1}'),
            ("text", '{"HEADERS": {"HX-Trigger": "board"}, "cell": "a1"}'),
            ("text", '{"type": "game.changed", "ply": 99}'),
            ("text", '{"type": "websocket.disconnect"}'),
            ("text", "\x00" * 100),
            ("bytes", b"\xff\xfe\x00"),
            ("text", "x" * 60_000),
        ]
    ),
)


def seat_cookie() -> bytes:
    session = SessionStore()
    session[players.SESSION_FIELD] = "s-one"
    session.create()
    return f"sessionid={session.session_key}".encode()


def snapshot(game_id: int) -> tuple[Any, ...]:
    game = Game.objects.get(pk=game_id)
    return game.ply, game.status, tuple(Move.objects.filter(game=game).values_list("ply", "text"))


def unstamped(frame: str, as_json: bool) -> Any:
    """A frame without the server's time a JSON state is stamped with as it is sent."""
    if not as_json:
        return frame
    data = json.loads(frame)
    if isinstance(data.get("state"), dict):
        data["state"].pop("now", None)
    return data


async def exchange(game_id: int, sent: list[tuple[str, Any]], as_json: bool, cookie: bytes | None) -> None:
    headers = [ORIGIN] + ([(b"cookie", cookie)] if cookie else [])
    path = f"/ws/games/{game_id}/" + ("?format=json" if as_json else "")
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    first = await comm.receive_from(timeout=5)
    if not as_json:  # the seat holder's page, or a spectator's
        assert ("is-my-turn" in first) == (cookie is not None)
    for kind, data in sent:
        # As the server hands a frame over (send_to refuses empty ones, which can arrive).
        await comm.send_input({"type": "websocket.receive", kind: data})
        answer = await comm.receive_from(timeout=5)  # the socket is still there: one answer a frame
        if kind == "text" and socket_moves.read(data) is not None:  # a move: refused, to this socket
            assert '"type": "error"' in answer if as_json else 'id="status"' in answer
        else:
            assert unstamped(answer, as_json) == unstamped(first, as_json)
    await sync_to_async(rounds.broadcast)(game_id, 1)  # and still in its group
    assert unstamped(await comm.receive_from(timeout=5), as_json) == unstamped(first, as_json)
    assert await comm.receive_nothing(timeout=0.01)
    await comm.disconnect()


def test_any_frames_leave_the_game_alone_and_the_socket_usable(settings: Any) -> None:
    settings.WS_RESYNC_INTERVAL = 0
    settings.WS_MAX_PER_CLIENT = 1000
    game = two_humans()
    cookie = seat_cookie()
    before = snapshot(game.pk)

    @fuzz(120)
    @given(sent=st.lists(frames, min_size=1, max_size=6), as_json=st.booleans(), seat=st.booleans())
    def run(sent: list[tuple[str, Any]], as_json: bool, seat: bool) -> None:
        asyncio.run(exchange(game.pk, sent, as_json, cookie if seat else None))
        assert snapshot(game.pk) == before

    run()

"""One rendering per audience: seats and spectators see the same moves, each their own view."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games.live import messages
from games.models import Game
from games.presenting import audiences
from games.presenting import presence as presence_counts
from games.services import chat
from games.services import moves as services
from games.services.moves import Actor, play_move
from games.services.players import SESSION_FIELD
from quarto_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://localhost")
SEAT_ONLY = ("Hint</button>", "is-my-turn", "Invite link", "you</span>", "Your opponent")


def session_for(player_id: str) -> str:
    session = SessionStore()
    session[SESSION_FIELD] = player_id
    session.create()
    return str(session.session_key)


def socket(game_id: int, session_key: str | None = None) -> WebsocketCommunicator:
    headers = [ORIGIN]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def board_frames(comm: WebsocketCommunicator, count: int, timeout: float = 5) -> list[str]:
    """The next ``count`` renderings (presence lines and other small events skipped)."""
    frames: list[str] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while len(frames) < count:
        left = deadline - asyncio.get_running_loop().time()
        text: str = await comm.receive_from(timeout=max(left, 0.01))
        if 'id="board"' in text:
            frames.append(text)
    return frames


def plies(frames: list[str]) -> list[int]:
    return [int(m) for f in frames for m in re.findall(r'data-ply="(\d+)"', f)]


def two_humans() -> Game:
    game = services.create_game("quarto", {}, opponent="human", seat="first", player_id="p-one").game
    services.join_game(game.pk, invite=game.invite_code, player_id="p-two")
    return Game.objects.get(pk=game.pk)


def count_audiences(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """Wrap ``module.name(..., audience)``: the audiences it is called for, in order."""
    called: list[str] = []
    real = getattr(module, name)

    def counted(first: Any, second: Any, audience: str) -> str:
        called.append(audience)
        return str(real(first, second, audience))

    monkeypatch.setattr(module, name, counted)
    return called


@pytest.fixture
def counted_renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return count_audiences(monkeypatch, audiences, "render")


async def test_two_seats_and_spectators_see_the_same_moves_each_their_own_view(
    counted_renders: list[str],
) -> None:
    game = await database_sync_to_async(two_humans)()
    one, two = (
        await database_sync_to_async(session_for)("p-one"),
        await database_sync_to_async(session_for)("p-two"),
    )
    seat_one, seat_two = socket(game.pk, one), socket(game.pk, two)
    watchers = [socket(game.pk) for _ in range(3)]
    everyone = [seat_one, seat_two, *watchers]
    for comm in everyone:
        assert (await comm.connect())[0]
    first = {id(c): (await board_frames(c, 1))[0] for c in everyone}
    assert "is-my-turn" in first[id(seat_one)] and "is-my-turn" not in first[id(seat_two)]
    assert sorted(counted_renders) == ["seat-0", "seat-1", "watch"], "one render per audience on connect"
    counted_renders.clear()

    moves = [("p-one", "15", 0), ("p-two", "a1", 1), ("p-two", "3", 2), ("p-one", "b2", 3)]
    for player, text, ply in moves:
        await database_sync_to_async(play_move)(game.pk, Actor(player_id=player), text, ply)
        for comm in everyone:  # wait for each push, so none is coalesced with the next
            await board_frames(comm, 1)
    # Every audience rendered once per move, however many sockets it has.
    assert sorted(counted_renders) == sorted(["seat-0", "seat-1", "watch"] * len(moves))
    for comm in everyone:
        await comm.send_to(text_data="sync")
    final = {id(c): (await board_frames(c, 1))[0] for c in everyone}
    assert {tuple(plies([f])) for f in final.values()} == {(4,)}
    assert len(counted_renders) == 3 * len(moves), "a resync is a cache read"
    for comm in watchers:
        for needle in SEAT_ONLY:
            assert needle not in first[id(comm)] + final[id(comm)], needle
    assert "Hint</button>" in final[id(seat_one)] and "is-my-turn" in final[id(seat_one)]
    assert "is-my-turn" not in final[id(seat_two)]
    for comm in everyone:
        await comm.disconnect()


async def test_a_spectator_never_receives_seat_only_content() -> None:
    """A waiting game shows its holder the invite; a spectator's socket gets none of it."""
    game = await database_sync_to_async(
        lambda: services.create_game("quarto", {}, opponent="human", seat="first", player_id="p-one").game
    )()
    holder = socket(game.pk, await database_sync_to_async(session_for)("p-one"))
    watcher = socket(game.pk)
    for comm in (holder, watcher):
        assert (await comm.connect())[0]
    assert "Invite link" in (await board_frames(holder, 1))[0]
    received = [await watcher.receive_from()]
    await database_sync_to_async(services.join_game)(game.pk, invite=game.invite_code, player_id="p-two")
    while not await watcher.receive_nothing(timeout=0.8):
        received.append(await watcher.receive_from())
    assert any('data-ply="0"' in r for r in received[1:]), "the join was pushed"
    for needle in (*SEAT_ONLY, game.invite_code):
        assert needle not in "".join(received), needle
    for comm in (holder, watcher):
        await comm.disconnect()


async def presence(comm: WebsocketCommunicator, timeout: float = 3) -> str:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        text: str = await comm.receive_from(timeout=max(left, 0.01))
        if 'id="presence"' in text:
            return text


async def test_presence_follows_connects_and_disconnects_each_from_its_side(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.WS_PRESENCE_DELAY = 0.05
    rendered = count_audiences(monkeypatch, presence_counts, "presence_line")
    game = await database_sync_to_async(two_humans)()
    seat_one = socket(game.pk, await database_sync_to_async(session_for)("p-one"))
    assert (await seat_one.connect())[0]
    assert await presence(seat_one) == (
        '<p id="presence" class="game__presence" role="status" hx-swap-oob="true">'
        "Your opponent is not connected.</p>"
    )
    watchers = [socket(game.pk) for _ in range(3)]
    for comm in watchers:
        assert (await comm.connect())[0]
    seat_two = socket(game.pk, await database_sync_to_async(session_for)("p-two"))
    assert (await seat_two.connect())[0]
    line = await presence(seat_one)
    while "Your opponent is connected. 3 watching." not in line:
        line = await presence(seat_one)
    line = await presence(seat_two)
    while "Your opponent is connected. 3 watching." not in line:
        line = await presence(seat_two)
    line = await presence(watchers[0])
    while "Player 1 is connected. Player 2 is connected. 3 watching." not in line:
        line = await presence(watchers[0])
    # One line per audience with a socket open, however many sockets it has.
    rendered.clear()
    await messages._send_presence(game.pk)
    assert sorted(rendered) == ["seat-0", "seat-1", "watch"]

    # A name is shown as soon as it is set.
    await database_sync_to_async(chat.set_name)(game.pk, Actor(player_id="p-two"), "Bob")
    line = await presence(seat_one)
    while "Bob (Player 2) is connected." not in line:
        line = await presence(seat_one)
    line = await presence(watchers[1])
    while "Player 1 is connected. Bob (Player 2) is connected." not in line:
        line = await presence(watchers[1])

    await watchers.pop().disconnect()
    await seat_two.disconnect()
    line = await presence(seat_one)
    while "2 watching." not in line:
        line = await presence(seat_one)
    assert "Bob (Player 2) is not connected." in line and "Player 1" not in line
    line = await presence(watchers[0])
    while "2 watching." not in line:
        line = await presence(watchers[0])
    assert "Player 1 is connected. Bob (Player 2) is not connected." in line
    for comm in [seat_one, *watchers]:
        await comm.disconnect()


async def test_small_events_reach_their_audience_only() -> None:
    game = await database_sync_to_async(two_humans)()
    seat_two = socket(game.pk, await database_sync_to_async(session_for)("p-two"))
    watcher = socket(game.pk)
    program = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?format=json", headers=[ORIGIN])
    for comm in (seat_two, watcher, program):
        assert (await comm.connect())[0]
        await comm.receive_from()
    line = {"kind": "chat", "html": '<li id="chat-1">hello</li>', "data": {"text": "hello"}}
    await messages.ato_audience(game.pk, "seat-1", line)
    assert "hello" in await seat_two.receive_from(timeout=2)
    await messages.ato_all(game.pk, {**line, "html": '<li id="chat-2">all</li>'})
    for comm in (seat_two, watcher):
        text = await comm.receive_from(timeout=2)
        while "presence" in text:
            text = await comm.receive_from(timeout=2)
        assert "chat-2" in text, text
    assert await watcher.receive_nothing(timeout=0.2) or "hello" not in await watcher.receive_from()
    assert '"type": "chat"' in await program.receive_from(timeout=2)
    for comm in (seat_two, watcher, program):
        await comm.disconnect()

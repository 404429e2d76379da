"""Shortcuts for web tests: games with a known seat order, a played-out record, and a
game page's socket opened with a browser's session cookie."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.models import Game
from games.services import moves as services
from quarto_site.asgi import application


def human_first_vs_ai(player_id: str = "s-human", level: str = "casual", **options: object) -> Game:
    return services.create_game(
        "quarto", options, opponent="ai", level=level, seat="first", player_id=player_id
    ).game


def two_humans() -> Game:
    game = services.create_game("quarto", {}, opponent="human", seat="first", player_id="s-one").game
    services.join_game(game.pk, invite=game.invite_code, player_id="s-two")
    return game


ONE = services.Actor(player_id="s-one")
TWO = services.Actor(player_id="s-two")

# A short game: seat index 1 (the second player) wins with four round pieces on rank 1.
SECOND_WINS = ["8", "a1", "0", "a4", "9", "b1", "1", "b4", "10", "c1", "2", "c4", "11", "d1"]


async def open_seat_socket(game_id: int, cookie: str) -> tuple[WebsocketCommunicator, str]:
    """The game page's socket as the browser with session ``cookie`` opens it, and its first frame."""
    session = f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()
    headers = [(b"origin", b"http://localhost"), (b"cookie", session)]
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm, await comm.receive_from(timeout=5)


async def next_board(comm: WebsocketCommunicator) -> str:
    """The next frame that carries the board."""
    while True:
        text: str = await comm.receive_from(timeout=5)
        if 'id="board"' in text:
            return text

"""What each viewer reads: the invite only for seat holders, the footer pushed with the
game, who won from the winner's, the loser's and a spectator's side, one-sentence status
lines, and a page that refreshes itself without JavaScript while the computer thinks."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.models import Game, Seat
from games.presenting import presenters
from games.services import moves as services
from games.services.moves import Actor, play_move
from quarto_site.asgi import application

from .helpers import ONE, SECOND_WINS, TWO, two_humans

pytestmark = pytest.mark.django_db(transaction=True)

NO_JS_REFRESH = '<noscript><meta http-equiv="refresh"'


def waiting_game(kind: str = "quarto") -> tuple[Game, Client]:
    creator = Client()
    creator.post("/games/new", {"kind": kind, "opponent": "human", "seat": "first"})
    return Game.objects.latest("created"), creator


# -- the invite: only for the seat holders, gone once the seats are taken -----------------


def test_only_the_seat_holder_sees_the_invite_link() -> None:
    game, creator = waiting_game()
    mine = creator.get(game.get_absolute_url()).content.decode()
    assert f'value="http://testserver/join/{game.invite_code}"' in mine
    assert 'data-copy="invite-url"' in mine and 'id="invite-url"' in mine and " readonly " in mine
    assert "Waiting for a friend to join: share the invite link." in mine
    spectator = Client()
    for url in (game.get_absolute_url(), f"/games/{game.pk}/partials"):
        html = spectator.get(url).content.decode()
        assert game.invite_code not in html and "game__invite" not in html
    assert "Waiting for players to join." in spectator.get(game.get_absolute_url()).content.decode()


def test_after_the_join_the_footer_is_swapped_with_the_board() -> None:
    game, creator = waiting_game()
    actor = Actor(player_id=creator.session["player_id"])
    before = presenters.render_partials(Game.objects.get(pk=game.pk), actor)
    assert '<div id="seats" hx-swap-oob="innerHTML">' in before
    assert "Player 2: open seat" in before and "game__invite" in before
    services.join_game(game.pk, invite=game.invite_code, player_id="s-friend")
    after = presenters.render_partials(Game.objects.get(pk=game.pk), actor)
    assert '<div id="seats" hx-swap-oob="innerHTML">' in after
    assert "open seat" not in after and "game__invite" not in after and game.invite_code not in after
    assert "Player 2: person" in after


@pytest.mark.backends
async def test_the_creator_s_socket_gets_the_footer_without_the_invite_after_the_join() -> None:
    game, creator = await database_sync_to_async(waiting_game)()
    cookie = f"sessionid={creator.cookies['sessionid'].value}".encode()
    headers = [(b"origin", b"http://localhost"), (b"cookie", cookie)]
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from()
    assert "Player 2: open seat" in first and "game__invite" in first
    await database_sync_to_async(services.join_game)(game.pk, invite=game.invite_code, player_id="s-friend")
    pushed = await comm.receive_from(timeout=5)
    assert '<div id="seats" hx-swap-oob="innerHTML">' in pushed
    assert "open seat" not in pushed and "game__invite" not in pushed and "Player 2: person" in pushed
    await comm.disconnect()


# -- who won, said from each side ---------------------------------------------------------


def finished_quarto() -> Game:
    game = two_humans()
    for ply, text in enumerate(SECOND_WINS):
        game = play_move(game.pk, ONE if game.state.to_move == 0 else TWO, text, ply)
    return Game.objects.get(pk=game.pk)


def status_for(game: Game, actor: Actor) -> str:
    return str(presenters.game_context(game, actor)["status_text"])


def test_the_winner_the_loser_and_a_spectator_each_read_the_result_their_way() -> None:
    game = finished_quarto()  # the second seat wins
    assert status_for(game, TWO) == "You win! The line shares: short, round."
    assert status_for(game, ONE) == "You lose: Player 2 wins. The line shares: short, round."
    assert status_for(game, Actor()) == "Player 2 wins! The line shares: short, round."


def as_computers(game: Game) -> Game:
    """The same game as if both seats were the computer's (a spectator's view of such games)."""
    Seat.objects.filter(game=game).update(kind=Seat.Kind.AI, player_id="")
    return Game.objects.get(pk=game.pk)


def test_a_spectator_of_two_computers_is_told_which_one_won() -> None:
    game = two_humans_playing("tictactoe", ["a1", "a2", "b1", "b2", "c1"])
    assert status_for(game, Actor()) == "Player 1 (X) wins!"
    game = as_computers(game)
    assert status_for(game, Actor()) == "X (the computer) wins!"
    quarto = as_computers(finished_quarto())
    assert status_for(quarto, Actor()) == "Player 2 (the computer) wins! The line shares: short, round."


def test_a_spectator_of_two_computers_is_told_which_one_is_thinking() -> None:
    game = as_computers(two_humans_playing("tictactoe", ["a1"]))
    assert status_for(game, Actor()) == "O (the computer) is thinking…"
    quarto = as_computers(two_humans_playing("quarto", ["8"]))
    thinking = "Player 2 (the computer) is thinking about where to place its piece…"
    assert status_for(quarto, Actor()) == thinking
    context = presenters.game_context(quarto, Actor())
    assert context["last_action"] == "Player 1 (the computer) gave the short light round solid piece (8)."


def two_humans_playing(kind: str, moves: list[str]) -> Game:
    game = services.create_game(kind, {}, opponent="human", seat="first", player_id="s-one").game
    services.join_game(game.pk, invite=game.invite_code, player_id="s-two")
    for ply, text in enumerate(moves):
        play_move(game.pk, ONE if ply % 2 == 0 else TWO, text, ply)
    return Game.objects.get(pk=game.pk)


# -- the status line: one sentence; without JavaScript the page refreshes itself ----------


def test_the_computer_s_turn_is_one_sentence_and_refreshes_a_page_without_javascript(
    client: Client, no_ai_reply: None
) -> None:
    client.post("/games/new", {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": "first"})
    game = Game.objects.latest("created")
    page = client.get(game.get_absolute_url()).content.decode()
    assert NO_JS_REFRESH not in page  # our turn: nothing to wait for
    client.post(f"/games/{game.pk}/move", {"move": "15", "ply": "0"})
    page = client.get(game.get_absolute_url()).content.decode()
    status = re.search(r'<span class="status__text">([^<]*)</span>', page)
    assert status is not None
    assert status.group(1) == "The computer is thinking about where to place its piece…"
    head = page.split("</head>", 1)[0]
    assert NO_JS_REFRESH in head
    assert f'<noscript><a class="status__refresh" href="{game.get_absolute_url()}">' in page
    spectator = Client().get(game.get_absolute_url()).content.decode()
    assert "The computer is thinking about where to place its piece…" in spectator


def test_grid_games_say_the_computer_thinks_in_one_sentence(client: Client, no_ai_reply: None) -> None:
    client.post("/games/new", {"kind": "tictactoe", "opponent": "ai", "level": "casual", "seat": "first"})
    game = Game.objects.latest("created")
    client.post(f"/games/{game.pk}/move", {"move": "b2", "ply": "0"})
    page = client.get(game.get_absolute_url()).content.decode()
    assert '<span class="status__text">The computer (O) is thinking…</span>' in page
    assert NO_JS_REFRESH in page

"""Tic-tac-toe, connect-N and Ultimate on the same pages as Quarto."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game, Move
from games.services import moderation

from ..kinds import KINDS

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def friends_game(kind: str, **options: str) -> tuple[Game, Client, Client]:
    """A game between two browsers; the first one starts."""
    first, second = Client(), Client()
    first.post("/games/new", {"kind": kind, "opponent": "human", "seat": "first", **options})
    game = Game.objects.latest("created")
    second.post(f"/join/{game.invite_code}")
    return game, first, second


def move(client: Client, game: Game, text: str) -> str:
    game.refresh_from_db()
    response = client.post(f"/games/{game.pk}/move", {"move": text, "ply": str(game.ply)}, headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_home_lists_all_four_games(client: Client) -> None:
    html = client.get("/").content.decode()
    for title in ("Quarto", "Tic-tac-toe", "Connect-N", "Ultimate Tic-Tac-Toe"):
        assert f">{title}</h3>" in html
    assert 'name="gravity"' in html and 'name="players"' in html


def test_tictactoe_win_is_highlighted_and_a_rematch_offered() -> None:
    game, x, o = friends_game("tictactoe")
    for player, text in [(x, "a1"), (o, "a2"), (x, "b1"), (o, "b2")]:
        move(player, game, text)
    html = move(x, game, "c1")
    assert "You win!" in html
    assert len(re.findall(r'class="grid__cell is-p0 is-winning', html)) == 3
    assert ">Rematch</button>" in html and "Play again" not in html
    assert "You lose: Player 1 (X) wins." in o.get(game.get_absolute_url()).content.decode()
    assert "Player 1 (X) wins!" in Client().get(game.get_absolute_url()).content.decode()


def test_tictactoe_accepts_position_words_and_stores_the_cell() -> None:
    game, x, _ = friends_game("tictactoe")
    move(x, game, "TL")
    assert Move.objects.get(game=game).text == "a3"


def test_connect_four_drops_to_the_lowest_cell_and_marks_droppable_columns() -> None:
    game, first, second = friends_game("connect")
    html = first.get(game.get_absolute_url()).content.decode()
    assert html.count('class="grid__file is-droppable"') == 7
    assert 'aria-label="d6: empty, plays d"' in html  # any cell of a column drops into it
    move(first, game, "d")
    html = move(second, game, "d")
    assert 'aria-label="d1: X"' in html and 'aria-label="d2: O"' in html


def test_where_a_stone_would_land_is_marked_for_the_player_to_move_only() -> None:
    game, first, second = friends_game("connect")
    pages = [c.get(game.get_absolute_url()).content.decode() for c in (first, second, Client())]
    assert [html.count(" is-landing") for html in pages] == [7, 0, 0]


def test_the_players_panel_numbers_the_people_like_the_chat_does() -> None:
    game, first, _ = friends_game("connect", players="3")
    Client().post(f"/join/{game.invite_code}")
    spectator = Client().get(game.get_absolute_url()).content.decode()
    for symbol, number in (("X", 1), ("O", 2), ("A", 3)):
        assert f"<span>{symbol}: Player {number}</span>" in spectator
    assert "<span>X: you</span>" in first.get(game.get_absolute_url()).content.decode()


def test_connect_full_column_is_refused_with_its_code() -> None:
    game, first, second = friends_game("connect", width="4", height="3", n="3")
    for i in range(3):
        move(first if i % 2 == 0 else second, game, "a")
    html = move(second, game, "a")
    assert "Column a is full" in html
    assert Move.objects.filter(game=game).count() == 3


def test_connect_options_are_validated_on_the_form(client: Client) -> None:
    response = client.post("/games/new", {"kind": "connect", "opponent": "human", "width": "20"}, follow=True)
    assert "width must be from 3 to 12" in response.content.decode()
    assert not Game.objects.exists()


def test_connect_without_gravity_takes_cell_names() -> None:
    game, first, _ = friends_game("connect", gravity="off")
    html = move(first, game, "c3")
    assert 'aria-label="c3: X"' in html


def test_four_player_connect_takes_turns_round_robin() -> None:
    first = Client()
    first.post("/games/new", {"kind": "connect", "opponent": "human", "seat": "first", "players": "4"})
    game = Game.objects.latest("created")
    others = [Client() for _ in range(3)]
    for other in others:
        other.post(f"/join/{game.invite_code}")
    for player, column in zip([first, *others], "abcd", strict=True):
        move(player, game, column)
    game.refresh_from_db()
    assert list(game.moves.values_list("seat", flat=True)) == [0, 1, 2, 3]
    assert "B: you" in others[2].get(game.get_absolute_url()).content.decode()


def test_ultimate_marks_the_allowed_board_and_refuses_others() -> None:
    game, x, o = friends_game("ultimate")
    html = move(x, game, "e5")  # centre of the centre board: O is sent to the centre board
    assert html.count("ultimate__board is-open is-allowed") == 1
    assert "centre board" in html
    html = move(o, game, "a1")
    assert "wrong_board" not in html and "centre board" in html
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("kind", KINDS)
def test_admin_renders_every_kind_of_board(admin_client: Client, kind: str) -> None:
    game, _, _ = friends_game(kind)
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    board = page.split('class="admin-board', 1)[1]
    assert board.count('class="grid__cell') + board.count('class="board__cell') >= 9


def to_move_marks(html: str) -> int:
    return html.count('class="players__item is-to-move"')


@pytest.mark.parametrize("end", ["resign", "abort"])
def test_nobody_is_outlined_to_move_once_the_game_has_ended(end: str) -> None:
    game, first, second = friends_game("connect")
    move(first, game, "d")
    assert to_move_marks(first.get(game.get_absolute_url()).content.decode()) == 1
    if end == "resign":
        second.post(f"/games/{game.pk}/resign", {"ply": "1"})
    else:
        moderation.abort_game(game.pk, "a test")
    game.refresh_from_db()
    assert game.is_finished
    for viewer in (first, second, Client()):
        html = viewer.get(game.get_absolute_url()).content.decode()
        assert 'class="players__item' in html and to_move_marks(html) == 0

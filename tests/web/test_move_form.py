"""The move form lives outside the swapped parts of the page.

htmx looks for the out-of-band targets of a response from the element that sent the
request; if a push had replaced that element meanwhile, the targets were not found
(``htmx:oobErrorNoTarget``). The form is never swapped, only the cells inside it.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from games.services import moves as services

from ..kinds import KINDS

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize("kind", KINDS)
def test_one_stable_form_holds_the_board_and_pieces(client: Client, kind: str) -> None:
    session = client.session
    session["player_id"] = "p-one"
    session.save()
    game = services.create_game(kind, {}, opponent="human", seat="first", player_id="p-one").game
    page = client.get(game.get_absolute_url()).content.decode()
    form = re.search(r'<form class="game__layout"[^>]*>(.*?)</form>', page, re.S)
    assert form is not None and f'hx-post="/games/{game.pk}/move"' in form.group(0)
    assert '<div id="board"' in form.group(1) and '<div id="pieces"' in form.group(1)
    assert "<form" not in form.group(1)
    partials = client.get(f"/games/{game.pk}/partials", headers=HTMX).content.decode()
    assert "<form" not in partials.split('<div id="status"')[0]
    assert 'name="ply"' in partials and partials.count('name="ply"') == 1


def _as(client: Client, player_id: str) -> Client:
    session = client.session
    session["player_id"] = player_id
    session.save()
    return client


def test_the_move_form_carries_the_revision_and_a_late_click_is_stale(client: Client) -> None:
    one, two = _as(client, "p-one"), _as(Client(), "p-two")
    game = services.create_game("tictactoe", {}, opponent="human", seat="first", player_id="p-one").game
    services.join_game(game.pk, invite=game.invite_code, player_id="p-two")
    first, second = services.Actor(player_id="p-one"), services.Actor(player_id="p-two")
    for ply, text in enumerate(["a1", "b2", "c3"]):
        services.play_move(game.pk, first if ply % 2 == 0 else second, text, ply)
    page = two.get(game.get_absolute_url()).content.decode()
    seen = re.search(r'name="revision" value="(\d+)"', page)
    assert seen is not None
    game.refresh_from_db()
    assert int(seen.group(1)) == game.revision
    partials = two.get(f"/games/{game.pk}/partials", headers=HTMX).content.decode()
    assert partials.count(f'name="revision" value="{game.revision}"') == 1
    # c3 is taken back and a2 played: ply 3 again, another position.
    one.post(f"/games/{game.pk}/takeback", {"ply": 3, "answer": "yes"})
    two.post(f"/games/{game.pk}/takeback", {"ply": 3, "answer": "yes"})
    services.play_move(game.pk, first, "a2", 2)
    late = two.post(
        f"/games/{game.pk}/move", {"move": "a3", "ply": 3, "revision": seen.group(1)}, headers=HTMX
    )
    assert "The game has changed since" in late.content.decode()
    game = Game.objects.get(pk=game.pk)
    assert game.move_texts == ["a1", "b2", "a2"]
    bad = two.post(f"/games/{game.pk}/move", {"move": "a3", "ply": 3, "revision": "x"}, headers=HTMX)
    assert "reload the page" in bad.content.decode()
    played = two.post(
        f"/games/{game.pk}/move", {"move": "a3", "ply": 3, "revision": game.revision}, headers=HTMX
    )
    assert played.status_code == 200 and "changed" not in played.content.decode()
    assert Game.objects.get(pk=game.pk).move_texts == ["a1", "b2", "a2", "a3"]


def test_a_resent_click_that_the_socket_played_is_answered_as_played(client: Client) -> None:
    """A page resends over HTTP a socket move that got no answer ("resent"): when the socket
    had played it, the answer is the position with that move, not "the game has moved on";
    any other stale post still is."""
    one, two = _as(client, "p-one"), _as(Client(), "p-two")
    game = services.create_game("tictactoe", {}, opponent="human", seat="first", player_id="p-one").game
    services.join_game(game.pk, invite=game.invite_code, player_id="p-two")
    game.refresh_from_db()
    click = {"move": "b2", "ply": 0, "revision": game.revision}
    services.play_move(game.pk, services.Actor(player_id="p-one"), "b2", 0, game.revision)  # on the socket
    resent = one.post(f"/games/{game.pk}/move", {**click, "resent": "1"}, headers=HTMX).content.decode()
    assert resent.count('id="board"') == 1 and "moved on" not in resent and 'data-ply="1"' in resent
    assert "status__error" not in resent
    # Not resent (a second tab's old click), another move, or another seat: stale, as before.
    for who, form in [
        (one, click),
        (one, {**click, "move": "a1", "resent": "1"}),
        (two, {**click, "resent": "1"}),
    ]:
        answer = who.post(f"/games/{game.pk}/move", form, headers=HTMX).content.decode()
        assert "The game has moved on" in answer, form
    assert Game.objects.get(pk=game.pk).move_texts == ["b2"]

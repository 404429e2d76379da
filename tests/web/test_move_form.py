"""The move form lives outside the swapped parts of the page.

htmx looks for the out-of-band targets of a response from the element that sent the
request; if a push had replaced that element meanwhile, the targets were not found
(``htmx:oobErrorNoTarget``). The form is never swapped, only the cells inside it.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

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

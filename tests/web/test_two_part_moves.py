"""A two-part move (a first click choosing, a second completing it) without JavaScript:
the first click sends ``part`` and the page comes back with that part chosen and its
ends offered as the move's buttons (with JavaScript, static/js/parts.js does the same
on the page; tests/e2e/test_two_part_moves.py). Every game of the catalog whose board
offers such moves is played so."""

from __future__ import annotations

import pytest
from django.test import Client

from games import catalog
from games.models import Game
from games.services import moves as services

from ..kinds import KINDS

pytestmark = pytest.mark.django_db(transaction=True)


def first_parts(kind: str) -> list[dict[str, object]]:
    spec = catalog.get(kind)
    controls = spec.board_after(spec.rules.new_state({}), [], True)["controls"]
    return [control for control in controls if control.get("ends")]


TWO_PART = [kind for kind in KINDS if first_parts(kind)]


@pytest.mark.parametrize("kind", TWO_PART or [pytest.param("", marks=pytest.mark.skip("no two-part game"))])
def test_without_javascript_the_first_click_chooses_and_the_second_plays(client: Client, kind: str) -> None:
    session = client.session
    session["player_id"] = "p-one"
    session.save()
    game = services.create_game(kind, {}, opponent="human", seat="first", player_id="p-one").game
    services.join_game(game.pk, invite=game.invite_code, player_id="p-two")
    first = first_parts(kind)[0]
    page_url = game.get_absolute_url()
    answer = client.post(f"/games/{game.pk}/move", {"ply": "0", "part": first["part"]})
    assert answer.status_code == 302 and answer["Location"] == f"{page_url}?part={first['part']}#board"
    assert Game.objects.get(pk=game.pk).ply == 0  # a choice, not a move
    page = client.get(answer["Location"].split("#")[0]).content.decode()
    assert f'data-part="{first["part"]}" data-ends=' in page and 'aria-pressed="true"' in page
    ends = first["ends"]
    assert isinstance(ends, list)
    for end in ends:
        assert f'name="move" value="{end["move"]}"' in page
    # the chosen part again takes the choice back
    back = client.post(f"/games/{game.pk}/move", {"ply": "0", "part": ""})
    assert back["Location"] == f"{page_url}#board"
    assert 'aria-pressed="true"' not in client.get(page_url).content.decode()
    client.post(f"/games/{game.pk}/move", {"ply": "0", "move": ends[0]["move"]})
    assert Game.objects.get(pk=game.pk).move_texts == [ends[0]["move"]]

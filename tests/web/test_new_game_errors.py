"""A new-game form with options the game refuses (connect-N: 3x3 with 7 in a row) comes
back with what was typed and the error beside its field, as a plain page (no JavaScript
needed), and starts no game."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

CONNECT = {
    "kind": "connect",
    "opponent": "human",
    "seat": "second",
    "width": "3",
    "height": "3",
    "n": "7",
    "gravity": ["off", "on"],
    "allow_hints": "on",
}


def card(html: str, kind: str) -> str:
    return html.split(f'class="card game-card game-card--{kind}"', 1)[1].split("</section>", 1)[0]


def field(html: str, name: str) -> str:
    match = re.search(rf'<input type="number" name="{name}"[^>]*>', html)
    assert match, name
    return match.group(0)


def test_a_refused_option_is_said_beside_its_field_with_the_input_kept(client: Client) -> None:
    response = client.post("/games/new", CONNECT)
    assert response.status_code == 400
    assert Game.objects.count() == 0
    html = response.content.decode()
    form = card(html, "connect")
    assert 'value="3"' in field(form, "width") and 'value="3"' in field(form, "height")
    n = field(form, "n")
    assert 'value="7"' in n and 'aria-invalid="true"' in n and 'aria-describedby="connect-n-error"' in n
    error = re.search(r'<span id="connect-n-error" class="new-game__error"[^>]*>([^<]*)</span>', form)
    assert error and error.group(1) == "n must be from 3 to 3 on a 3x3 board, not 7."
    # The other choices are kept too; the other games' cards are as they were.
    assert '<option value="human" selected>' in form and '<option value="second" selected>' in form
    assert re.search(r'name="gravity" value="on" checked', form)
    assert not re.search(r'name="allow_takebacks" checked', form)
    quarto = card(html, "quarto")
    assert "new-game__error" not in quarto and '<option value="random" selected>' in quarto


def test_a_number_out_of_range_is_said_beside_its_field(client: Client) -> None:
    response = client.post("/games/new", {**CONNECT, "width": "99", "n": "4"})
    assert response.status_code == 400
    form = card(response.content.decode(), "connect")
    assert 'value="99"' in field(form, "width") and 'aria-invalid="true"' in field(form, "width")
    assert 'id="connect-width-error"' in form and "aria-invalid" not in field(form, "n")


def test_an_unknown_level_is_said_beside_the_level(client: Client) -> None:
    response = client.post("/games/new", {"kind": "quarto", "opponent": "ai", "level": "godlike"})
    assert response.status_code == 400 and Game.objects.count() == 0
    form = card(response.content.decode(), "quarto")
    error = r'<span id="quarto-level-error" class="new-game__error" role="alert">'
    assert re.search(error + r"level must be one of [^<]+\.</span>", form)
    assert 'aria-describedby="quarto-level-error"' in form


def test_good_options_still_start_the_game(client: Client) -> None:
    response = client.post("/games/new", {**CONNECT, "n": "3"})
    assert response.status_code == 303
    assert Game.objects.get().options["n"] == 3

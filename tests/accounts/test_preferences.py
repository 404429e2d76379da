"""The game page honours the account's preferences: board coordinates, resigning at once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from games import catalog
from games.models import Game

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"


def signed_up(client: Client, name: str = "alice") -> None:
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", data).status_code == 302


def game_page(client: Client) -> tuple[Game, str]:
    client.post("/games/new", {"kind": "quarto", "opponent": "ai", "level": "beginner", "seat": "first"})
    game = Game.objects.latest("created")
    return game, client.get(game.get_absolute_url()).content.decode()


def main_classes(html: str) -> set[str]:
    found = re.search(r'<main id="main" class="([^"]*)"', html)
    assert found, "the page's <main>"
    return set(found.group(1).split())


def test_the_defaults_show_coordinates_and_confirm_resigning(client: Client) -> None:
    signed_up(client)
    _, html = game_page(client)
    assert not {"no-coordinates", "resign-at-once"} & main_classes(html)
    assert '<span class="board__name" aria-hidden="true">a1</span>' in html
    assert "Really resign?" in html


def test_the_stored_preferences_reach_the_game_page(client: Client) -> None:
    signed_up(client)
    assert client.post("/accounts/settings/", {"sound": "on", "email_turns": "on"}).status_code == 303
    game, html = game_page(client)
    assert {"no-coordinates", "resign-at-once"} <= main_classes(html)
    # The direct form resigns in one post (the confirmation step is the stylesheet's to hide).
    form = re.search(r'<form class="actions__resign-now"[^>]*action="([^"]+)"', html)
    assert form and form.group(1) == f"/games/{game.pk}/resign"
    assert client.post(form.group(1), {"ply": 0}).status_code == 302
    assert "You resigned" in client.get(game.get_absolute_url()).content.decode()


def test_one_accounts_preferences_do_not_reach_another_viewer(client: Client) -> None:
    signed_up(client)
    client.post("/accounts/settings/", {})
    game, _ = game_page(client)
    for other in (Client(), Client()):
        html = other.get(game.get_absolute_url()).content.decode()
        assert not {"no-coordinates", "resign-at-once"} & main_classes(html)
    bob = Client()
    signed_up(bob, "bob")
    html = bob.get(game.get_absolute_url()).content.decode()
    assert not {"no-coordinates", "resign-at-once"} & main_classes(html)


def test_the_stylesheet_hides_what_the_preferences_name() -> None:
    css = (settings.BASE_DIR / "static" / "css" / "status.css").read_text()
    assert ".resign-at-once .actions__confirm" in css and ".no-coordinates .grid__files" in css
    # A game whose board writes its cells' names hides them in its own stylesheet.
    games_css = "".join(
        Path(str(finders.find(path))).read_text()
        for spec in catalog.CATALOG.values()
        for path in spec.stylesheets
    )
    assert ".no-coordinates .board__name" in games_css

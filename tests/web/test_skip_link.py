"""Every page starts with a "Skip to content" link, the keyboard's first stop, to its <main>."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db

# Whatever the Tab key stops at (hidden inputs excepted).
FOCUSABLE = re.compile(
    r'<(a\s[^>]*href|button\b|select\b|textarea\b|summary\b|input\b(?![^>]*type="hidden"))'
)


def first_focusable(html: str) -> str:
    body = html[html.index("<body") :]
    body = body[body.index(">") + 1 :]
    found = FOCUSABLE.search(body)
    assert found, "something to focus"
    return body[found.start() : body.index(">", found.start()) + 1]


def check(html: str) -> None:
    assert first_focusable(html) == '<a class="skip-link" href="#main">'
    assert ">Skip to content</a>" in html
    assert len(re.findall(r'<main id="main"[ >]', html)) == 1 and html.count("<main") == 1


@pytest.mark.parametrize(
    "path",
    ["/", "/lobby/", "/games/history", "/ratings/", "/accounts/login/", "/accounts/signup/", "/nowhere/"],
)
def test_each_page_starts_with_the_skip_link(client: Client, path: str) -> None:
    check(client.get(path).content.decode())


def test_a_game_page_starts_with_the_skip_link(client: Client) -> None:
    client.post("/games/new", {"kind": "tictactoe", "opponent": "ai", "level": "beginner", "seat": "first"})
    game = Game.objects.latest("created")
    check(client.get(game.get_absolute_url()).content.decode())
    check(client.get(f"/games/{game.pk}/replay").content.decode())

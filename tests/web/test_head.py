"""HEAD is answered like GET, without a body, on every page a browser or a monitor may probe."""

from __future__ import annotations

import pytest
from django.test import Client

from games.services.moves import import_game

from .helpers import SECOND_WINS, two_humans

pytestmark = pytest.mark.django_db(transaction=True)


def finished_game_pages() -> list[str]:
    pk = import_game("quarto", {}, SECOND_WINS).game.pk
    waiting = two_humans()
    return [
        "/",
        "/games/history",
        "/healthz",
        f"/games/{pk}/",
        f"/games/{pk}/partials",
        f"/games/{pk}/record",
        f"/games/{pk}/replay",
        f"/join/{waiting.invite_code}",
    ]


def test_head_answers_every_get_page_like_get_without_a_body(client: Client) -> None:
    for url in finished_game_pages():
        got = client.get(url)
        head = client.head(url)
        assert got.status_code == 200, url
        assert head.status_code == 200, (url, head.status_code)
        assert head.content == b"", url
        assert head["Content-Type"] == got["Content-Type"], url


def test_head_on_an_unknown_game_is_still_404(client: Client) -> None:
    assert client.head("/games/99999/").status_code == 404

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from games.services import moves as services

from ..kinds import KINDS
from .helpers import human_first_vs_ai

pytestmark = pytest.mark.django_db(transaction=True)


def test_admin_lists_games_and_renders_board_and_moves(client: Client) -> None:
    from games.services.moves import Actor, play_move

    game = human_first_vs_ai(level="beginner")
    play_move(game.pk, Actor(player_id="s-human"), "15", 0)
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    listing = client.get("/admin/games/game/?kind__exact=quarto").content.decode()
    assert f">{game.pk}<" in listing and "beginner" in listing
    assert client.get(f"/admin/games/game/?q={game.pk}").status_code == 200
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert page.count('class="board__cell') == 16
    assert 'data-piece="15"' in page
    assert "<li>15</li>" in page


class _FormFields(HTMLParser):
    """What a browser sends for the admin's form: every named control from the form's
    start tag on, nested form tags ignored (as HTML parsers do), the Save button last."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.select: str | None = None
        self.textarea: str | None = None
        self.fields: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside or "disabled" in a or ("name" not in a and tag != "option"):
            return
        if tag == "input" and a.get("type") not in ("submit", "button", "checkbox", "radio", "file"):
            self.fields.append((a["name"], a.get("value", "")))
        elif tag == "input" and a.get("type") in ("checkbox", "radio") and "checked" in a:
            self.fields.append((a["name"], a.get("value", "on")))
        elif tag == "select":
            self.select = a["name"]
        elif tag == "option" and self.select and "selected" in a:
            self.fields.append((self.select, a.get("value", "")))
        elif tag == "textarea":
            self.textarea = a["name"]
            self.fields.append((a["name"], ""))

    def handle_data(self, data: str) -> None:
        if self.textarea:
            name, _ = self.fields.pop()
            self.fields.append((name, data.removeprefix("\n")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def browser_post_data(html: str, form_id: str) -> dict[str, list[str]]:
    parser = _FormFields(form_id)
    parser.feed(html)
    data: dict[str, list[str]] = {}
    for name, value in parser.fields:
        data.setdefault(name, []).append(value)
    data["_save"] = ["Save"]
    return data


@pytest.mark.parametrize("kind", KINDS)
def test_admin_saves_a_game_with_its_board_shown_read_only(kind: str) -> None:
    game = services.create_game(kind, {}, opponent="human", seat="first", player_id="s-one").game
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client = Client(enforce_csrf_checks=True)
    client.login(username="admin", password="pw")
    url = f"/admin/games/game/{game.pk}/change/"
    html = client.get(url).content.decode()
    # The board is there to look at, with nothing in it that submits or requests.
    board = html.split('class="admin-board', 1)[1].split("field-review_link", 1)[0]
    assert "board__cell" in board or "grid__cell" in board
    assert not re.search(r"<(form|button|input)\b|hx-(post|get)", board)
    data = browser_post_data(html, "game_form")
    assert data["csrfmiddlewaretoken"][-1]  # Django reads the last of those the form sends
    data["allow_hints"] = []  # untick "allow hints" and save
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:500]
    game.refresh_from_db()
    assert game.allow_hints is False


def test_admin_pages_name_the_site_icon_and_favicon_ico_finds_it(client: Client) -> None:
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    page = client.get("/admin/games/game/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert icon is not None and icon.group(1).endswith("favicon.svg")
    assert client.get("/admin/").content.decode().count('rel="icon"') == 1
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == icon.group(1)
    svg = client.get(icon.group(1))
    assert svg.status_code == 200 and b"<svg" in b"".join(svg.streaming_content)  # type: ignore[attr-defined]


def test_admin_shows_which_game_in_play_an_imported_copy_came_from(client: Client) -> None:
    game = services.create_game("tictactoe", {}, opponent="human", seat="first", player_id="p1").game
    services.join_game(game.pk, invite=game.invite_code, player_id="p2")
    services.play_move(game.pk, services.Actor(player_id="p1"), "b2", 0)
    copy = services.import_game("tictactoe", {}, ["b2"]).game
    assert copy.copy_of_id == game.pk
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    page = client.get(f"/admin/games/game/{copy.pk}/change/").content.decode()
    assert "Copy of" in page and f'href="/admin/games/game/{game.pk}/change/"' in page


@pytest.mark.parametrize(
    "field, value",
    [("kind", "tictactoe"), ("options", '{"rows": 2}'), ("status", "30"), ("ai_level", "nonsense")],
)
def test_admin_cannot_change_what_the_replay_needs(client: Client, field: str, value: str) -> None:
    game = human_first_vs_ai()
    services.play_move(game.pk, services.Actor(player_id="s-human"), "15", 0)
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    url = f"/admin/games/game/{game.pk}/change/"
    data = browser_post_data(client.get(url).content.decode(), "game_form")
    assert field not in data  # shown, not a form field
    before = (game.kind, game.options, game.ai_level, game.status)
    data[field] = [value]
    assert client.post(url, data).status_code == 302
    game.refresh_from_db()
    assert (game.kind, game.options, game.ai_level, game.status) == before
    assert game.status == Game.Status.PLAYING
    assert client.get(f"/games/{game.pk}/").status_code == 200

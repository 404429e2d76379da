"""The API's edges answer in its JSON error shape: its root, and hosts it does not serve."""

from __future__ import annotations

import pytest
from django.test import Client

from ..kinds import KINDS
from .api_helpers import error_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_root_is_a_json_404(client: Client) -> None:
    response = client.get("/api/v1/")
    assert response["Content-Type"] == "application/json"
    assert error_of(response) == (404, "not_found") and "/api/v1/docs" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/api/v1/games/%0A/join", "/api/v1/%0A", "/api/v1/nothing/here"])
def test_any_other_api_path_is_a_json_404_a_newline_in_it_too(client: Client, path: str) -> None:
    response = client.post(path)
    assert response["Content-Type"] == "application/json"
    assert error_of(response) == (404, "not_found")


@pytest.mark.parametrize("path", ["/api/v1/games/1", "/api/v1/", "/api/v1/games", "/api/other"])
def test_a_host_that_is_not_served_is_a_json_400_under_api(client: Client, path: str) -> None:
    response = client.get(path, HTTP_HOST="evil.example")
    assert response["Content-Type"] == "application/json"
    assert error_of(response) == (400, "bad_host")


def test_a_host_that_is_not_served_is_a_page_elsewhere(client: Client) -> None:
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400 and "application/json" not in response["Content-Type"]


def test_pages_and_the_api_carry_a_strict_content_security_policy(client: Client) -> None:
    for path in ("/", "/api/v1/games/1"):
        policy = client.get(path)["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
        assert directives["default-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
        assert "unsafe" not in policy


@pytest.mark.parametrize("kind", KINDS)
def test_game_pages_have_no_inline_style_or_script(client: Client, kind: str) -> None:
    from games.services import moves as services

    game = services.create_game(kind, {}, opponent="human", seat="first", player_id="p").game
    html = client.get(game.get_absolute_url()).content.decode()
    assert " style=" not in html and "<style" not in html
    assert "<script>" not in html and "<script " not in html.replace("<script src=", "")
    assert '"includeIndicatorStyles": false' in html

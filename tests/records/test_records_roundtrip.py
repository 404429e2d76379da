"""Records through the site: download from the page and the API, import, replay.

The round trip runs for every game in the registry, so each game is covered once it
is registered.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from games.formats import records
from games.models import Game
from games.services import moves as services

from ..kinds import KINDS

pytestmark = pytest.mark.django_db(transaction=True)

Response = Any


def played_game(kind: str, seed: int, stop_after: int | None = None) -> Game:
    """A game between people, played with random legal actions (to the end by default)."""
    created = services.create_game(kind, {}, opponent="human", seat="first", with_token=True)
    assert created.token is not None and created.seat is not None
    actors = {created.seat: services.Actor(token=created.token)}
    game = created.game
    for _ in range(game.state.num_players - 1):
        seat, token = services.join_game(game.pk, invite=game.invite_code, with_token=True)
        actors[seat] = services.Actor(token=token)
    rng = random.Random(seed)
    game.refresh_from_db()
    while not game.is_finished and (stop_after is None or game.ply < stop_after):
        state = game.state
        game = services.play_move(
            game.pk, actors[state.to_move], str(rng.choice(state.legal_moves())), game.ply
        )
    return Game.objects.get(pk=game.pk)


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v for k, v in state.items() if k not in ("id", "seats", "revision", "now")
    }  # the row, not the position


def import_body(client: Client, body: str, content_type: str = "application/json") -> Response:
    """A record object as it is; a text record goes as a JSON string."""
    if content_type == "text":
        body, content_type = json.dumps(body), "application/json"
    return client.post("/api/v1/records", body, content_type=content_type)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("finished", [True, False])
def test_export_import_round_trip(client: Client, kind: str, fmt: str, finished: bool) -> None:
    original = played_game(kind, seed=3, stop_after=None if finished else 5)
    download = client.get(f"/api/v1/games/{original.pk}/record?format={fmt}")
    assert download.status_code == 200
    assert (
        download["Content-Disposition"]
        == f'attachment; filename="{kind}-{original.pk}.{"txt" if fmt == "text" else "json"}"'
    )
    content_type = "application/json" if fmt == "json" else "text"
    response = import_body(client, download.content.decode(), content_type)
    assert response.status_code == 201, response.content
    body = response.json()
    before = client.get(f"/api/v1/games/{original.pk}").json()
    assert comparable(body["state"]) == comparable(before)
    imported = Game.objects.get(pk=body["id"])
    assert imported.move_texts == original.move_texts and imported.status == original.status
    assert imported.result == original.result and imported.winner == original.winner
    # Exported again, the record is the same (but for the date).
    again = client.get(f"/api/v1/games/{imported.pk}/record?format={fmt}").content.decode()
    assert records.load(again)[0] == records.load(download.content.decode())[0]


def test_an_unfinished_import_can_be_played_on_with_its_token(client: Client) -> None:
    text = '[Game "quarto"]\n[Players "Ann; Bob"]\n\n1. 8 2. a1\n'
    body = import_body(client, text, "text").json()
    assert body["state"]["status"] == "playing" and body["state"]["to_move"] == 1
    assert [s["label"] for s in body["state"]["seats"]] == ["Ann", "Bob"]
    moved = client.post(
        f"/api/v1/games/{body['id']}/moves",
        {"move": "3", "ply": 2},
        content_type="application/json",
        headers={"Authorization": f"Bearer {body['token']}"},
    )
    assert moved.status_code == 200 and moved.json()["moves"] == ["8", "a1", "3"]


def test_a_record_sent_as_a_json_string_is_read_as_text(client: Client) -> None:
    text = '[Game "quarto"]\n\n1. 8\n'
    response = import_body(client, json.dumps(text), "application/json")
    assert response.status_code == 201 and response.json()["state"]["moves"] == ["8"]


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ('[Game "quarto"]\n\n1. 8\n2. a1\n3. 9\n4. a1\n', "line 6: a1: a1 is already taken."),
        ("", "line 1: the record has no [Game"),
        ("\xff", "line 1: the record has no [Game"),
        ('{"game": "quarto", "moves": ["8", "8"]}', "move 2: 8: Place"),
    ],
)
def test_a_bad_record_is_400_with_line_and_reason(client: Client, body: str, detail: str) -> None:
    response = import_body(client, body, "application/json" if body.startswith("{") else "text")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_record" and response.json()["detail"].startswith(detail)
    assert Game.objects.count() == 0


def test_a_record_that_is_not_utf8_is_refused(client: Client) -> None:
    response = client.post("/api/v1/records", b"\xff\xfe[Game", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == "bad_record"


def test_a_record_over_the_size_limit_is_413(client: Client, settings: Any) -> None:
    settings.API_MAX_RECORD = 50
    response = import_body(client, '[Game "quarto"]\n' + "; padding\n" * 10, "text")
    assert response.status_code == 413 and response.json()["error"] == "too_large"


def test_unknown_record_format_is_400(client: Client) -> None:
    game = played_game("quarto", seed=1, stop_after=2)
    response = client.get(f"/api/v1/games/{game.pk}/record?format=pgn")
    assert response.status_code == 400 and response.json()["error"] == "bad_format"


def test_game_page_links_both_downloads(client: Client) -> None:
    game = played_game("quarto", seed=1)
    html = client.get(game.get_absolute_url()).content.decode()
    assert f'href="/games/{game.pk}/record"' in html and f'href="/games/{game.pk}/record?format=json"' in html
    text = client.get(f"/games/{game.pk}/record")
    assert text["Content-Type"] == "text/plain; charset=utf-8"
    assert records.load(text.content.decode())[0].moves == tuple(game.move_texts)
    as_json = client.get(f"/games/{game.pk}/record?format=json").json()
    assert as_json["moves"] == game.move_texts and as_json["result"] in ("1-0", "0-1", "1/2-1/2")
    assert client.get(f"/games/{game.pk}/record?format=pgn").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        '{"game": "quarto", "options": ' + "[" * 3000 + "]" * 3000 + "}",
        "[" * 3000 + "]" * 3000,
        '"' + '[Game \\"quarto\\"]\\n[Options \\"' + "[" * 3000 + "]" * 3000 + '\\"]\\n"',
    ],
    ids=["json-record", "json-array", "text-record-as-json-string"],
)
def test_json_nested_thousands_deep_is_a_400_bad_record(client: Client, body: str) -> None:
    response = import_body(client, body, "application/json")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "bad_record" and "\n" not in response.json()["detail"]
    assert Game.objects.count() == 0

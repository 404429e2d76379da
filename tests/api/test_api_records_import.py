"""POST /api/v1/records: what an imported record may not carry."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Game

from .api_helpers import auth, create, error_of, move, post

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_number_of_thousands_of_digits_is_a_bad_record(client: Client) -> None:
    record = '[Game "quarto"]\n\n' + "9" * 4301 + ". 8\n"
    response = post(client, "/api/v1/records", json.dumps(record))
    assert error_of(response) == (400, "bad_record")
    detail = response.json()["detail"]
    assert detail.startswith("line 3:") and "does not match" in detail and len(detail) < 200
    assert Game.objects.count() == 0


def test_a_number_with_leading_zeros_still_counts(client: Client) -> None:
    response = post(client, "/api/v1/records", json.dumps('[Game "quarto"]\n\n01. 8 002. a1\n'))
    assert response.status_code == 201 and Game.objects.get().ply == 2


def _record_of(client: Client, game_id: int) -> str:
    response = client.get(f"/api/v1/games/{game_id}/record")
    assert response.status_code == 200
    return response.content.decode()


def test_a_copy_of_a_game_in_play_is_marked_as_one(client: Client) -> None:
    created = create(client, game="tictactoe", opponent="human", level=None, allow_hints=False)
    game, one = created["id"], created["token"]
    two = post(client, f"/api/v1/games/{game}/join", {"invite": created["invite"]}).json()["token"]
    assert move(client, game, "a1", 0, one).status_code == 200
    assert move(client, game, "b2", 1, two).status_code == 200
    imported = post(client, "/api/v1/records", json.dumps(_record_of(client, game)))
    assert imported.status_code == 201, imported.content
    copy = Game.objects.get(pk=imported.json()["id"])
    assert copy.copy_of_id == game
    # The copy's analysis is open (hints off binds the players of the game, not its position).
    analysis = client.get(f"/api/v1/games/{copy.pk}/analysis", headers=auth(imported.json()["token"]))
    assert analysis.status_code in (200, 501), analysis.content


def test_a_copy_of_a_finished_game_or_a_new_record_is_not_marked(client: Client) -> None:
    created = create(client, game="tictactoe", opponent="human", level=None)
    game, one = created["id"], created["token"]
    two = post(client, f"/api/v1/games/{game}/join", {"invite": created["invite"]}).json()["token"]
    assert move(client, game, "a1", 0, one).status_code == 200
    record = _record_of(client, game)
    assert post(client, f"/api/v1/games/{game}/resign?ply=1", token=two).status_code == 200
    again = post(client, "/api/v1/records", json.dumps(record))
    assert Game.objects.get(pk=again.json()["id"]).copy_of_id is None
    fresh = post(client, "/api/v1/records", json.dumps('[Game "tictactoe"]\n\n1. c3\n'))
    assert Game.objects.get(pk=fresh.json()["id"]).copy_of_id is None


def test_a_record_from_a_position_is_imported_as_actions_from_the_start(client: Client) -> None:
    record = '[Game "quarto"]\n[Position "0a../..3./..../.... 5 1"]\n\n1. b1 2. 7\n'
    response = post(client, "/api/v1/records", json.dumps(record))
    assert response.status_code == 201, response.content
    assert response.json()["state"]["moves"] == ["3", "c3", "0", "a4", "10", "b4", "5", "b1", "7"]
    bad = post(
        client, "/api/v1/records", json.dumps('[Game "quarto"]\n[Position "..../..../..../.... - 2"]\n')
    )
    assert error_of(bad) == (400, "bad_record") and bad.json()["detail"].startswith("line 2:")
    assert Game.objects.count() == 1

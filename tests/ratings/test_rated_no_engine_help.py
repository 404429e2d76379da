"""No engine help in a rated game until it ends: no hint on the page, no analysis in the API
(nor of an imported copy), no takeback against the computer; between people a takeback
still needs the other's consent. Once the game is over, analysis and review are open."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import account_of, create_token
from games import catalog
from games import spec as game_spec
from games.ai.base import ActionValue
from games.models import Game, Move
from games.runner import turns
from games.services import actions
from games.services import moves as services
from games.services.moves import Actor, ServiceError
from lobby import services as lobby
from lobby.seekers import of_account
from tests.ratings.helpers import BLITZ, new_account, rated_game

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def measured(monkeypatch: pytest.MonkeyPatch) -> None:
    """The club level's rating established, and an analysis that answers at once."""
    monkeypatch.setattr(
        game_spec,  # where GameSpec reads the measured ratings
        "level_ratings",
        lambda path=None: {"tictactoe": {"club": catalog.LevelRating(1450.0, 60.0, 200)}},
    )

    def analyse(kind: str, state: Any, budget: float) -> list[ActionValue]:
        return [ActionValue(m, None, False, score=0.0) for m in state.legal_moves()]

    monkeypatch.setattr(catalog, "analyse", analyse)


def rated_page_game(client: Client) -> Game:
    client.force_login(User.objects.create_user("alice"))
    data = {"kind": "tictactoe", "opponent": "ai", "level": "club", "seat": "first", "clock": "3+2"}
    answer = client.post("/games/new", {**data, "rated": "on", "allow_hints": "on", "allow_takebacks": "on"})
    assert answer.status_code == 303
    return Game.objects.get()


def test_the_forms_say_a_rated_game_has_no_engine_help(client: Client) -> None:
    client.force_login(User.objects.create_user("alice"))
    assert (
        "A rated game has no hints, no analysis and no takebacks until it ends."
        in client.get("/").content.decode()
    )
    assert "A rated game has no hints and no analysis until it ends" in client.get("/lobby/").content.decode()


def test_a_rated_game_on_the_page_has_no_hint_nor_takeback_until_it_ends(
    client: Client, no_ai_reply: Any
) -> None:
    game = rated_page_game(client)
    assert game.rated and not game.allow_hints, "a rated game has hints off, whatever the form asked"
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"/games/{game.pk}/hint" not in page
    Game.objects.filter(pk=game.pk).update(allow_hints=True)  # a rated game from before: the rule holds
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"/games/{game.pk}/hint" not in page
    hint = client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    assert "A rated game gives no hints" in hint and "hint--" not in hint
    # A move, the computer's reply, and no takeback offered nor granted.
    assert client.post(f"/games/{game.pk}/move", {"move": "b2", "ply": "0"}).status_code in (302, 303)
    job = turns.load_job(game.pk)
    assert job is not None and turns.apply(job, "a1")
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"/games/{game.pk}/takeback" not in page
    client.post(f"/games/{game.pk}/takeback", {"answer": "yes", "ply": "2"})
    assert Move.objects.filter(game=game).count() == 2, "nothing taken back"
    client.post(f"/games/{game.pk}/resign", {"ply": "2"})
    assert Game.objects.get(pk=game.pk).is_finished
    assert client.get(f"/games/{game.pk}/review", follow=True).status_code == 200
    assert client.get(f"/api/v1/games/{game.pk}/analysis?ply=1").status_code == 200, "open once it is over"


def test_a_rated_game_in_the_api_has_no_analysis_nor_takeback_until_it_ends(
    client: Client, no_ai_reply: Any
) -> None:
    account = account_of(User.objects.create_user("robot"))
    assert account is not None
    auth = {"Authorization": f"Bearer {create_token(account, 'bot')}"}
    body = {"game": "tictactoe", "level": "club", "seat": "first", "clock": BLITZ, "rated": True}
    made = client.post("/api/v1/games", body, content_type="application/json", headers=auth).json()
    assert Game.objects.get(pk=made["id"]).allow_hints is False
    game_id = made["id"]
    analysis = client.get(f"/api/v1/games/{game_id}/analysis", headers=auth)
    assert (analysis.status_code, analysis.json()["error"]) == (403, "rated")
    played = client.post(
        f"/api/v1/games/{game_id}/moves",
        {"move": "b2", "ply": 0},
        content_type="application/json",
        headers=auth,
    )
    assert played.status_code == 200
    taken = client.post(
        f"/api/v1/games/{game_id}/takeback/yes", content_type="application/json", headers=auth
    )
    assert (taken.status_code, taken.json()["error"]) == (403, "not_allowed")
    assert client.get(f"/api/v1/games/{game_id}").json()["allow_takebacks"] is False  # says what it does
    # An imported copy of the game in play is no way round it.
    record = client.get(f"/api/v1/games/{game_id}/record?format=json").json()
    copy = client.post("/api/v1/records", json.dumps(record), content_type="application/json").json()
    assert Game.objects.get(pk=copy["id"]).copy_of_id == game_id
    copy_auth = {"Authorization": f"Bearer {copy['token']}"}
    refused = client.get(f"/api/v1/games/{copy['id']}/analysis", headers=copy_auth)
    assert (refused.status_code, refused.json()["error"]) == (403, "rated")
    resigned = client.post(f"/api/v1/games/{game_id}/resign", content_type="application/json", headers=auth)
    assert resigned.status_code == 200
    assert client.get(f"/api/v1/games/{game_id}/analysis?ply=1", headers=auth).status_code == 200
    copy_analysis = client.get(f"/api/v1/games/{copy['id']}/analysis", headers=copy_auth)
    assert copy_analysis.status_code == 200, "the copy's analysis opens when the rated game ends"


def test_a_takeback_against_the_computer_in_a_rated_game_is_refused_by_the_service(no_ai_reply: Any) -> None:
    alice = new_account("alice")
    me = Actor(player_id=alice.player_id)
    game = rated_game(alice.player_id, opponent="ai", level="club")
    services.play_move(game.pk, me, "b2", 0)
    with pytest.raises(ServiceError) as refused:
        actions.takeback(game.pk, me, True, None)
    assert (refused.value.code, refused.value.status) == ("not_allowed", 403)
    assert Game.objects.get(pk=game.pk).ply == 1


def test_a_rated_lobby_game_has_hints_off_and_a_takeback_needs_consent(no_ai_reply: Any) -> None:
    users = [User.objects.create_user(name) for name in ("alice", "bob")]
    alice, bob = (of_account(account_of(user), address="10.0.0.1") for user in users)
    made = lobby.create_seek(alice, "tictactoe", clock=BLITZ, rated=True, seat="first")
    game = lobby.accept_seek(made.seek.pk, bob).game
    assert game.rated and not game.allow_hints
    first, second = Actor(player_id=alice.player_id), Actor(player_id=bob.player_id)
    services.play_move(game.pk, first, "b2", 0)
    actions.takeback(game.pk, first, True, None)
    assert Game.objects.get(pk=game.pk).ply == 1, "asked, not granted"
    actions.takeback(game.pk, second, True, None)
    assert Game.objects.get(pk=game.pk).ply == 0, "granted by the other"
    casual = lobby.accept_seek(lobby.create_seek(alice, "tictactoe", clock=BLITZ).seek.pk, bob).game
    assert casual.allow_hints, "a casual seek keeps hints as before"

"""The computer's levels' measured ratings: shown in the catalog, and rated games for an
account against an established level."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import account_of
from games import catalog
from games import spec as game_spec
from games.models import Game
from games.runner import turns
from games.services import actions
from games.services import moves as services
from games.services.moves import Actor, ServiceError
from ratings.models import Rating, RatingChange
from tests import kinds
from tests.ratings.helpers import new_account, rated_game

MEASURED = {
    "tictactoe": {
        "club": catalog.LevelRating(1450.0, 60.0, 200),
        "beginner": catalog.LevelRating(900.0, 150.0, 10),
    }
}


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_spec, "level_ratings", lambda path=None: MEASURED)  # where GameSpec reads it


def test_the_ratings_file_is_read_and_a_missing_or_bad_one_means_no_ratings(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"quarto": {"club": {"rating": 1580, "rd": 90, "games": 150}}}))
    assert catalog.level_ratings(good) == {"quarto": {"club": catalog.LevelRating(1580.0, 90.0, 150)}}
    assert catalog.level_ratings(tmp_path / "missing.json") == {}
    bad = tmp_path / "bad.json"
    bad.write_text('{"quarto": {"club": {"rating": "x"}}}')
    assert catalog.level_ratings(bad) == {}


def test_levels_are_labelled_with_their_rating_once_established(measured: None) -> None:
    spec = catalog.get("tictactoe")
    assert spec.level_label("club") == "club, about 1450"
    assert spec.level_label("beginner") == "beginner", "not established: no number"
    assert spec.level_label("perfect") == "perfect", "never measured"


@pytest.mark.django_db
def test_the_new_game_form_shows_the_labels(measured: None, client: Client) -> None:
    assert ">club, about 1450</option>" in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_rated_game_against_an_established_level_rates_the_account_once(
    measured: None, no_ai_reply: None
) -> None:
    alice = new_account("alice")
    game = rated_game(alice.player_id, opponent="ai", level="club")
    services.play_move(game.pk, Actor(player_id=alice.player_id), "a1", 0)
    job = turns.load_job(game.pk)  # the computer's answer, played here (each side moves)
    assert job is not None and turns.apply(job, job.compute())
    actions.resign(game.pk, Actor(player_id=alice.player_id), None)
    [change] = RatingChange.objects.all()
    assert (change.seat, change.score, change.user_id) == (0, 0.0, alice.user.pk)
    assert change.after < 1500
    assert Rating.objects.get().games == 1


@pytest.mark.django_db
def test_rated_play_needs_an_established_level_and_an_account(measured: None, no_ai_reply: Any) -> None:
    for level in ("beginner", "perfect"):
        with pytest.raises(ServiceError) as refused:
            services.create_game(
                "tictactoe", {}, opponent="ai", level=level, player_id="p", clock={"initial": 60}, rated=True
            )
        assert (refused.value.code, refused.value.field) == ("level_not_rated", "level")
    anonymous = services.create_game(
        "tictactoe",
        {},
        opponent="ai",
        level="club",
        seat="first",
        player_id="anon",
        clock={"initial": 60},
        rated=True,
    ).game
    actions.resign(anonymous.pk, Actor(player_id="anon"), None)
    assert Game.objects.get(pk=anonymous.pk).is_finished and RatingChange.objects.count() == 0


def post(client: Client, **fields: str) -> Any:
    data = {
        "kind": "tictactoe",
        "opponent": "ai",
        "level": "club",
        "seat": "first",
        "clock": "3+2",
        "rated": "on",
    }
    return client.post("/games/new", {**data, **fields})


@pytest.mark.django_db
def test_the_home_page_makes_rated_games_against_the_computer_for_accounts(
    measured: None, client: Client, no_ai_reply: Any
) -> None:
    page = post(client).content.decode()
    assert "Log in to play rated games." in page and Game.objects.count() == 0
    client.force_login(User.objects.create_user("alice"))
    assert "Rated against the computer" in client.get("/").content.decode()
    refused = post(client, clock="unlimited").content.decode()
    assert 'id="tictactoe-clock-error"' in refused and "A rated game needs a clock." in refused
    refused = post(client, level="beginner").content.decode()
    assert 'id="tictactoe-level-error"' in refused and "no established rating" in refused
    assert 'name="rated" checked' in refused, "the input is kept"
    refused = post(client, opponent="human").content.decode()
    assert "made in the lobby" in refused
    assert Game.objects.count() == 0
    answer = post(client)
    assert answer.status_code == 303
    game = Game.objects.get()
    assert game.rated and game.ai_level == "club" and game.clock == {"initial": 180, "increment": 2}


@pytest.mark.django_db
def test_bots_play_rated_against_the_computer_through_the_api(
    measured: None, client: Client, no_ai_reply: Any
) -> None:
    from accounts.services import create_token

    body = {"game": "tictactoe", "level": "club", "seat": "first", "clock": {"initial": 180}, "rated": True}
    anonymous = client.post("/api/v1/games", body, content_type="application/json")
    assert (anonymous.status_code, anonymous.json()["error"]) == (400, "rated_needs_account")
    account = account_of(User.objects.create_user("robot"))
    assert account is not None
    auth = {"Authorization": f"Bearer {create_token(account, 'bot')}"}
    for change, code in (
        ({"opponent": "human"}, "rated_in_lobby"),
        ({"clock": None}, "rated_needs_clock"),
        ({"level": "beginner"}, "level_not_rated"),
    ):
        refused = client.post(
            "/api/v1/games", {**body, **change}, content_type="application/json", headers=auth
        )
        assert (refused.status_code, refused.json()["error"]) == (400, code)
    assert Game.objects.count() == 0
    made = client.post("/api/v1/games", body, content_type="application/json", headers=auth)
    assert made.status_code == 201 and made.json()["state"]["rated"] is True
    seats = made.json()["state"]["seats"]
    assert seats[1]["rating"] == {"rating": 1450, "provisional": False, "change": None}, "the level's rating"


def test_each_game_package_holds_its_own_levels_ratings(tmp_path: Path) -> None:
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "level_ratings.json").write_text(
        json.dumps({"club": {"rating": 1200, "rd": 80, "games": 60}})
    )
    (tmp_path / "other").mkdir()  # a game never measured
    assert catalog.level_ratings(tmp_path) == {"toy": {"club": catalog.LevelRating(1200.0, 80.0, 60)}}
    # every game with a computer player has its levels measured
    assert set(catalog.level_ratings()) == set(kinds.WITH_PLAYER)

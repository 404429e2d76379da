"""Abandonment: a player gone long enough may be claimed against; unclaimed, the game closes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.formats import records
from games.models import Game, Seat
from games.presenting import downloads, presenters
from games.services import abandonment, policy
from games.services import moves as services
from games.services.moves import Actor, ServiceError, play_move

from .helpers import ONE, TWO, human_first_vs_ai, two_humans

pytestmark = pytest.mark.django_db(transaction=True)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def gone_for(game: Game, seat: int, seconds: float) -> None:
    Seat.objects.filter(game=game, index=seat).update(left_at=timezone.now() - timedelta(seconds=seconds))


def refused(code: str, *args: Any) -> None:
    with pytest.raises(ServiceError) as caught:
        abandonment.claim(*args)
    assert caught.value.code == code


def test_no_claim_before_the_opponent_has_been_gone_long_enough(settings: Any) -> None:
    settings.ABANDON_AFTER = 60
    game = two_humans()
    refused("not_abandoned", game.pk, ONE, "win", 0)
    abandonment.seats_left(game.pk, [1])
    refused("not_abandoned", game.pk, ONE, "win", 0)  # just left
    gone_for(game, 1, 61)
    refused("not_your_seat", game.pk, Actor(player_id="nobody"), "win", 0)
    refused("stale", game.pk, ONE, "win", 5)
    refused("not_abandoned", game.pk, TWO, "win", 0)  # the one who left cannot claim
    assert abandonment.seats_back(game.pk, [1]) == 1  # came back (after it could be claimed): no claim
    refused("not_abandoned", game.pk, ONE, "win", 0)
    assert fresh(game).status == Game.Status.PLAYING


def test_claim_the_win_and_the_record_says_abandoned(settings: Any) -> None:
    settings.ABANDON_AFTER = 60
    game = two_humans()
    play_move(game.pk, ONE, "8", 0)
    gone_for(game, 1, 61)
    assert policy.gone_seats(fresh(game)) == [1]
    html = presenters.render_partials(fresh(game), ONE)
    assert "Claim the win" in html and "Player 2 left the game." in html
    assert "Claim the win" not in presenters.render_partials(fresh(game), Actor())
    abandonment.claim(game.pk, ONE, "win", 1)
    game = fresh(game)
    assert (game.status, game.winner, game.reason) == (Game.Status.WON, 0, "abandoned")
    data = downloads.game_json(game)
    assert (data["status"], data["reason"], data["result"]["abandoned"]) == ("finished", "abandoned", [1])
    record = downloads.game_record(game)
    assert (record.result, record.termination) == ("1-0", "abandoned")
    assert "left: you win" in presenters.render_partials(game, ONE)
    refused("game_over", game.pk, ONE, "win", 1)  # a repeat applies once


def test_a_move_after_leaving_means_the_player_is_still_there(settings: Any) -> None:
    settings.ABANDON_AFTER = 60
    game = two_humans()
    gone_for(game, 0, 61)
    play_move(game.pk, ONE, "8", 0)  # over HTTP, with no page open
    refused("not_abandoned", game.pk, TWO, "draw", 1)


def test_claim_a_draw(settings: Any) -> None:
    settings.ABANDON_AFTER = 60
    game = two_humans()
    gone_for(game, 0, 120)
    abandonment.claim(game.pk, TWO, "draw", 0)
    game = fresh(game)
    assert (game.status, game.winner, game.reason) == (Game.Status.DRAWN, None, "abandoned")
    assert downloads.game_record(game).result == "1/2-1/2"


def test_the_computer_never_claims_and_its_games_are_never_closed(settings: Any) -> None:
    settings.ABANDON_AFTER = 1
    settings.ABANDON_CLOSE_AFTER = 2
    game = human_first_vs_ai()
    gone_for(game, 0, 3600)
    assert policy.gone_seats(fresh(game)) == []
    refusal = policy.claim_refusal(fresh(game), Actor(player_id="s-human"))
    assert (
        refusal is not None
        and refusal.code == "not_abandoned"
        and "the computer never leaves" in refusal.message
    )
    assert abandonment.close_abandoned() == []
    assert fresh(game).status == Game.Status.PLAYING


def test_unclaimed_games_are_closed_after_the_longer_time(settings: Any) -> None:
    settings.ABANDON_AFTER = 60
    settings.ABANDON_CLOSE_AFTER = 600
    waiting, closing = two_humans(), two_humans()
    gone_for(waiting, 1, 300)
    gone_for(closing, 1, 601)
    assert abandonment.close_abandoned() == [closing.pk]
    closed = fresh(closing)
    assert (closed.status, closed.winner, closed.reason, closed.is_finished) == (
        Game.Status.ABANDONED,
        None,
        "abandoned",
        True,
    )
    assert fresh(waiting).status == Game.Status.PLAYING
    data = downloads.game_json(closed)
    assert (data["status"], data["reason"]) == ("abandoned", "abandoned")
    record = downloads.game_record(closed)
    assert (record.result, record.termination) == ("*", "abandoned")
    records.check(records.parse_text(records.format_text(record)))  # reads back
    assert "nobody claimed the game" in presenters.render_partials(closed, ONE)
    assert abandonment.close_abandoned() == []


def test_claim_over_the_api_and_the_schema(client: Client, settings: Any) -> None:
    settings.ABANDON_AFTER = 60
    created = client.post(
        "/api/v1/games", {"game": "quarto", "opponent": "human"}, content_type="application/json"
    ).json()
    joined = client.post(
        f"/api/v1/games/{created['id']}/join", {"invite": created["invite"]}, content_type="application/json"
    ).json()
    url = f"/api/v1/games/{created['id']}/claim/win?ply=0"
    auth = {"Authorization": f"Bearer {created['token']}"}
    early = client.post(url, content_type="application/json", headers=auth)
    assert (early.status_code, early.json()["error"]) == (409, "not_abandoned")
    game = Game.objects.get(pk=created["id"])
    gone_for(game, joined["seat"], 61)
    assert client.get(f"/api/v1/games/{game.pk}").json()["seats"][joined["seat"]]["left_at"]
    done = client.post(url, content_type="application/json", headers=auth)
    assert done.status_code == 200, done.content
    assert (done.json()["reason"], done.json()["result"]["winner"]) == ("abandoned", created["seat"])
    schema = client.get("/api/v1/openapi.json").json()
    assert "/api/v1/games/{game_id}/claim/{outcome}" in schema["paths"]


@pytest.mark.parametrize(
    ("result", "termination", "status", "winner"),
    [
        ("0-1", "resigned", Game.Status.WON, 1),
        ("1/2-1/2", "agreed", Game.Status.DRAWN, None),
        ("1-0", "abandoned", Game.Status.WON, 0),
        ("*", "abandoned", Game.Status.ABANDONED, None),
    ],
)
def test_an_imported_record_keeps_how_people_ended_it(
    result: str, termination: str, status: int, winner: int | None
) -> None:
    game = services.import_game("quarto", {}, ["8", "a1", "0"], result=result, termination=termination).game
    game = fresh(game)
    assert (game.status, game.winner, game.reason, game.is_finished) == (status, winner, termination, True)
    record = downloads.game_record(game)
    assert (record.result, record.termination) == (result, termination)

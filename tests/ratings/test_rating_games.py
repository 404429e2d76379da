"""Rated games change ratings once, in the transaction that ends them."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games.models import Game
from games.services import actions, timeouts
from games.services import moves as services
from games.services.moves import Actor, ServiceError, play_move
from ratings import services as ratings
from ratings.models import Rating, RatingChange
from tests.ratings.helpers import new_account, rated_game


def accounts_game(
    clock: dict[str, Any] | None = None, rated: bool = True, kind: str = "tictactoe"
) -> tuple[Game, Actor, Actor]:
    alice, bob = new_account("alice"), new_account("bob")
    game = rated_game(alice.player_id, kind, clock=clock, rated=rated)
    services.join_game(game.pk, invite=game.invite_code, player_id=bob.player_id)
    return Game.objects.get(pk=game.pk), Actor(player_id=alice.player_id), Actor(player_id=bob.player_id)


def play(game: Game, actor: Actor, text: str) -> Game:
    game.refresh_from_db()
    return play_move(game.pk, actor, text, game.ply)


def started(game: Game) -> Game:
    """``game`` after each side's first move (a1, b1): a rated game ended sooner is aborted."""
    for seat, text in zip(game.seat_list, ("a1", "b1"), strict=True):
        game = play(game, Actor(player_id=seat.player_id), text)
    return game


@pytest.mark.django_db
def test_a_rated_game_rates_both_accounts_once() -> None:
    game, alice, bob = accounts_game()
    for actor, text in ((alice, "a1"), (bob, "b1"), (alice, "a2"), (bob, "b2"), (alice, "a3")):
        game = play(game, actor, text)
    assert game.winner == 0
    changes = {c.user.username: c for c in RatingChange.objects.select_related("user")}
    assert changes["alice"].after > 1500 > changes["bob"].after
    assert changes["alice"].speed == "blitz" and changes["alice"].kind == "tictactoe"
    rating = Rating.objects.get(user__username="alice")
    assert (rating.games, round(rating.rating)) == (1, round(changes["alice"].after))
    assert rating.shown.endswith("?"), "provisional after one game"
    ratings.game_ended(Game.objects.get(pk=game.pk))  # the end seen again
    assert RatingChange.objects.count() == 2 and Rating.objects.get(user__username="alice").games == 1


@pytest.mark.django_db
def test_draws_resignations_and_time_count(fake_clock: Any) -> None:
    game, alice, bob = accounts_game()
    play(game, alice, "a1")
    play(game, bob, "b1")
    fake_clock.advance(181)
    timeouts.sweep()
    assert Game.objects.get(pk=game.pk).reason == Game.Reason.TIMEOUT
    assert RatingChange.objects.get(user__username="bob").score == 1.0


@pytest.mark.django_db
def test_what_is_never_rated(fake_clock: Any, settings: Any) -> None:
    casual, alice, _ = accounts_game(rated=False)
    actions.resign(casual.pk, alice, 0)
    User.objects.all().delete()
    aborted, _, _ = accounts_game()
    fake_clock.advance(settings.CLOCK_FIRST_MOVE + 1)
    assert timeouts.sweep() == [aborted.pk]
    assert Game.objects.get(pk=aborted.pk).status == Game.Status.ABORTED
    anonymous = services.create_game(
        "tictactoe", {}, opponent="human", player_id="anon-1", clock={"initial": 60}, rated=True
    ).game
    services.join_game(anonymous.pk, invite=anonymous.invite_code, player_id="anon-2")
    actions.resign(anonymous.pk, Actor(player_id="anon-1"), 0)
    assert RatingChange.objects.count() == 0 and Rating.objects.count() == 0
    with pytest.raises(ServiceError) as refused:
        services.create_game("tictactoe", {}, opponent="human", player_id="p", rated=True)
    assert refused.value.code == "rated_needs_clock"


@pytest.mark.django_db(transaction=True)
@pytest.mark.backends
def test_a_game_ended_twice_at_once_is_rated_once(fake_clock: Any) -> None:
    """The sweep and a late move (and a resignation) at the same moment: one end, one rating."""
    for attempt in range(3):
        User.objects.all().delete()
        game, alice, bob = accounts_game()
        play(game, alice, "a1")
        play(game, bob, "b1")
        fake_clock.advance(181)
        outcomes = race(
            [
                timeouts.sweep,
                lambda g=game.pk, a=alice: play_move(g, a, "a2", 2),
                lambda g=game.pk, b=bob: actions.resign(g, b, 2),
            ]
        )
        game.refresh_from_db()
        assert (game.reason, game.winner) == (Game.Reason.TIMEOUT, 1), outcomes
        assert RatingChange.objects.filter(game=game).count() == 2, f"attempt {attempt}: {outcomes}"
        assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1]


def race(jobs: list[Any]) -> list[str]:
    """Run ``jobs`` in threads released at once; what each answered."""
    start = threading.Barrier(len(jobs))
    outcomes: list[str] = []

    def run(job: Any) -> None:
        start.wait()
        try:
            job()
            outcomes.append("done")
        except ServiceError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db
def test_voiding_a_cheaters_games_gives_the_opponents_their_points_back() -> None:
    game, _, bob = accounts_game()
    actions.resign(started(game).pk, bob, 2)
    bob_before = RatingChange.objects.get(user__username="bob")
    cheater = User.objects.get(username="alice")
    assert ratings.void_games_of(cheater.pk) == 1
    bob_rating = Rating.objects.get(user__username="bob")
    assert bob_rating.rating == pytest.approx(1500) and bob_before.delta < 0
    assert Rating.objects.get(user=cheater).rating == pytest.approx(1500)
    assert RatingChange.objects.filter(voided=None).count() == 0
    assert ratings.void_games_of(cheater.pk) == 0, "once"
    ratings.reset(bob_rating)
    assert Rating.objects.get(pk=bob_rating.pk).rd == 500

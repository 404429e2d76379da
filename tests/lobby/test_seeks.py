"""Seeks: every refusal, accepting (one game for two accepts), cancelling, the sweep."""

from __future__ import annotations

import random
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game
from games.services.moves import Actor, ServiceError, play_move
from lobby import changes
from lobby import rating as lobby_rating
from lobby import services as lobby
from lobby.models import Seek

from .helpers import BLITZ, account, api_client, browser

pytestmark = pytest.mark.django_db


def refusal(call: Any, *args: Any, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_a_seek_accepted_makes_a_game_with_both_seated() -> None:
    alice, bob = browser("alice"), browser("bob")
    made = lobby.create_seek(alice, "tictactoe", {}, clock=BLITZ, seat="first")
    taken = lobby.accept_seek(made.seek.pk, bob)
    game = Game.objects.get(pk=taken.game.pk)
    assert game.status == Game.Status.PLAYING and game.clock == BLITZ and not game.rated
    seats = game.seat_list
    assert (seats[0].player_id, seats[1].player_id) == ("alice", "bob") and taken.seat == 1
    made.seek.refresh_from_db()
    assert made.seek.status == Seek.Status.TAKEN and made.seek.game_id == game.pk
    assert lobby.seeker_seat(made.seek) == 0
    play_move(game.pk, Actor(player_id="alice"), "b2", 0)


def test_an_api_seekers_secret_holds_its_seat_and_the_accepter_gets_a_token() -> None:
    made = lobby.create_seek(api_client(), "tictactoe", {}, seat="second")
    taken = lobby.accept_seek(made.seek.pk, api_client())
    assert taken.token and taken.seat == 0
    play_move(taken.game.pk, Actor(token=taken.token), "a1", 0)
    play_move(taken.game.pk, Actor(token=made.token), "b2", 1)


def test_a_rated_seek_between_accounts_makes_a_rated_game() -> None:
    alice, bob = account("alice"), account("bob")
    made = lobby.create_seek(alice, "tictactoe", {}, clock=BLITZ, rated=True)
    game = lobby.accept_seek(made.seek.pk, bob).game
    game.refresh_from_db()
    assert game.rated and {s.user_id for s in game.seat_list} == {alice.user.pk, bob.user.pk}


@pytest.mark.parametrize(
    ("kind", "options", "clock", "code"),
    [
        ("chess", {}, None, "unknown_game"),
        (None, {}, None, "unknown_game"),
        ("connect", {"width": 99}, None, "bad_option"),
        ("connect", {"players": 3}, None, "bad_option"),
        ("tictactoe", [1], None, "bad_option"),
        ("tictactoe", {}, {"initial": 5}, "bad_clock"),
        ("tictactoe", {}, {"days": 4}, "bad_clock"),
        ("tictactoe", {}, "3+2", "bad_clock"),
    ],
)
def test_bad_games_options_and_clocks_are_refused(kind: Any, options: Any, clock: Any, code: str) -> None:
    assert refusal(lobby.create_seek, browser("a"), kind, options, clock=clock).code == code
    assert not Seek.objects.exists()


def test_a_bad_seat_is_refused() -> None:
    assert refusal(lobby.create_seek, browser("a"), "tictactoe", {}, seat="middle").code == "bad_option"


def test_rated_needs_an_account_and_a_clock() -> None:
    err = refusal(lobby.create_seek, browser("a"), "tictactoe", {}, clock=BLITZ, rated=True)
    assert (err.code, err.status) == ("rated_needs_account", 403)
    err = refusal(lobby.create_seek, account("alice"), "tictactoe", {}, clock=None, rated=True)
    assert err.code == "rated_needs_clock"
    assert not Seek.objects.exists()


def test_an_anonymous_player_cannot_accept_a_rated_seek() -> None:
    made = lobby.create_seek(account("alice"), "tictactoe", {}, clock=BLITZ, rated=True)
    assert refusal(lobby.accept_seek, made.seek.pk, browser("bob")).code == "rated_needs_account"
    assert Seek.objects.get().status == Seek.Status.OPEN and not Game.objects.exists()


def test_too_many_open_seeks(settings: Any) -> None:
    settings.LOBBY_MAX_SEEKS = 2
    alice = browser("alice")
    lobby.create_seek(alice, "tictactoe")
    lobby.create_seek(alice, "tictactoe")
    err = refusal(lobby.create_seek, alice, "tictactoe")
    assert (err.code, err.status) == ("too_many_seeks", 409)
    # anonymous API clients are counted by their address
    lobby.create_seek(api_client(), "tictactoe")
    lobby.create_seek(api_client(), "tictactoe")
    assert refusal(lobby.create_seek, api_client(), "tictactoe").code == "too_many_seeks"


def test_seeks_count_against_the_game_creation_limit(settings: Any) -> None:
    settings.RATE_LIMIT_CREATE = "2/minute"
    lobby.create_seek(browser("a"), "tictactoe")
    lobby.create_seek(browser("b"), "tictactoe")  # same address as "a"
    err = refusal(lobby.create_seek, browser("c"), "tictactoe")
    assert (err.code, err.status) == ("rate_limited", 429) and err.retry_after


def test_accepting_your_own_seek_a_taken_one_or_a_cancelled_one() -> None:
    alice, bob, carol = browser("alice"), browser("bob"), browser("carol")
    made = lobby.create_seek(alice, "tictactoe")
    assert refusal(lobby.accept_seek, made.seek.pk, alice).code == "own_seek"
    assert refusal(lobby.accept_seek, made.seek.pk, api_client(made.token)).code == "own_seek"
    lobby.accept_seek(made.seek.pk, bob)
    err = refusal(lobby.accept_seek, made.seek.pk, carol)
    assert (err.code, err.status) == ("seek_gone", 409)
    other = lobby.create_seek(alice, "tictactoe")
    lobby.cancel_seek(other.seek.pk, alice)
    assert refusal(lobby.accept_seek, other.seek.pk, carol).code == "seek_gone"
    assert refusal(lobby.accept_seek, 999, carol).status == 404
    assert Game.objects.count() == 1


def test_only_the_seeker_cancels_and_a_taken_seek_stays_taken() -> None:
    alice, bob = browser("alice"), browser("bob")
    made = lobby.create_seek(alice, "tictactoe")
    assert refusal(lobby.cancel_seek, made.seek.pk, bob).code == "not_your_seek"
    lobby.accept_seek(made.seek.pk, bob)
    assert refusal(lobby.cancel_seek, made.seek.pk, alice).code == "seek_gone"


def test_the_sweep_cancels_seeks_nobody_asked_for_but_not_correspondence(settings: Any) -> None:
    settings.SEEK_ALIVE = 10
    alice = browser("alice")
    live = lobby.create_seek(alice, "tictactoe", clock=BLITZ).seek
    kept = lobby.create_seek(alice, "tictactoe", clock={"days": 3}).seek
    later = timezone.now() + timedelta(seconds=11)
    lobby.keep_alive(live, timezone.now() + timedelta(seconds=5))
    assert lobby.sweep(later) == 0
    assert lobby.sweep(later + timedelta(seconds=5)) == 1
    live.refresh_from_db()
    kept.refresh_from_db()
    assert (live.status, kept.status) == (Seek.Status.CANCELLED, Seek.Status.OPEN)


def test_the_open_list_filters_by_game_and_marks_bots() -> None:
    lobby.create_seek(browser("a"), "tictactoe")
    lobby.create_seek(account("robot", bot=True), "quarto")
    assert [s.kind for s in lobby.open_seeks("quarto")] == ["quarto"]
    assert [s.bot for s in lobby.open_seeks()] == [True, False]


def test_changes_are_told_after_commit(django_capture_on_commit_callbacks: Any) -> None:
    heard: list[int] = []
    hook = lambda: heard.append(1)  # noqa: E731
    changes.subscribe(hook)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            made = lobby.create_seek(browser("a"), "tictactoe")
        with django_capture_on_commit_callbacks(execute=True):
            lobby.accept_seek(made.seek.pk, browser("b"), rng=random.Random(1))
    finally:
        changes.unsubscribe(hook)
    assert heard == [1, 1]


def race(count: int) -> tuple[list[str], int]:
    made = lobby.create_seek(browser("seeker"), "tictactoe", clock=BLITZ)
    barrier = threading.Barrier(count)
    results: list[str] = []

    def accept(n: int) -> None:
        barrier.wait()
        try:
            lobby.accept_seek(made.seek.pk, browser(f"p{n}"))
            results.append("ok")
        except ServiceError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(results), Game.objects.count()


@pytest.mark.django_db(transaction=True)
def test_sixteen_accepts_at_once_make_one_game(settings: Any) -> None:
    settings.RATE_LIMIT_CREATE = "1000/minute"
    results, games = race(16)
    assert results == ["ok"] + ["seek_gone"] * 15 and games == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sixteen_accepts_at_once_make_one_game_on_postgresql(settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL)")
    settings.RATE_LIMIT_CREATE = "1000/minute"
    results, games = race(16)
    assert results == ["ok"] + ["seek_gone"] * 15 and games == 1


def test_a_rating_range_is_for_accounts_and_keeps_others_out(monkeypatch: pytest.MonkeyPatch) -> None:
    err = refusal(lobby.create_seek, browser("a"), "tictactoe", clock=BLITZ, rating_range=(1400, None))
    assert (err.code, err.status) == ("range_needs_account", 403)
    alice = account("alice")
    err = refusal(lobby.create_seek, alice, "tictactoe", clock=BLITZ, rating_range=(1600, 1400))
    assert err.code == "bad_option" and err.field == "rating"
    made = lobby.create_seek(alice, "tictactoe", clock=BLITZ, rating_range=(1400, 1600))
    assert refusal(lobby.accept_seek, made.seek.pk, browser("anon")).code == "out_of_range"
    strong = account("strong")
    monkeypatch.setattr(lobby_rating, "rating_of", lambda user, kind, control: 1700.0)
    err = refusal(lobby.accept_seek, made.seek.pk, strong)
    assert (err.code, err.status) == ("out_of_range", 403)
    monkeypatch.setattr(lobby_rating, "rating_of", lambda user, kind, control: 1500.0)
    assert lobby.accept_seek(made.seek.pk, strong).game.pk

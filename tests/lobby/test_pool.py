"""Quick pairing: pairs of the same pool, nearest rating first, nobody paired twice."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, Seat
from games.services.moves import ServiceError
from lobby import pool
from lobby.models import PoolEntry
from lobby.seekers import Who

from .helpers import BLITZ, account, api_client, browser

pytestmark = pytest.mark.django_db


def test_two_players_of_one_pool_are_paired_and_others_wait() -> None:
    first = pool.join(browser("alice"), "tictactoe", BLITZ)
    assert first.game is None
    other = pool.join(browser("carol"), "tictactoe", {"initial": 60, "increment": 0})
    assert other.game is None, "another clock is another pool"
    second = pool.join(browser("bob"), "tictactoe", BLITZ)
    assert second.game is not None
    game = Game.objects.get(pk=second.game.pk)
    assert game.status == Game.Status.PLAYING and not game.rated
    assert sorted(s.player_id for s in game.seat_list) == ["alice", "bob"]
    status = pool.status(browser("alice"))
    assert status is not None and status.game == game
    assert pool.waiting_counts() == {"tictactoe:1+0": 1}


def test_joining_again_keeps_one_entry_and_another_pool_moves_it() -> None:
    alice = browser("alice")
    pool.join(alice, "tictactoe", BLITZ)
    pool.join(alice, "tictactoe", BLITZ)
    assert PoolEntry.objects.count() == 1
    pool.join(alice, "quarto", BLITZ)
    assert list(PoolEntry.objects.values_list("kind", flat=True)) == ["quarto"]
    assert pool.leave(alice) and not PoolEntry.objects.exists()
    assert not pool.leave(alice)


def test_refusals() -> None:
    with pytest.raises(ServiceError) as caught:
        pool.join(api_client(), "tictactoe", BLITZ)
    assert caught.value.code == "no_player"
    for kind, clock, code in [("chess", BLITZ, "unknown_game"), ("tictactoe", {"initial": 1}, "bad_clock")]:
        with pytest.raises(ServiceError) as caught:
            pool.join(browser("a"), kind, clock)
        assert caught.value.code == code
    assert not PoolEntry.objects.exists()


def test_accounts_meet_the_nearest_rating_first_and_play_rated(monkeypatch: pytest.MonkeyPatch) -> None:
    ratings = {"far": 1900.0, "near": 1550.0, "me": 1500.0}
    monkeypatch.setattr(pool, "rating_hook", lambda user, kind, control: ratings[user.username])
    far, near, me = account("far"), account("near"), account("me")
    pool.join(far, "tictactoe", BLITZ)
    pool.join(near, "tictactoe", BLITZ)  # 350 apart from "far": not yet compatible
    game = pool.join(me, "tictactoe", BLITZ).game
    assert game is not None and game.rated
    assert sorted(s.user.username for s in Seat.objects.filter(game=game) if s.user) == ["me", "near"]


def test_the_range_widens_with_waiting() -> None:
    now = timezone.now()
    old = PoolEntry(rating=1500.0, since=now - timedelta(seconds=10))
    new = PoolEntry(rating=2000.0, since=now)
    assert pool.compatible(old, new, now)  # 100 + 50 x 10 = 600 points
    assert not pool.compatible(old, new, now - timedelta(seconds=7))
    anonymous = PoolEntry(rating=None, since=now)
    assert pool.compatible(anonymous, new, now)


def test_a_player_who_stopped_asking_is_not_paired(settings: Any) -> None:
    settings.SEEK_ALIVE = 10
    pool.join(browser("alice"), "tictactoe", BLITZ)
    PoolEntry.objects.update(last_seen=timezone.now() - timedelta(seconds=11))
    assert pool.join(browser("bob"), "tictactoe", BLITZ).game is None
    assert pool.sweep() == 1 and PoolEntry.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_many_joins_at_once_pair_everyone_once(settings: Any) -> None:
    settings.RATE_LIMIT_CREATE = "1000/minute"
    count = 16
    barrier = threading.Barrier(count)
    errors: list[str] = []

    def join(n: int) -> None:
        barrier.wait()
        try:
            pool.join(Who(player_id=f"p{n}", address=f"10.3.0.{n}"), "tictactoe", BLITZ)
        except Exception as exc:  # any failure fails the test below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    seated = Counter(Seat.objects.values_list("player_id", flat=True))
    assert Game.objects.count() == count // 2
    assert sorted(seated) == sorted(f"p{n}" for n in range(count)) and set(seated.values()) == {1}
    assert not PoolEntry.objects.filter(game__isnull=True).exists()

"""Seats whose server died: each server says which seats it holds pages of (the heartbeat),
and the sweep takes a seat that no server has seen lately as gone since it was last seen."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from games.live import heartbeat
from games.models import Game, Seat
from games.presenting import audiences, presence
from games.services import abandonment, policy
from games.services.moves import Actor, ServiceError
from quarto_site.config import check_heartbeat

from .helpers import ONE, TWO, human_first_vs_ai, two_humans

pytestmark = pytest.mark.django_db(transaction=True)


def seat(game: Game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def seen_ago(game: Game, index: int, seconds: float) -> None:
    Seat.objects.filter(game=game, index=index).update(seen_at=timezone.now() - timedelta(seconds=seconds))


def test_one_update_says_which_seats_a_server_holds(django_assert_num_queries: Any) -> None:
    games = [two_humans() for _ in range(5)]
    held = {g.pk: {0} for g in games} | {games[0].pk: {0, 1}}
    with django_assert_num_queries(2):  # the seats taken for gone meanwhile, then the update
        assert abandonment.seats_seen(held) == []
    assert seat(games[0], 1).seen_at is not None
    for game in games:
        assert seat(game, 0).seen_at is not None
    assert [seat(g, 1).seen_at for g in games[1:]] == [None] * 4, "seats held elsewhere are left alone"
    assert abandonment.seats_seen({}) == []


def test_a_seat_back_is_seen_and_no_longer_gone() -> None:
    game = two_humans()
    abandonment.seats_left(game.pk, [1])
    abandonment.seats_back(game.pk, [1])
    back = seat(game, 1)
    assert back.left_at is None and back.seen_at is not None


def test_a_seat_nobody_has_seen_lately_is_gone_since_it_was_last_seen(settings: Any) -> None:
    settings.SEAT_LOST_AFTER = 30
    game, other = two_humans(), two_humans()
    abandonment.seats_seen({game.pk: [0, 1], other.pk: [0, 1]})
    seen_ago(game, 1, 31)
    seen_ago(other, 1, 29)
    last_seen = seat(game, 1).seen_at
    assert abandonment.seats_lost() == [(game.pk, 1, last_seen)]
    assert seat(game, 1).left_at == last_seen
    assert seat(game, 0).left_at is None and seat(other, 1).left_at is None
    assert abandonment.seats_lost() == [], "marked once"


def test_seats_that_said_goodbye_or_never_opened_a_page_are_not_lost(settings: Any) -> None:
    settings.SEAT_LOST_AFTER = 30
    closed, never = two_humans(), two_humans()
    abandonment.seats_seen({closed.pk: [1]})
    seen_ago(closed, 1, 600)
    abandonment.seats_left(closed.pk, [1])
    left = seat(closed, 1).left_at
    assert abandonment.seats_lost() == []
    assert seat(closed, 1).left_at == left
    assert seat(never, 1).seen_at is None and seat(never, 1).left_at is None


def test_a_lost_seat_can_be_claimed_against_and_its_game_closes(settings: Any) -> None:
    settings.SEAT_LOST_AFTER, settings.ABANDON_AFTER, settings.ABANDON_CLOSE_AFTER = 30, 60, 600
    game = two_humans()
    abandonment.seats_seen({game.pk: [0, 1]})
    seen_ago(game, 1, 45)
    abandonment.seats_lost()
    with pytest.raises(ServiceError) as early:  # gone 45 s: not yet claimable
        abandonment.claim(game.pk, ONE, "win", 0)
    assert early.value.code == "not_abandoned"
    seen_ago(game, 0, 0)
    Seat.objects.filter(game=game, index=1).update(left_at=timezone.now() - timedelta(seconds=61))
    assert policy.gone_seats(Game.objects.get(pk=game.pk)) == [1]
    abandonment.claim(game.pk, ONE, "win", 0)
    won = Game.objects.get(pk=game.pk)
    assert (won.status, won.winner, won.reason) == (Game.Status.WON, 0, "abandoned")

    unclaimed = two_humans()
    abandonment.seats_seen({unclaimed.pk: [1]})
    seen_ago(unclaimed, 1, 601)
    abandonment.seats_lost()
    assert abandonment.close_abandoned() == [unclaimed.pk]


def test_a_seat_held_by_a_late_server_is_here_after_all(settings: Any) -> None:
    settings.SEAT_LOST_AFTER = 30
    game = two_humans()
    abandonment.seats_seen({game.pk: [0, 1]})
    seen_ago(game, 1, 31)
    assert abandonment.seats_lost()
    assert abandonment.seats_seen({game.pk: [1]}) == [game.pk]
    assert seat(game, 1).left_at is None


def test_the_computer_seat_is_never_seen_nor_lost(settings: Any) -> None:
    settings.SEAT_LOST_AFTER = 30
    game = human_first_vs_ai()
    abandonment.seats_seen({game.pk: [0, 1]})
    assert seat(game, 1).seen_at is None
    seen_ago(game, 0, 31)
    assert abandonment.seats_lost() == [(game.pk, 0, seat(game, 0).seen_at)]
    against_the_computer = Game.objects.get(pk=game.pk)
    assert policy.gone_seats(against_the_computer) == [], "never claimed"


def test_heartbeat_and_lost_after_are_checked() -> None:
    check_heartbeat(10, 30)
    check_heartbeat(0, 0)
    with pytest.raises(ImproperlyConfigured, match="at least twice SEAT_HEARTBEAT"):
        check_heartbeat(10, 15)


# The live layer: this process's sockets, and the counts a dead server left behind.


def test_held_seats_come_from_this_process_sockets() -> None:
    presence.arrive(1, ["seat-0"])
    presence.arrive(2, ["seat-0-1"])
    presence.arrive(3, ["watch"])
    presence.arrive(4, ["seat-1", audiences.JSON])
    presence.arrive(5, ["seat-0"])
    presence.leave(5, ["seat-0"])
    assert heartbeat.held_seats() == {1: {0}, 2: {0, 1}, 4: {1}}


async def test_the_heartbeat_stores_the_seats_with_a_socket_here() -> None:
    game = await database_sync_to_async(two_humans)()
    presence.arrive(game.pk, ["seat-1"])
    await heartbeat.heartbeat()
    assert (await database_sync_to_async(seat)(game, 1)).seen_at is not None
    assert (await database_sync_to_async(seat)(game, 0)).seen_at is None


async def test_the_sweep_marks_a_dead_server_seat_gone_and_stops_counting_its_socket(settings: Any) -> None:
    settings.SEAT_LOST_AFTER, settings.SEAT_HEARTBEAT = 30, 10
    game = await database_sync_to_async(two_humans)()
    # Both pages were open on another server, which died: its counts stay in the cache.
    cache = audiences.live_cache()
    for audience in ("seat-0", "seat-1"):
        cache.set(audiences.count_key(game.pk, audience), 1)
    await database_sync_to_async(abandonment.seats_seen)({game.pk: [0, 1]})
    await database_sync_to_async(seen_ago)(game, 1, 31)
    presence_of = database_sync_to_async(presence.presence_of)
    assert await presence_of(game, ONE) == "Your opponent is connected."
    await heartbeat.sweep()
    assert (await database_sync_to_async(seat)(game, 1)).left_at is not None
    assert (await database_sync_to_async(seat)(game, 0)).left_at is None
    assert presence.counts(game.pk, ["seat-0", "seat-1"]) == {"seat-0": 1, "seat-1": 0}
    assert await presence_of(game, ONE) == "Your opponent is not connected."
    assert await presence_of(game, TWO) == "Your opponent is connected."
    assert await presence_of(game, Actor()) == "Player 1 is connected. Player 2 is not connected."


async def test_a_page_back_here_is_counted_again_after_another_servers_sweep_took_its_seat(
    settings: Any,
) -> None:
    settings.SEAT_LOST_AFTER, settings.SEAT_HEARTBEAT = 30, 10
    game = await database_sync_to_async(two_humans)()
    # Seat 0's page reconnected here (counted 1); another server's sweep, which had read
    # the seat as lost just before, then set the seat's count to its own sockets: none.
    presence.arrive(game.pk, ["seat-0"])
    cache = audiences.live_cache()
    cache.set(audiences.count_key(game.pk, "seat-0"), 0)
    await database_sync_to_async(abandonment.seats_seen)({game.pk: [0]})  # noted meanwhile
    key = audiences.count_key(game.pk, "seat-0")  # what the other servers read
    assert await database_sync_to_async(heartbeat._beat)() == [game.pk]  # rendered again
    assert cache.get(key) == 1
    assert await database_sync_to_async(heartbeat._beat)() == []  # nothing more to raise
    assert cache.get(key) == 1, "never more than the sockets here"

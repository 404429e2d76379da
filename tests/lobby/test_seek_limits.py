"""The lobby against floods: open seeks counted per address as well as per player (and
atomically, under concurrent posts), correspondence seeks that lapse, clocks no game
could be played with refused."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from games.services.moves import ServiceError
from lobby import pool
from lobby import services as lobby
from lobby.models import PoolEntry, Seek
from lobby.seekers import Who

from .helpers import BLITZ, browser

pytestmark = pytest.mark.django_db


def refusal(call: Any, *args: Any, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_new_browser_sessions_from_one_address_are_counted_together(settings: Any) -> None:
    settings.LOBBY_MAX_SEEKS, settings.LOBBY_MAX_SEEKS_PER_ADDRESS = 3, 4
    for n in range(4):  # a fresh session (player) for every seek, as a cookie-less client has
        lobby.create_seek(Who(player_id=f"fresh{n}", address="10.9.9.9"), "tictactoe")
    err = refusal(lobby.create_seek, Who(player_id="fresh4", address="10.9.9.9"), "tictactoe")
    assert (err.code, err.status) == ("too_many_seeks", 409) and "address" in err.message
    assert Seek.objects.filter(status=Seek.Status.OPEN).count() == 4
    lobby.create_seek(Who(player_id="elsewhere", address="10.9.9.10"), "tictactoe")  # another address


def test_cookieless_posts_to_the_seek_form_stop_at_the_address_limit(settings: Any) -> None:
    settings.LOBBY_MAX_SEEKS_PER_ADDRESS, settings.RATE_LIMIT_CREATE = 2, "1000/minute"
    answers = [
        Client().post("/lobby/seeks", {"game": "tictactoe", "clock": "3+2", "seat": "random"}).status_code
        for _ in range(4)
    ]
    assert Seek.objects.filter(status=Seek.Status.OPEN).count() == 2, answers


def test_a_correspondence_seek_lapses_after_the_set_days_even_while_its_page_is_open(settings: Any) -> None:
    settings.SEEK_CORRESPONDENCE_DAYS = 7
    made = lobby.create_seek(browser("alice"), "tictactoe", clock={"days": 3})
    lapses = lobby.lapses_at(made.seek)
    assert lapses == made.seek.created + timedelta(days=7)
    assert lobby.lapses_at(lobby.create_seek(browser("bob"), "tictactoe", clock=BLITZ).seek) is None

    later = made.seek.created + timedelta(days=6, hours=23)
    lobby.keep_alive(made.seek, later)
    lobby.sweep(later)
    assert Seek.objects.get(pk=made.seek.pk).status == Seek.Status.OPEN
    lobby.keep_alive(made.seek, lapses + timedelta(seconds=1))
    assert lobby.sweep(lapses + timedelta(seconds=1)) >= 1
    assert Seek.objects.get(pk=made.seek.pk).status == Seek.Status.CANCELLED


def test_the_lobby_card_says_when_a_correspondence_seek_lapses(client: Client) -> None:
    lobby.create_seek(browser("alice"), "tictactoe", clock={"days": 3})
    page = client.get("/lobby/").content.decode()
    assert "lapses" in page


@pytest.mark.parametrize(
    "clock",
    [{"days": 3, "paused": True}, {"days": 3, "paused": False}, {"initial": 180, "speed": 2}, {"paused": 1}],
)
def test_a_clock_with_keys_no_game_is_played_with_is_refused(client: Client, clock: dict[str, Any]) -> None:
    answer = client.post(
        "/api/v1/seeks", {"game": "tictactoe", "clock": clock}, content_type="application/json"
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"] == "bad_clock" and "Unknown clock key" in answer.json()["detail"]
    assert refusal(pool.join, browser("bob"), "tictactoe", clock).code == "bad_clock"  # quick pairing
    assert not Seek.objects.exists() and not PoolEntry.objects.exists()


def seek_race(count: int, who: list[Who]) -> int:
    barrier = threading.Barrier(count)

    def post(n: int) -> None:
        barrier.wait()
        try:
            lobby.create_seek(who[n % len(who)], "tictactoe", clock=BLITZ)
        except ServiceError as exc:
            assert exc.code == "too_many_seeks", exc
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return Seek.objects.filter(status=Seek.Status.OPEN).count()


ONE_PLAYER = [Who(player_id="one", address="10.3.0.1")]
FRESH_SESSIONS = [Who(player_id=f"s{n}", address="10.3.0.2") for n in range(24)]  # one address


def concurrent_seeks_stay_within_the_limits(settings: Any, who: list[Who], limit: int) -> None:
    settings.RATE_LIMIT_CREATE = "1000/minute"
    settings.LOBBY_MAX_SEEKS, settings.LOBBY_MAX_SEEKS_PER_ADDRESS = 3, 5
    assert seek_race(24, who) == limit


@pytest.mark.parametrize(("who", "limit"), [(ONE_PLAYER, 3), (FRESH_SESSIONS, 5)], ids=["player", "address"])
@pytest.mark.django_db(transaction=True)
def test_concurrent_seeks_stay_within_the_limits(settings: Any, who: list[Who], limit: int) -> None:
    concurrent_seeks_stay_within_the_limits(settings, who, limit)


@pytest.mark.postgres
@pytest.mark.parametrize(("who", "limit"), [(ONE_PLAYER, 3), (FRESH_SESSIONS, 5)], ids=["player", "address"])
@pytest.mark.django_db(transaction=True)
def test_concurrent_seeks_stay_within_the_limits_on_postgresql(
    settings: Any, who: list[Who], limit: int
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL)")
    concurrent_seeks_stay_within_the_limits(settings, who, limit)

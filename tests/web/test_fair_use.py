"""Fair use: analysis in its own bounded pool, reviews computed once, limits per client."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games import catalog
from games.models import Game
from games.runner import pools
from games.runner import turns as ai_runner
from games.services import ratelimit

from ..api.api_helpers import create, error_of
from .test_review import finished_game

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


@pytest.fixture
def held() -> Iterator[threading.Event]:
    """An event that analysis jobs submitted with ``hold`` wait for; set at the end."""
    event = threading.Event()
    yield event
    event.set()
    deadline = time.monotonic() + 5
    while ai_runner.gate.in_flight() and time.monotonic() < deadline:
        time.sleep(0.01)


def hold(gate: ai_runner.AnalysisGate, client: str, event: threading.Event) -> Any:
    return gate.submit(client, event.wait, 5)


# -- two pools, admission -------------------------------------------------------------


def test_analysis_never_runs_in_the_pool_of_the_computers_moves() -> None:
    assert ai_runner.gate.executor() is not ai_runner.runner.executor()


def test_gate_admits_one_job_per_client_and_a_total(settings: Any, held: threading.Event) -> None:
    settings.ANALYSIS_PER_CLIENT = 1
    settings.ANALYSIS_MAX_PENDING = 2
    gate = ai_runner.AnalysisGate()
    first = hold(gate, "ip:a", held)
    with pytest.raises(ai_runner.Busy) as same:
        hold(gate, "ip:a", held)
    assert (same.value.code, same.value.status) == ("analysis_running", 429)
    hold(gate, "ip:b", held)
    with pytest.raises(ai_runner.Busy) as full:
        hold(gate, "ip:c", held)
    assert (full.value.code, full.value.status) == ("busy", 503)
    held.set()
    first.result(timeout=5)
    deadline = time.monotonic() + 5
    while gate.in_flight() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gate.in_flight() == 0, "a slot is freed when its job ends"
    hold(gate, "ip:a", threading.Event()).cancel()


def test_api_analysis_beyond_one_in_flight_is_429_with_retry_after(
    client: Client, held: threading.Event
) -> None:
    data = create(client)
    hold(ai_runner.gate, "ip:127.0.0.1", held)
    seat = {"Authorization": f"Bearer {data['token']}"}
    response = client.get(f"/api/v1/games/{data['id']}/analysis", headers=seat)
    assert error_of(response) == (429, "analysis_running")
    assert int(response["Retry-After"]) >= 1
    # Another address is served meanwhile.
    other = Client(REMOTE_ADDR="10.1.1.1").get(f"/api/v1/games/{data['id']}/analysis", headers=seat)
    assert other.status_code == 200


def test_api_analysis_when_the_pool_is_full_is_503(
    client: Client, settings: Any, held: threading.Event
) -> None:
    settings.ANALYSIS_MAX_PENDING = 2
    data = create(client)
    for n in range(2):
        hold(ai_runner.gate, f"ip:10.0.0.{n}", held)
    seat = {"Authorization": f"Bearer {data['token']}"}
    response = client.get(f"/api/v1/games/{data['id']}/analysis", headers=seat)
    assert error_of(response) == (503, "busy")
    assert response["Retry-After"]


def test_hint_while_busy_says_so_in_the_status_line(client: Client, held: threading.Event) -> None:
    client.post("/games/new", {"kind": "tictactoe", "opponent": "ai", "seat": "first", "allow_hints": "on"})
    game = Game.objects.latest("created")
    hold(ai_runner.gate, "ip:127.0.0.1", held)
    html = client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    assert "previous analysis is still running" in html and "hint--" not in html


# -- reviews: once per finished game --------------------------------------------------


def test_a_review_is_computed_once_for_many_simultaneous_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished_game()
    calls: list[int] = []
    real = catalog.review

    def slow_review(*args: Any) -> list[Any]:
        calls.append(1)
        time.sleep(0.5)
        return real(*args)

    monkeypatch.setattr(catalog, "review", slow_review)
    pages: list[str] = []

    def read(n: int) -> None:
        reader = Client(REMOTE_ADDR=f"10.2.0.{n}")
        pages.append(reader.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode())

    readers = [threading.Thread(target=read, args=(n,)) for n in range(5)]
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join(30)
    assert len(pages) == 5 and all("review__row" in page for page in pages), pages
    assert len(calls) == 1
    # Kept: a later reader (the same client, even) gets it without a search.
    Client().get(f"/games/{game.pk}/review/table", headers=HTMX)
    assert len(calls) == 1


def test_no_review_of_a_game_in_progress(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    data = create(client)
    monkeypatch.setattr(catalog, "review", lambda *args: pytest.fail("reviewed a live game"))
    html = client.get(f"/games/{data['id']}/review/table", headers=HTMX).content.decode()
    assert "The review opens when the game is over." in html


# -- who the client is ------------------------------------------------------------


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "expected"),
    [
        ("10.0.0.1", "1.2.3.4", [], "10.0.0.1"),
        ("10.0.0.1", "1.2.3.4", ["10.0.0.0/8"], "1.2.3.4"),
        ("10.0.0.1", "6.6.6.6, 1.2.3.4", ["10.0.0.0/8"], "1.2.3.4"),
        ("10.0.0.1", "1.2.3.4, 10.0.0.2", ["10.0.0.0/8"], "1.2.3.4"),
        ("10.0.0.1", "junk, 1.2.3.4", ["10.0.0.0/8"], "1.2.3.4"),
        ("10.0.0.1", "1.2.3.4, junk", ["10.0.0.0/8"], "10.0.0.1"),
        ("203.0.113.9", "1.2.3.4", ["10.0.0.0/8"], "203.0.113.9"),
        ("::1", "2001:db8::7", ["::1"], "2001:db8::7"),
    ],
)
def test_client_address(peer: str, forwarded: str, trusted: list[str], expected: str, settings: Any) -> None:
    settings.TRUSTED_PROXIES = trusted
    assert ratelimit.client_address(peer, forwarded) == expected


def test_a_review_that_is_done_before_it_is_awaited_does_not_lock_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quick review (tic-tac-toe at a small budget) can be finished by the time its
    future gets its callback: the callback then runs at once, in the asking thread; it
    must not wait for a lock that thread holds (the server's loop hung there for good)."""
    game = finished_game()
    real_submit = pools.gate.submit

    def done_at_once(client: str, fn: Any, *args: Any) -> Any:
        future = real_submit(client, fn, *args)
        future.result(timeout=30)
        return future

    monkeypatch.setattr(pools.gate, "submit", done_at_once)
    pages: list[str] = []

    def read() -> None:
        pages.append(Client().get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode())

    reader = threading.Thread(target=read, daemon=True)  # daemon: a hung one must not hold the run
    reader.start()
    reader.join(20)
    assert not reader.is_alive(), "the review locked up"
    assert pages and "review__row" in pages[0]

"""/metrics: Prometheus's text format, for the operator's addresses only; what it counts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from games.services import moves as services
from quarto_site.asgi import application
from tests.web.helpers import ONE, TWO, two_humans

pytestmark = pytest.mark.django_db(transaction=True)


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: Client) -> Samples:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_requests_are_counted_by_view_and_status_and_timed(client: Client) -> None:
    before = scrape(client)
    assert client.get("/").status_code == 200
    assert client.get("/no-such-page/").status_code == 404
    after = scrape(client)
    home = {"view": "games:home", "method": "GET", "status": "200"}
    assert (
        value(after, "quarto_http_requests_total", **home)
        == value(before, "quarto_http_requests_total", **home) + 1
    )
    missing = {"view": "unmatched", "method": "GET", "status": "404"}
    assert value(after, "quarto_http_requests_total", **missing) >= 1
    assert value(after, "quarto_http_request_seconds_count", view="games:home") >= 1
    # The path is never a label: a scanner's thousand paths make no thousand series.
    assert not any("no-such-page" in str(key) for key in after)


def test_the_lean_path_is_counted_too(client: Client) -> None:
    client.get("/healthz")
    assert (
        value(scrape(client), "quarto_http_requests_total", view="games:health", method="GET", status="200")
        >= 1
    )


def test_moves_and_state_are_reported(client: Client) -> None:
    game = two_humans()
    before = value(scrape(client), "quarto_game_events_total", kind="moved")
    services.play_move(game.pk, ONE, "8", 0)
    services.play_move(game.pk, TWO, "a1", 1)
    samples = scrape(client)
    assert value(samples, "quarto_game_events_total", kind="moved") == before + 2
    assert value(samples, "quarto_database_up") == 1
    assert ("quarto_analysis_in_flight", ()) in samples
    assert ("quarto_computer_turns_due", ()) in samples
    assert value(samples, "quarto_lobby_open_seeks") == 0 and ("quarto_lobby_open_seeks", ()) in samples
    assert ("quarto_lobby_pool_players", ()) in samples
    assert ("quarto_rating_changes_last_hour", ()) in samples
    assert ("quarto_redis_up", ()) not in samples  # no Redis configured


@pytest.mark.parametrize("address", ["203.0.113.9", "10.0.0.8", "::ffff:1.2.3.4", "garbage"])
def test_other_addresses_are_refused(address: str) -> None:
    response = Client(REMOTE_ADDR=address).get("/metrics")
    assert response.status_code == 403
    assert b"quarto_" not in response.content


def test_behind_a_trusted_proxy_the_client_s_address_counts(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    outsider = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert outsider.get("/metrics").status_code == 403
    settings.METRICS_ALLOWED = ["198.51.100.0/24"]
    assert outsider.get("/metrics").status_code == 200


def test_a_post_is_not_allowed(client: Client) -> None:
    assert client.post("/metrics").status_code == 405


async def test_open_sockets_are_counted_by_kind() -> None:
    game = await database_sync_to_async(two_humans)()
    client = Client()

    def games_open() -> float:
        return value(scrape(client), "quarto_sockets_open", kind="games")

    before = await database_sync_to_async(games_open)()
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await comm.connect()
    assert connected
    assert await database_sync_to_async(games_open)() == before + 1
    await comm.disconnect()
    assert await database_sync_to_async(games_open)() == before
    refused = WebsocketCommunicator(
        application, "/ws/games/424242/", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await refused.connect()
    assert not connected
    assert await database_sync_to_async(games_open)() == before


def test_metric_names_follow_prometheus_conventions(client: Client) -> None:
    text = client.get("/metrics").content.decode()
    names = set(re.findall(r"^# TYPE (\S+) ", text, re.M))
    assert names >= {
        "quarto_http_requests_total",
        "quarto_http_request_seconds",
        "quarto_sockets_open",
        "quarto_game_events_total",
        "quarto_database_up",
        "quarto_analysis_in_flight",
    }
    assert all(name.startswith("quarto_") for name in names)
    assert "_created" not in text


def test_tournaments_running_their_players_games_and_ticks_are_counted(client: Client) -> None:
    from tests.tournaments.helpers import tournament, user
    from tournaments import pairing
    from tournaments import services as tournament_services

    before = scrape(client)
    t = tournament(rated=False)
    for name in ("ann", "bob", "cid"):
        tournament_services.join(t.pk, user(name))
    assert pairing.tick() == 1  # starts it and pairs two of the three
    after = scrape(client)
    assert value(after, "quarto_tournaments_running") == value(before, "quarto_tournaments_running") + 1
    assert value(after, "quarto_tournament_players") == value(before, "quarto_tournament_players") + 3
    in_play = "quarto_tournament_games_in_play"
    assert value(after, in_play) == value(before, in_play) + 1
    assert value(after, "quarto_tournament_games_paired_total") == (
        value(before, "quarto_tournament_games_paired_total") + 1
    )
    ticks = "quarto_tournament_tick_seconds_count"
    assert value(after, ticks) == value(before, ticks) + 1


async def test_tournament_sockets_have_their_own_kind() -> None:
    from tests.tournaments.helpers import tournament

    t = await database_sync_to_async(tournament)(rated=False)
    client = Client()

    def open_here() -> float:
        return value(scrape(client), "quarto_sockets_open", kind="tournaments")

    before = await database_sync_to_async(open_here)()
    comm = WebsocketCommunicator(
        application, f"/ws/tournaments/{t.pk}/", headers=[(b"origin", b"http://localhost")]
    )
    assert (await comm.connect())[0]
    assert await database_sync_to_async(open_here)() == before + 1
    await comm.disconnect()
    assert await database_sync_to_async(open_here)() == before

"""The site's Prometheus metrics: what an operator watches (docs/deployment.md, "Metrics").

Counters and histograms are updated where things happen (a request, a game event, a
socket opening); what is a state rather than an event (the database and Redis answering,
computer turns due, analysis in flight) is read when Prometheus scrapes, by a collector.
Each server process keeps its own figures: Prometheus scrapes each process's port.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from django.core.cache import caches
from django.db import DatabaseError
from django.utils import timezone
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games.events import GameEvent
from games.models import Game
from games.runner import pools
from games.services.fallback_cache import FallbackRedisCache, redis_down
from lobby.models import PoolEntry, Seek
from ratings.models import RatingChange
from tournaments.models import Entry, Pairing, Tournament

# A *_created series beside every counter would only double the scrape.
disable_created_metrics()  # type: ignore[no-untyped-call]
# auto_describe off: registering StateCollector must not run its queries at import, before
# the database is even chosen (a test run's pool would then keep the wrong one).
registry = CollectorRegistry(auto_describe=False)

requests = Counter(
    "quarto_http_requests",
    "HTTP requests answered, by view and status.",
    ["view", "method", "status"],
    registry=registry,
)
latency = Histogram(
    "quarto_http_request_seconds",
    "Time to answer an HTTP request, by view.",
    ["view"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=registry,
)
sockets = Gauge(
    "quarto_sockets_open", "WebSockets open in this process, by kind.", ["kind"], registry=registry
)
socket_opens = Counter("quarto_sockets_opened", "WebSockets accepted, by kind.", ["kind"], registry=registry)
game_events = Counter(
    "quarto_game_events",
    "Game events published by this process (moved: a move played), by kind.",
    ["kind"],
    registry=registry,
)
for _kind in ("moved", "created", "ended"):
    game_events.labels(_kind)  # present at 0 from the start, so rate() works at once
tournament_ticks = Histogram(
    "quarto_tournament_tick_seconds",
    "Time of one tournament tick in this process (start, pair and finish what is due).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=registry,
)
tournament_games = Counter(
    "quarto_tournament_games_paired", "Tournament games made by this process's ticks.", registry=registry
)


def on_tournament_tick(seconds: float, made: int) -> None:
    tournament_ticks.observe(seconds)
    tournament_games.inc(made)


def on_game_event(event: GameEvent) -> None:
    game_events.labels(event.kind).inc()


def observe_request(view: str, method: str, status: int, seconds: float) -> None:
    requests.labels(view, method, str(status)).inc()
    latency.labels(view).observe(seconds)


class StateCollector(Collector):
    """Figures read at scrape time: health, the computer's queue, the analysis pool."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        database = GaugeMetricFamily("quarto_database_up", "1 when the database answered this scrape.")
        due = GaugeMetricFamily("quarto_computer_turns_due", "Games whose computer turn is due, site-wide.")
        waited = GaugeMetricFamily(
            "quarto_computer_turn_oldest_wait_seconds", "How long the oldest due computer turn has waited."
        )
        seeks = GaugeMetricFamily("quarto_lobby_open_seeks", "Open seeks in the lobby, site-wide.")
        waiting = GaugeMetricFamily("quarto_lobby_pool_players", "Players waiting in quick-pairing pools.")
        rated = GaugeMetricFamily(
            "quarto_rating_changes_last_hour", "Ratings moved by games in the last hour (the ratings' work)."
        )
        running = GaugeMetricFamily("quarto_tournaments_running", "Tournaments under way, site-wide.")
        entered = GaugeMetricFamily(
            "quarto_tournament_players", "Players in running tournaments (not withdrawn), site-wide."
        )
        playing = GaugeMetricFamily(
            "quarto_tournament_games_in_play", "Games of running tournaments not yet over, site-wide."
        )
        now = timezone.now()
        try:
            due_at = Game.objects.filter(ai_due_at__isnull=False).values_list("ai_due_at", flat=True)
            turns = [t for t in due_at if t]
            seeks.add_metric([], Seek.objects.filter(status=Seek.Status.OPEN).count())
            waiting.add_metric([], PoolEntry.objects.count())
            rated.add_metric([], RatingChange.objects.filter(created__gte=now - timedelta(hours=1)).count())
            under_way = Tournament.objects.filter(status=Tournament.Status.RUNNING)
            running.add_metric([], under_way.count())
            entered.add_metric([], Entry.objects.filter(tournament__in=under_way, withdrawn=False).count())
            playing.add_metric(
                [], Pairing.objects.filter(tournament__in=under_way, done=False, second__isnull=False).count()
            )
        except DatabaseError:
            database.add_metric([], 0)
        else:
            database.add_metric([], 1)
            due.add_metric([], len(turns))
            oldest = min(turns, default=None)
            waited.add_metric([], max(0.0, (now - oldest).total_seconds()) if oldest else 0.0)
            yield from (due, waited, seeks, waiting, rated, running, entered, playing)
        yield database
        redis = GaugeMetricFamily(
            "quarto_redis_up", "1 when Redis answers, 0 when it does not; absent when Redis is not used."
        )
        if any(isinstance(caches[alias], FallbackRedisCache) for alias in ("default", "live")):
            caches["default"].get("metrics")  # reaches Redis at most once per retry interval
            redis.add_metric([], 0 if redis_down() else 1)
            yield redis
        analysis = GaugeMetricFamily(
            "quarto_analysis_in_flight", "Analysis jobs (hints, analysis, reviews) running or queued here."
        )
        analysis.add_metric([], pools.gate.in_flight())
        yield analysis


registry.register(StateCollector())

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _back_to_the_default_language() -> Iterator[None]:
    """A request in another language leaves it active in its thread (Django's
    LocaleMiddleware activates one per request): every test ends in the default one, so
    the tests after it read English whatever ran before."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_ai(settings: Any) -> None:
    """No thinking delay, search in threads, no warm-up: tests stay quick and deterministic."""
    settings.AI_DELAY = 0
    settings.AI_BUDGET = 0.2
    settings.HINT_BUDGET = 0.2
    settings.REVIEW_BUDGET = 0.1
    settings.AI_PROCESSES = 0
    settings.AI_WARM_UP = False
    settings.AI_RUNNER = "inline"


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)


@pytest.fixture
def no_ai_reply(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Keep the computer from answering, to inspect the position after a human move."""
    from games.runner.turns import runner

    monkeypatch.setattr(runner, "schedule", lambda game_id: None)
    # Nor at a server's start-up, which picks up every turn due (a socket through the
    # ASGI app binds the runner to its loop).
    monkeypatch.setattr(runner, "bind", lambda loop: None)
    yield


@pytest.fixture(autouse=True)
def _windows_start_with_the_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate limits count in fixed windows (games/services/ratelimit.py): two requests a
    moment apart across a window's end are counted in two, and a test that asks for a
    refusal would see none. Each test's limiter clock starts at a day's first second (the
    start of every window) and moves as time does."""
    from games.services import ratelimit

    start, base = time.monotonic(), time.time() // 86400 * 86400
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: base + time.monotonic() - start))


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test starts with empty rate-limit counters and an empty live cache."""
    _clear_caches()
    yield
    _clear_caches()


def _clear_caches() -> None:
    """Our keys only: on Redis ``clear()`` would flush the channel layer's database too."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    from games.presenting import presence
    from games.services import ratelimit

    for alias in ("default", "live"):
        cache = caches[alias]
        if isinstance(cache, RedisCache):
            client = cache._cache.get_client(write=True)
            for key in client.scan_iter(match=f"{cache.key_prefix}:*"):
                client.delete(key)
        else:
            cache.clear()
    presence.local_counts.clear()
    # Sockets a failed test left open (it stopped before disconnecting) count against the
    # per-client cap: they must not refuse the next tests' sockets.
    ratelimit.forget_open_sockets()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's sync API keeps an event loop running in the main
    thread while its browser is open, which synchronous Django code must not meet. (In the
    parallel run a worker may still take plain tests after browser ones: the browser
    fixture closes with its file.)"""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture
def fake_clock() -> Iterator[Any]:
    """The services read the time from a clock that moves only when the test says."""
    from games.services import clocks

    with clocks.use(clocks.FakeClock()) as clock:
        yield clock

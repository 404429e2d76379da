"""Whether this process's computer is ready: at start-up it loads (on a fresh checkout,
compiles) its searches. A game page says when it is still getting ready, and
``/healthz?computer`` answers 503 until it is (scripts/serve waits for that)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

_warming = threading.Event()
_ready = threading.Event()


def getting_ready() -> bool:
    return _warming.is_set()


def computer_ready() -> bool:
    """True once the start-up warm-up is done, or when this process has none to do."""
    return _ready.is_set() or not settings.AI_WARM_UP or settings.AI_RUNNER != "inline"


@contextmanager
def warming_up() -> Iterator[None]:
    _warming.set()
    try:
        yield
    finally:
        _warming.clear()
        _ready.set()


def reset() -> None:
    """Back to a process that has not warmed up (for tests)."""
    _warming.clear()
    _ready.clear()

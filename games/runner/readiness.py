"""Whether this process's computer is still getting ready: loading (on a fresh checkout,
compiling) its searches at start-up. A game page says so, instead of a silent wait."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_warming = threading.Event()


def getting_ready() -> bool:
    return _warming.is_set()


@contextmanager
def warming_up() -> Iterator[None]:
    _warming.set()
    try:
        yield
    finally:
        _warming.clear()

"""What changed in a tournament, told after commit to whoever listens (its live push).

A join, a pairing wave, a game's end change what the tournament's page shows; the page
is rendered once per change for all its viewers (tournaments/live.py), so the services
only say which tournament changed and never render."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction

log = logging.getLogger(__name__)

Hook = Callable[[int], None]
_hooks: list[Hook] = []


def subscribe(hook: Hook) -> None:
    if hook not in _hooks:
        _hooks.append(hook)


def unsubscribe(hook: Hook) -> None:
    if hook in _hooks:
        _hooks.remove(hook)


def _tell(tournament_id: int) -> None:
    for hook in list(_hooks):
        try:
            hook(tournament_id)
        except Exception:  # the change stands whatever a listener does
            log.exception("a tournament listener failed")


def changed(tournament_id: int) -> None:
    """The tournament changed: listeners hear it once the transaction commits."""
    transaction.on_commit(lambda: _tell(tournament_id))


# Told when a game's end frees players (the timer pairs that tournament again at once).
_freed_hooks: list[Hook] = []


def on_freed(hook: Hook) -> None:
    if hook not in _freed_hooks:
        _freed_hooks.append(hook)


def freed(tournament_id: int) -> None:
    """Players of the tournament are free again: listeners hear it once the transaction commits."""

    def tell() -> None:
        for hook in list(_freed_hooks):
            try:
                hook(tournament_id)
            except Exception:
                log.exception("a tournament listener failed")

    transaction.on_commit(tell)

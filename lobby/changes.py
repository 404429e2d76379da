"""What changed in the lobby, told after commit to whoever listens (the lobby's live push).

Seeks and pairings change the lobby list; the list is rendered once per change and pushed
to every lobby page, so the services only say "changed" and never render."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction

log = logging.getLogger(__name__)

Hook = Callable[[], None]
_hooks: list[Hook] = []


def subscribe(hook: Hook) -> None:
    if hook not in _hooks:
        _hooks.append(hook)


def unsubscribe(hook: Hook) -> None:
    if hook in _hooks:
        _hooks.remove(hook)


def _tell() -> None:
    for hook in list(_hooks):
        try:
            hook()
        except Exception:  # the change stands whatever a listener does
            log.exception("a lobby listener failed")


def changed() -> None:
    """The lobby list changed: listeners hear it once the transaction commits."""
    transaction.on_commit(_tell)

"""One stream of game events: the services publish what happened, subscribers react.

Like lichess's move player publishing on its bus, the services never call the live
push or the AI runner: :func:`publish` hands a :class:`GameEvent` to every subscriber
once the transaction that made it commits. Subscribers register in
``GamesConfig.ready()`` (games/apps.py). A subscriber's failure is logged and never
undoes or breaks the action that was published.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from django.db import transaction

log = logging.getLogger(__name__)

# "presence" will join these. "offer" (an offer made, or a yes to one), "declined" (an offer
# declined or withdrawn: the offers change and the chat says so), "ended" (a
# resignation or an agreed draw) and "takeback" change what pages show without a move: the
# ply stays, or (a takeback) goes back to an earlier number. "rematch": the finished game
# now names its rematch (the new game itself is "created"). "chat": a line said or hidden;
# "named": a seat's display name; "aborted": a moderator ended the game. "back": a seat
# taken for gone is back (its player's page polled), so no claim is offered against it.
EventKind = Literal[
    "created",
    "joined",
    "moved",
    "imported",
    "offer",
    "declined",
    "ended",
    "takeback",
    "rematch",
    "chat",
    "named",
    "aborted",
    "back",
]


@dataclass(frozen=True)
class GameEvent:
    """Something happened to a game: it is now at ``ply``."""

    game_id: int
    ply: int
    kind: EventKind
    # Whether the change left the computer to move; None when the publisher did not say
    # (a subscriber that cares looks it up).
    ai_due: bool | None = None
    # Whether the game's clock runs (a move says; None elsewhere): the turn and end emails
    # are for clocked games, and a move of any other costs them no read of the game.
    clock_runs: bool | None = None


Subscriber = Callable[[GameEvent], None]
_subscribers: list[Subscriber] = []


def subscribe(subscriber: Subscriber) -> None:
    """Call ``subscriber`` with every event from now on (once, however often registered)."""
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)


def unsubscribe(subscriber: Subscriber) -> None:
    if subscriber in _subscribers:
        _subscribers.remove(subscriber)


def subscribers() -> tuple[Subscriber, ...]:
    return tuple(_subscribers)


def publish(event: GameEvent) -> None:
    """Deliver ``event`` after the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: deliver(event))


def deliver(event: GameEvent) -> None:
    """Every subscriber, in the order they registered; none can break the others."""
    for subscriber in tuple(_subscribers):
        try:
            subscriber(event)
        except Exception:
            log.exception("subscriber %r failed on %s", subscriber, event)

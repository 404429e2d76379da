"""What the lobby does when an account is closed or banned (``accounts.services.withdrawn``,
connected in ``LobbyConfig.ready()``): its open seeks are cancelled, its places in the
pools given up, and its seeks' secrets stop holding a seat in a game still in play, so
nobody goes on playing (or being rated) as the account through them."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from games.models import Game, Seat
from lobby import changes
from lobby.models import PoolEntry, Seek


def account_withdrawn(sender: Any, user: Any, player_id: str, **kwargs: Any) -> None:
    withdraw(user, player_id)


def withdraw(user: Any, player_id: str) -> tuple[int, int]:
    """Cancel the seeks and pool places of the account (``user``, ``player_id``); the seeks
    cancelled and the places given up."""
    theirs = Q(user=user) | Q(player_id=player_id)
    with transaction.atomic():
        cancelled = Seek.objects.filter(theirs, status=Seek.Status.OPEN).update(status=Seek.Status.CANCELLED)
        left, _ = PoolEntry.objects.filter(theirs, game__isnull=True).delete()
        taken = Seek.objects.filter(theirs, status=Seek.Status.TAKEN, game__status__lt=Game.FINISHED)
        secrets = [row for row in taken.values_list("game_id", "token_hash") if row[1]]
        for game_id, token_hash in secrets:
            Seat.objects.filter(game_id=game_id, token_hash=token_hash).update(token_hash="")
    if cancelled or left:
        changes.changed()
    return cancelled, left

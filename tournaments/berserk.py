"""Berserk: in an arena, a player halves their own clock before their first move, for one
more point if they win (tournaments/rules/arena.py scores it)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.events import GameEvent, publish
from games.services.base import ServiceError, locked_game
from tournaments import changes, services
from tournaments.models import Entry, Pairing, Tournament


def berserk(tournament_id: int, user: Any) -> Pairing:
    """Halve the player's clock in its current arena game (once; again changes nothing)."""
    services.player_account(user)
    with transaction.atomic():
        tournament = services.get(tournament_id)
        if tournament.kind != Tournament.Kind.ARENA:
            raise ServiceError("not_an_arena", _("Berserk is for arenas."), 409)
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is None:
            raise ServiceError("not_joined", _("You are not in this tournament."), 409)
        if entry.game_id is None:
            raise ServiceError("not_playing", _("You have no game in play in this tournament."), 409)
        game = locked_game(entry.game_id)  # the game first, then the pairing: as a move, then its end
        pairing = Pairing.objects.select_for_update().get(game=game)
        first = pairing.first_id == entry.pk
        if pairing.first_berserk if first else pairing.second_berserk:
            return pairing
        seat = next(s.index for s in game.seat_list if s.player_id == entry.player_id)
        if game.is_finished or any(mover == seat for mover, _text in game.move_rows):
            raise ServiceError("too_late", _("Berserk is before your first move."), 409)
        if not game.remaining:
            raise ServiceError("too_late", _("The game has no clock running."), 409)
        times = list(game.remaining)
        times[seat] = times[seat] // 2
        game.remaining = times
        game.save(update_fields=["remaining"])
        if first:
            pairing.first_berserk = True
        else:
            pairing.second_berserk = True
        pairing.save(update_fields=["first_berserk", "second_berserk"])
        # The clock's new time reaches the game's pages with a fresh rendering ("named":
        # what a seat shows changed, the position did not).
        publish(GameEvent(game.pk, game.ply, "named"))
        changes.changed(tournament.pk)
    return pairing

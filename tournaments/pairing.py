"""Pairing and scoring: the tick that starts, pairs and finishes tournaments, and a game's end.

The tick runs on each web process's event loop every ``TOURNAMENT_TICK`` seconds
(tournaments/live.py), and in tests by hand. Each tournament is paired under its row lock
taken with ``skip_locked``: while one process pairs it the others pass it by, and the one
that pairs reads the free players after taking the lock, so nobody is paired twice. A
game is created with both seats taken inside the wave's transaction: a withdrawal waits
for the wave and never leaves a one-seat game.

A game's end (games' end hook, in the transaction that ends the game) scores it and
frees both players at once for the next wave.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game
from games.services import moves
from tournaments import changes, services
from tournaments.models import Entry, Pairing, Schedule, Tournament
from tournaments.rules import arena, swiss

log = logging.getLogger(__name__)


def make_game(tournament: Tournament, first: Entry, second: Entry, number: int) -> Pairing:
    """The game between two entries, ``first`` in the first seat, both seats taken; the
    entries point at it (the caller holds the tournament's lock and the entries')."""
    created = moves.create_game(
        tournament.game,
        tournament.options,
        opponent="human",
        seat="first",
        player_id=first.player_id,
        clock=tournament.clock,
        rated=tournament.rated,
    )
    game = created.game
    moves.join_game(game.pk, invite=game.invite_code, player_id=second.player_id)
    Entry.objects.filter(pk__in=[first.pk, second.pk]).update(game=game, free_since=None)
    first.game = second.game = game
    return Pairing.objects.create(tournament=tournament, round=number, first=first, second=second, game=game)


def arena_wave(tournament: Tournament, rng: random.Random) -> list[Pairing]:
    """Pair the arena's free players (the caller holds its lock)."""
    free = list(
        Entry.objects.select_for_update().filter(tournament=tournament, withdrawn=False, game__isnull=True)
    )
    if len(free) < 2:
        return []
    active = Entry.objects.filter(tournament=tournament, withdrawn=False).count()
    by_id = {entry.pk: entry for entry in free}
    chosen = arena.wave(
        [arena.Free(e.pk, e.score, e.rating, e.last_opponent_id) for e in free], allow_rematch=active == 2
    )
    number = (tournament.pairings.order_by("-round").values_list("round", flat=True).first() or 0) + 1
    made = []
    for a, b in chosen:
        first, second = (by_id[a], by_id[b]) if rng.random() < 0.5 else (by_id[b], by_id[a])
        made.append(make_game(tournament, first, second, number))
    return made


def swiss_player(entry: Entry, played: list[Pairing]) -> swiss.Player:
    mine = [p for p in played if entry.pk in (p.first_id, p.second_id)]
    games = [p for p in mine if p.second_id is not None]
    opponents = {p.second_id if p.first_id == entry.pk else p.first_id for p in games}
    last = games[-1] if games else None
    return swiss.Player(
        id=entry.pk,
        number=entry.number or 10**6 + entry.pk,
        score=entry.score,
        opponents=frozenset(o for o in opponents if o is not None),
        firsts=sum(1 for p in games if p.first_id == entry.pk),
        seconds=sum(1 for p in games if p.second_id == entry.pk),
        last_seat=None if last is None else (0 if last.first_id == entry.pk else 1),
        had_bye=any(p.second_id is None for p in mine),
    )


def swiss_round(tournament: Tournament, now: datetime) -> list[Pairing]:
    """Pair the next round once the last one is over; finish after the last round."""
    played = list(tournament.pairings.order_by("pk"))
    if any(not p.done for p in played if p.round == tournament.round):
        return []
    tie_breaks(tournament, played)
    players = list(Entry.objects.select_for_update().filter(tournament=tournament, withdrawn=False))
    if tournament.round >= (tournament.rounds or 0) or len(players) < 2:
        services.finish(tournament, now)
        return []
    by_id = {entry.pk: entry for entry in players}
    next_round = swiss.pair_round([swiss_player(e, played) for e in players])
    if not next_round.pairs:  # everyone has met: the event ends early
        services.finish(tournament, now)
        return []
    tournament.round += 1
    tournament.save(update_fields=["round"])
    made = [make_game(tournament, by_id[a], by_id[b], tournament.round) for a, b in next_round.pairs]
    if next_round.bye is not None:
        bye = by_id[next_round.bye]
        Pairing.objects.create(
            tournament=tournament, round=tournament.round, first=bye, done=True,
            first_points=swiss.BYE, first_result=swiss.BYE,
        )  # fmt: skip
        Entry.objects.filter(pk=bye.pk).update(score=bye.score + swiss.BYE, sheet=f"{bye.sheet} B".strip())
    return made


def tie_breaks(tournament: Tournament, played: list[Pairing]) -> None:
    """Store each Swiss player's Buchholz and Sonneborn-Berger after a round."""
    games = [
        swiss.Game(p.first_id, p.second_id, p.first_result)
        for p in played
        if p.done and p.first_result is not None
    ]
    for entry_id, (buchholz, sonneborn) in swiss.tie_breaks(games).items():
        Entry.objects.filter(pk=entry_id).update(buchholz=buchholz, sonneborn=sonneborn)


def pair(tournament_id: int, now: datetime | None = None, rng: random.Random | None = None) -> int:
    """Start, pair or finish one tournament, if no other process is at it; the games made."""
    now = now or timezone.now()
    rng = rng or random.Random(secrets.randbits(64))
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(skip_locked=True).filter(pk=tournament_id).first()
        if tournament is None or tournament.status == Tournament.Status.FINISHED:
            return 0
        if tournament.status == Tournament.Status.UPCOMING:
            if tournament.starts_at > now:
                return 0
            services.start(tournament, now)
        if tournament.kind == Tournament.Kind.ARENA:
            if tournament.ends_at is not None and tournament.ends_at <= now:
                services.finish(tournament, now)
                return 0
            made = arena_wave(tournament, rng)
        else:
            made = swiss_round(tournament, now)
        if made:
            changes.changed(tournament.pk)
    return len(made)


# Called after each tick with its seconds and the games it made (the site's metrics listen).
tick_observers: list[Callable[[float, int], None]] = []


def tick(now: datetime | None = None) -> int:
    """One round of the timer: make the scheduled tournaments, then start, pair and finish
    every tournament that is due; the games made."""
    started = time.perf_counter()
    now = now or timezone.now()
    from_schedules(now)
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.RUNNING) | Q(status=Tournament.Status.UPCOMING, starts_at__lte=now)
    ).values_list("pk", flat=True)
    made = sum(pair(tournament_id, now) for tournament_id in list(due))
    for observer in tick_observers:
        observer(time.perf_counter() - started, made)
    return made


def outcome_of(game: Game, seat: int) -> arena.Outcome | None:
    """What the game was for ``seat``: None when it did not count (aborted)."""
    if game.status == Game.Status.DRAWN:
        return "draw"
    if game.status == Game.Status.WON:
        winners = (game.result or {}).get("winners") or ([game.winner] if game.winner is not None else [])
        return "win" if seat in winners else "loss"
    return None


def game_ended(game: Game) -> None:
    """Games' end hook: score a tournament game and free its players for the next wave."""
    pairing = Pairing.objects.select_for_update().filter(game=game, done=False).first()
    if pairing is None or pairing.second_id is None:
        return
    tournament = pairing.tournament
    entries = {
        e.pk: e
        for e in Entry.objects.select_for_update().filter(pk__in=[pairing.first_id, pairing.second_id])
    }
    first, second = entries[pairing.first_id], entries[pairing.second_id]
    seat_of = {s.player_id: s.index for s in game.seat_list}
    counts = tournament.status == Tournament.Status.RUNNING
    idle = (game.result or {}).get("no_start") if game.status == Game.Status.ABORTED else None
    now = timezone.now()
    results = []
    for me, them, berserk in (
        (first, second, pairing.first_berserk),
        (second, first, pairing.second_berserk),
    ):
        seat = seat_of.get(me.player_id, 0)
        said = outcome_of(game, seat)
        if tournament.kind == Tournament.Kind.SWISS and idle is not None:
            said = "loss" if seat == idle else "win"  # a missed first move forfeits a round
        points = 0
        if said is not None and counts:
            if tournament.kind == Tournament.Kind.ARENA:
                scored = arena.score(me.streak, said, berserk)
                points, me.streak = scored.points, scored.streak
            else:
                points = {"win": swiss.WIN, "draw": swiss.DRAW, "loss": swiss.LOSS}[said]
            me.score += points
        me.sheet = f"{me.sheet} {points if said is not None else '-'}".strip()[-2000:]
        if idle is not None and seat == idle and tournament.kind == Tournament.Kind.ARENA:
            me.withdrawn = True  # gone from the board: not paired again until it joins again
        me.game, me.last_opponent, me.free_since = None, them, now
        me.save(
            update_fields=["score", "streak", "sheet", "withdrawn", "game", "last_opponent", "free_since"]
        )
        results.append(points)
    pairing.done = True
    pairing.first_points, pairing.second_points = results
    winner_seat = seat_of.get(first.player_id, 0)
    said_first = outcome_of(game, winner_seat)
    if tournament.kind == Tournament.Kind.SWISS and idle is not None:
        said_first = "loss" if winner_seat == idle else "win"
    if said_first is not None:
        pairing.first_result = {"win": swiss.WIN, "draw": swiss.DRAW, "loss": swiss.LOSS}[said_first]
    pairing.save(update_fields=["done", "first_points", "second_points", "first_result"])
    changes.changed(tournament.pk)
    changes.freed(tournament.pk)


def from_schedules(now: datetime) -> int:
    """Make the scheduled tournaments due within their ``ahead_minutes``; the number made."""
    made = 0
    for schedule in Schedule.objects.filter(active=True):
        made += services.from_schedule(schedule, now)
    return made

"""Rating games: once, in the transaction that ends them; resets and voids by moderators.

Only two-seat games marked rated (with a clock) when the seek was made, between two
different accounts or an account and a computer level whose rating is established, and
ended by a result (the rules, a resignation, a draw, time, or a claim against a player who
left) after both sides have moved change ratings. An aborted game (a rated game that ends
before both sides have moved is aborted: ``games.services.base.finish_game``), a game
closed with no winner and an unlimited game change nothing. One game moves a rating by at
most ``glicko2.MAX_CHANGE`` points.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import catalog
from games.models import Game
from ratings import glicko2
from ratings.models import Rating, RatingChange

RESULTS = (Game.Status.WON, Game.Status.DRAWN)


def scores(game: Game) -> list[float] | None:
    """Each seat's score (1, 0.5, 0), or None when the game is not one a rating can use."""
    if game.status == Game.Status.DRAWN:
        return [0.5, 0.5]
    if game.status == Game.Status.WON and game.winner in (0, 1):
        return [1.0 if seat == game.winner else 0.0 for seat in (0, 1)]
    return None


def level_opponent(game: Game) -> glicko2.Rating | None:
    """The computer's level's measured rating, when the game is against an established level."""
    if not game.ai_level:
        return None
    measured = catalog.get(game.kind).level_rating(game.ai_level)
    if measured is None or not measured.established:
        return None
    return glicko2.Rating(measured.rating, measured.rd)


def ratable(game: Game) -> bool:
    """Rated, ended by a result, on a running clock, two seats: two different accounts,
    or one account against a computer level whose rating is established."""
    seats = game.seat_list
    if not (
        game.rated
        and game.status in RESULTS
        and game.reason != Game.Reason.NO_START
        and game.time_control.runs
        and len(seats) == 2
    ):
        return False
    if {seat for seat, _ in game.move_rows} != {seat.index for seat in seats}:
        return False  # ended before both sides moved: aborted, never rated
    people = [seat for seat in seats if not seat.is_ai]
    if len(people) == 1:
        return people[0].user_id is not None and level_opponent(game) is not None
    users = [seat.user_id for seat in people]
    return all(users) and users[0] != users[1]


def _locked(user_id: int, kind: str, speed: str) -> Rating:
    Rating.objects.get_or_create(user_id=user_id, kind=kind, speed=speed)
    return Rating.objects.select_for_update().get(user_id=user_id, kind=kind, speed=speed)


def game_ended(game: Game) -> None:
    """games' end hook (registered in ``RatingsConfig.ready()``)."""
    rate_game(game)


def rate_game(game: Game) -> list[RatingChange]:
    """Rate ``game`` if it is rated and not rated yet (its row is locked, and the changes
    are unique per game and seat). Against the computer only the account's rating moves,
    against the level's measured rating (the level's own stays as measured). The changes
    made."""
    if not ratable(game) or RatingChange.objects.filter(game=game).exists():
        return []
    points = scores(game)
    if points is None:
        return []
    kind, speed = game.kind, game.time_control.speed
    seats = [seat for seat in game.seat_list if seat.user_id is not None]
    by_user = {user: _locked(user, kind, speed) for user in sorted(s.user_id for s in seats if s.user_id)}
    level = level_opponent(game)
    if level is not None:
        [seat] = seats
        row = by_user[seat.user_id or 0]
        moved = {seat.index: (row, glicko2.rate(row.value, [glicko2.Result(level, points[seat.index])]))}
    else:
        first, second = (by_user[seat.user_id or 0] for seat in seats)
        after = glicko2.game(first.value, second.value, points[0])
        moved = {0: (first, after[0]), 1: (second, after[1])}
    now = timezone.now()
    changes = []
    for seat_index, (row, new) in moved.items():
        changes.append(
            RatingChange(
                game=game,
                seat=seat_index,
                user_id=row.user_id,
                kind=kind,
                speed=speed,
                score=points[seat_index],
                before=row.rating,
                after=new.rating,
                rd_before=row.rd,
                rd_after=new.rd,
                volatility_before=row.volatility,
                volatility_after=new.volatility,
            )
        )
        row.rating, row.rd, row.volatility = new.rating, new.rd, new.volatility
        row.games += 1
        row.last_game = now
        row.save()
    return RatingChange.objects.bulk_create(changes)


def reset(rating: Rating) -> None:
    """A moderator starts a rating over (1500, RD 500); its history stays."""
    rating.rating, rating.rd, rating.volatility = (
        glicko2.START_RATING,
        glicko2.START_RD,
        glicko2.START_VOLATILITY,
    )
    rating.save(update_fields=["rating", "rd", "volatility"])


def _latest(change: RatingChange) -> bool:
    """Whether ``change`` is the last rated game of its account in its kind and speed."""
    later = RatingChange.objects.filter(
        user_id=change.user_id, kind=change.kind, speed=change.speed, voided=None, pk__gt=change.pk
    )
    return not later.exists()


def _undo(row: Rating, change: RatingChange, keep_losses: bool) -> None:
    """Take ``change`` out of ``row``. When it was the account's last rated game the
    rating, RD and volatility go back to what they were before it; after later games the
    rating gets its loss back (the cheater keeps losses, ``keep_losses``) and the RD
    loses the certainty the game gave (its 1/RD² share). The game no longer counts."""
    lost = min(change.delta, 0)
    if _latest(change) and not (keep_losses and lost):
        row.rating, row.rd, row.volatility = change.before, change.rd_before, change.volatility_before
    else:
        row.rating -= max(change.delta, 0) if keep_losses else lost
        certainty = 1 / row.rd**2 - (1 / change.rd_after**2 - 1 / change.rd_before**2)
        rd = 1 / math.sqrt(certainty) if certainty > 0 else glicko2.MAX_RD
        row.rd = min(glicko2.MAX_RD, max(glicko2.MIN_RD, rd))
    row.games = max(0, row.games - 1)
    row.save(update_fields=["rating", "rd", "volatility", "games"])


def void_games_of(user_id: int) -> int:
    """A cheater's rated games are voided, latest first: each opponent's rating, RD,
    volatility and games count are put back as before the game (see :func:`_undo`), the
    cheater's gains are taken back, and every change is marked voided. How many games."""
    voided = 0
    with transaction.atomic():
        mine = list(
            RatingChange.objects.select_for_update().filter(user_id=user_id, voided=None).order_by("-pk")
        )
        now = timezone.now()
        for change in mine:
            others = RatingChange.objects.select_for_update().filter(game_id=change.game_id, voided=None)
            for each in others:
                _undo(_locked(each.user_id, each.kind, each.speed), each, keep_losses=each.user_id == user_id)
                each.voided = now
                each.save(update_fields=["voided"])
            voided += 1
    return voided


# -- reading ----------------------------------------------------------------------------

LEADERBOARD_SIZE = 100
ACTIVE_DAYS = 30


def ratings_of(user: Any) -> list[Rating]:
    """The account's ratings, one per game and speed it has played rated."""
    return list(Rating.objects.filter(user=user, games__gt=0).order_by("kind", "speed"))


def leaderboard(kind: str, speed: str, now: datetime | None = None) -> list[Rating]:
    """The top ``LEADERBOARD_SIZE`` established ratings of players active in the last
    ``ACTIVE_DAYS`` days (a rated game), accounts in good standing only."""
    since = (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)
    rows = (
        Rating.objects.filter(kind=kind, speed=speed, last_game__gte=since, rd__lte=glicko2.PROVISIONAL_RD)
        .filter(user__is_active=True)
        .exclude(user__account__banned=True)
        .exclude(user__account__closed__isnull=False)
        .select_related("user")
        .order_by("-rating", "user__username")
    )
    return list(rows[:LEADERBOARD_SIZE])


def history(user: Any, kind: str, speed: str) -> list[RatingChange]:
    """The account's rated games in one game and speed, oldest first (voided ones left out)."""
    return list(
        RatingChange.objects.filter(user=user, kind=kind, speed=speed, voided=None)
        .select_related("game")
        .order_by("created", "pk")
    )


def changes_of(game: Game) -> dict[int, RatingChange]:
    """Seat -> what the game did to its rating (empty for a game not rated)."""
    return {change.seat: change for change in RatingChange.objects.filter(game=game, voided=None)}


def seat_ratings(game: Game) -> dict[int, Rating]:
    """Seat -> the account's current rating in this game's kind and speed (a rated game's
    seats only)."""
    if not game.rated:
        return {}
    users = {seat.index: seat.user_id for seat in game.seat_list if seat.user_id}
    rows = {
        row.user_id: row
        for row in Rating.objects.filter(
            user_id__in=users.values(), kind=game.kind, speed=game.time_control.speed
        )
    }
    return {seat: rows.get(user_id) or Rating(user_id=user_id) for seat, user_id in users.items()}


def seat_view(game: Game) -> dict[int, dict[str, Any]]:
    """games' seat ratings provider (registered in ``RatingsConfig.ready()``): each account
    seat's rating before the game and, once rated, the change; a computer seat's level
    rating when it is established."""
    changes = changes_of(game)
    shown: dict[int, dict[str, Any]]
    if changes:
        shown = {
            seat: {
                "rating": glicko2.points(change.before),
                "provisional": change.rd_before > glicko2.PROVISIONAL_RD,
                "change": change.points,
            }
            for seat, change in changes.items()
        }
    else:
        shown = {
            seat: {"rating": glicko2.points(row.rating), "provisional": row.provisional, "change": None}
            for seat, row in seat_ratings(game).items()
        }
    level = level_opponent(game)
    for seat in game.seat_list:
        if seat.is_ai and level is not None:
            shown[seat.index] = {"rating": glicko2.points(level.rating), "provisional": False, "change": None}
    return shown

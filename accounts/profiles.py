"""What a profile shows: the account's games per game kind (won, drawn, lost; an aborted
game is not counted), the recent games and those being played. Read from the seats the
account holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import catalog
from games.models import Game, Seat

RECENT = 10


@dataclass
class KindRecord:
    kind: str
    title: str
    won: int = 0
    drawn: int = 0
    lost: int = 0
    other: int = 0

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost + self.other


@dataclass
class Profile:
    records: list[KindRecord] = field(default_factory=list)
    recent: list[dict[str, Any]] = field(default_factory=list)
    playing: list[Game] = field(default_factory=list)


def outcome(game: Game, held: set[int]) -> str:
    """ "won", "drawn", "lost" or "" (aborted, abandoned without a winner, not over)."""
    if game.status == Game.Status.DRAWN:
        return "drawn"
    if game.status >= Game.FINISHED and game.winner is not None and game.status != Game.Status.ABORTED:
        return "won" if game.winner in held else "lost"
    return ""


def profile_of(user: Any) -> Profile:
    held: dict[int, set[int]] = {}
    for game_id, index in Seat.objects.filter(user=user).values_list("game_id", "index"):
        held.setdefault(game_id, set()).add(index)
    games = list(Game.objects.filter(pk__in=held).order_by("-created"))
    records: dict[str, KindRecord] = {}
    profile = Profile()
    for game in games:
        if not game.is_finished:
            profile.playing.append(game)
            continue
        result = outcome(game, held[game.pk])
        if len(profile.recent) < RECENT:
            profile.recent.append({"game": game, "result": result or game.get_status_display()})
        if game.status == Game.Status.ABORTED:
            continue  # never played out: not counted among the games played
        spec = catalog.CATALOG.get(game.kind)
        row = records.setdefault(game.kind, KindRecord(game.kind, spec.title if spec else game.kind))
        if result == "won":
            row.won += 1
        elif result == "drawn":
            row.drawn += 1
        elif result == "lost":
            row.lost += 1
        else:
            row.other += 1
    profile.records = sorted(records.values(), key=lambda r: r.title)
    return profile

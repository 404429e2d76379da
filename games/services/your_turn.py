"""The games waiting for a player's move: the "your turn" list of the home page and the profile.

Game has no "to move" column: the seat to move comes from the replayed state of each
candidate (a game in play with a running clock where the player holds a seat). Replaying
these games costs well under a millisecond each, and the candidates are few and
bounded, so no denormalised column has to be kept right by every move and takeback.
Correspondence games come first in practice (their deadlines are days away, but a
real-time game in play is listed too: a tab closed by mistake finds it again).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import catalog, clocks
from games.models import Game, Seat
from games.services import clocks as game_clocks

LIMIT = 50
# Candidates read per list: a player in more games than this sees the soonest deadlines.
CANDIDATES = 4 * LIMIT


@dataclass(frozen=True)
class TurnRow:
    game: Game
    title: str
    control: str  # "3 days", "3+2"
    left_ms: int  # until the game ends for this turn (a flag or an abort)
    first_move: bool  # the turn is the player's first: missing it aborts the game

    @property
    def left(self) -> str:
        """The time left as people read it: "2d 3h", "5h 07m", "2:58"."""
        return clocks.clock_text(self.left_ms)

    @property
    def url(self) -> str:
        return self.game.get_absolute_url()


def games_to_play(player_id: str | None, limit: int = LIMIT, when: datetime | None = None) -> list[TurnRow]:
    """The games with a running clock where ``player_id`` holds the seat to move, the
    soonest deadline first (at most ``limit``)."""
    if not player_id:
        return []
    when = when or game_clocks.now()
    held: dict[int, set[int]] = {}
    seats = Seat.objects.filter(
        player_id=player_id, game__status=Game.Status.PLAYING, game__deadline__isnull=False
    ).values_list("game_id", "index")
    for game_id, index in seats:
        held.setdefault(game_id, set()).add(index)
    games = Game.objects.filter(pk__in=held).order_by("deadline", "pk")[:CANDIDATES]
    rows: list[TurnRow] = []
    for game in games:
        if not game_clocks.running(game) or game.deadline is None:
            continue
        if game.state.to_move not in held[game.pk]:
            continue
        spec = catalog.CATALOG.get(game.kind)
        left = max(0, round((game.deadline - when).total_seconds() * 1000))
        rows.append(
            TurnRow(
                game=game,
                title=spec.title if spec else game.kind,
                control=game.time_control.label,
                left_ms=left,
                first_move=game_clocks.first_turn_of_mover(game),
            )
        )
        if len(rows) >= limit:
            break
    return rows

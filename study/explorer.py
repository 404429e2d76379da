"""The explorer: how the site's finished games went from a position, action by action.

Each action of a game that ends (won or drawn) is filed under the position it was played
from, in the game's notation, with the result for the player who acted; a position's
answer counts them. Filled by the end of every game (an end hook) and, for the games
before, by ``manage.py index_explorer``.
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Count, Q

from games import catalog
from games.models import Game
from study.models import ExplorerMove

RESULTS = ("win", "draw", "loss")


def options_key(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True)


def index_game(game: Game) -> int:
    """File a finished game's actions (again: a game already filed is left as it is)."""
    spec = catalog.get(game.kind)
    if spec.notation is None or game.status not in (Game.Status.WON, Game.Status.DRAWN):
        return 0
    if ExplorerMove.objects.filter(game=game).exists():
        return 0
    options = spec.rules.clean_options(game.options)
    state = spec.rules.new_state(options)
    rows = []
    for ply, text in enumerate(game.move_texts):
        mover = state.to_move
        result = "draw" if game.winner is None else "win" if game.winner == mover else "loss"
        rows.append(
            ExplorerMove(
                game=game,
                ply=ply,
                kind=game.kind,
                options=options_key(options),
                position=spec.notation.format(state),
                move=text,
                result=result,
            )
        )
        state = state.play(spec.rules.parse_move(text))
    ExplorerMove.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def game_ended(game: Game) -> None:
    index_game(game)


def explore(kind: str, options: dict[str, Any], position: str | None) -> list[dict[str, Any]]:
    """Each action played from ``position`` in the site's finished games: how often, and
    how those games went for the player who acted; most played first."""
    if position is None:
        return []
    rows = (
        ExplorerMove.objects.filter(kind=kind, options=options_key(options), position=position)
        .values("move")
        .annotate(
            games=Count("id"),
            won=Count("id", filter=Q(result="win")),
            drawn=Count("id", filter=Q(result="draw")),
            lost=Count("id", filter=Q(result="loss")),
        )
        .order_by("-games", "move")
    )
    return [dict(row) for row in rows]

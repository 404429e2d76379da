"""A game as data: the JSON position (API, JSON socket) and the record files to download."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, JsonResponse

from games import catalog
from games.formats import records
from games.models import Game
from games.presenting import clockdata, seat_ratings
from games.services import policy

# The reasons that end a game whose position is still being played.
ENDED_BY_PEOPLE = (Game.Reason.RESIGNED, Game.Reason.AGREED, Game.Reason.ABANDONED)
ENDED_BY_CLOCK = (Game.Reason.TIMEOUT, Game.Reason.NO_START)
ENDED_OFF_THE_BOARD = ENDED_BY_PEOPLE + ENDED_BY_CLOCK


def status_word(game: Game) -> str:
    if game.status == Game.Status.WAITING:
        return "waiting"
    if game.status == Game.Status.ABANDONED:
        return "abandoned"
    return "finished" if game.is_finished else "playing"


def game_json(game: Game) -> dict[str, Any]:
    """The position as the API and the JSON WebSocket send it."""
    spec = catalog.get(game.kind)
    data = {"id": game.pk, **spec.serialize(game.options, game.state, game.move_texts, status_word(game))}
    ratings = seat_ratings.of(game)
    data["rated"] = game.rated
    data["seats"] = [
        {
            "seat": s.index,
            "kind": s.kind,
            "label": s.label,
            "open": s.is_open,
            "user": s.user.get_username() if s.user is not None else None,
            # A rated game's seat: its rating before the game, and the change once rated.
            "rating": ratings.get(s.index),
        }
        for s in game.seat_list
    ]
    if game.ai_level:
        data["level"] = game.ai_level
    if game.reason in ENDED_OFF_THE_BOARD and game.result is not None:
        # The rules did not end it: the position alone says "playing".
        data["status"] = status_word(game)
        data["legal_moves"] = []
        data["to_move"] = None
        data["result"] = {
            "winner": game.winner,
            "lines": [],
            **{
                k: game.result[k]
                for k in ("winners", "resigned", "abandoned", "timeout", "no_start", "ended_by")
                if k in game.result
            },
        }
    data["reason"] = game.reason or None
    data["offers"] = {kind: list(offer["seats"]) for kind, offer in game.offers.items()}
    data["takebacks"] = game.takebacks
    data["allow_takebacks"] = policy.takeback_refusal(game) is None  # what may be asked, rated or not
    data["rematch"] = game.rematch_id
    data["revision"] = game.revision
    data.update(clockdata.clock_json(game))
    # The server's time: set by whoever sends the state (clockdata.as_of, audiences.stamped).
    data["now"] = None
    return data


def record_result(game: Game) -> tuple[str, str]:
    """The record's ``Result`` and ``Termination`` (blank when the rules ended the game)."""
    state = game.state
    if game.status == Game.Status.ABANDONED or game.reason == Game.Reason.NO_START:
        return records.UNFINISHED, str(game.reason)
    if game.reason in ENDED_OFF_THE_BOARD and game.result is not None:
        winners = game.result.get("winners") or ([] if game.winner is None else [game.winner])
        return records.shared_result(winners, state.num_players), str(game.reason)
    return records.result_text(state.outcome, state.num_players), ""


def game_record(game: Game) -> records.Record:
    result, termination = record_result(game)
    return records.Record(
        kind=game.kind,
        options=game.options,
        moves=tuple(game.move_texts),
        players=tuple(s.label for s in game.seat_list),
        date=game.created.date().isoformat(),
        result=result,
        termination=termination,
        clock=game.clock or None,
        move_clocks=tuple(game.moves.order_by("ply").values_list("clock_ms", flat=True)),
    )


def record_download(game: Game, format: str) -> HttpResponse:
    """The game's record as a file to save: ``format`` is "text" or "json"."""
    record = game_record(game)
    name = f"{game.kind}-{game.pk}"
    if format == "json":
        response: HttpResponse = JsonResponse(records.to_json(record), json_dumps_params={"indent": 1})
        name += ".json"
    elif format == "text":
        response = HttpResponse(records.format_text(record), content_type="text/plain; charset=utf-8")
        name += ".txt"
    else:
        raise ValueError(f"no record format {format!r}")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response

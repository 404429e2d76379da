"""A game in sentences, from the viewer's side: seat names, the status line, the review.

The phrases of each game's actions come from its catalog entry
(:class:`games.formats.phrases.ActionWords`); this module only puts who did what around them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from games import catalog
from games.ai.base import ReviewEntry
from games.catalog import GameSpec
from games.engine import State
from games.engine.grid import cell_name
from games.models import Game, Seat


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def seat_word(seat_index: int, mine: list[int], seats: list[Seat]) -> str:
    if seat_index in mine and len(mine) == 1:
        return "you"
    seat = seats[seat_index]
    if seat.is_ai:
        return "the computer"
    return seat.name or f"Player {seat_index + 1}"  # as the players panel names it


def seat_title(spec: GameSpec, seat_index: int, seats: list[Seat]) -> str:
    """A seat named so that anyone can tell it from the others: "X (the computer)",
    "Player 2 (O)", "Player 1 (the computer)", "Player 2 (Ann)"."""
    seat = seats[seat_index]
    who = "the computer" if seat.is_ai else seat.name
    if spec.symbols:
        symbol = spec.symbol(seat_index)
        return f"{symbol} ({who})" if who else f"Player {seat_index + 1} ({symbol})"
    return f"Player {seat_index + 1} ({who})" if who else f"Player {seat_index + 1}"


def seat_name(spec: GameSpec, seat_index: int, mine: list[int], seats: list[Seat]) -> str:
    """A seat as this viewer reads it: "you" for their own seat; "the computer" when only
    one seat is the computer's; the opponent's name (or "Player 2") for a player facing
    one opponent; else the seat's full :func:`seat_title`."""
    if seat_index in mine and len(mine) == 1:
        return "you"
    if seats[seat_index].is_ai and sum(s.is_ai for s in seats) == 1:
        return "the computer"
    if len(mine) == 1 and len(seats) == 2:
        return seat_word(seat_index, mine, seats)
    return seat_title(spec, seat_index, seats)


def with_symbol(spec: GameSpec, seat_index: int, who: str, seats: list[Seat]) -> str:
    """``who`` followed by the seat's symbol where seats have symbols, unless it names it."""
    if not spec.symbols or who == seat_title(spec, seat_index, seats):
        return who
    return f"{who} ({spec.symbol(seat_index)})"


def last_action_text(game: Game, state: State[Any], mine: list[int], seats: list[Seat]) -> str:
    """The newest action in words, for the status line (read out by screen readers)."""
    if not game.move_texts:
        return ""
    spec = catalog.get(game.kind)
    text = game.move_texts[-1]
    seat = game.last_seat if game.last_seat is not None else state.to_move
    who = seat_name(spec, seat, mine, seats)
    cell = spec.last_cell(state, spec.last_move(game.move_texts))
    where = cell_name(cell, state.width) if cell is not None else text
    return f"{capital(with_symbol(spec, seat, who, seats))} {spec.words.last(state, text, where)}."


def outcome_text(game: Game, state: State[Any], mine: list[int], seats: list[Seat]) -> str:
    """Who won, said from the viewer's side: "You win!", "You lose: the computer wins.",
    or for a spectator "X (the computer) wins!"."""
    spec = catalog.get(game.kind)
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        return spec.words.draw
    winner = seat_name(spec, outcome.winner, mine, seats)
    if winner == "you":
        text = "You win!"
    elif len(mine) == 1:
        text = f"You lose: {with_symbol(spec, outcome.winner, winner, seats)} wins."
    else:
        text = f"{capital(with_symbol(spec, outcome.winner, winner, seats))} wins!"
    if outcome.shared:
        text += f" The line shares: {', '.join(outcome.shared)}."
    return text


def reason_text(game: Game, mine: list[int], seats: list[Seat]) -> str | None:
    """How a game the rules did not end ended: "Player 2 resigned: you win.", "Draw agreed."."""
    if game.reason == Game.Reason.AGREED:
        return "Draw agreed."
    if game.reason == Game.Reason.ABANDONED and game.result is not None:
        return abandoned_text(game, mine, seats)
    if game.reason == Game.Reason.TIMEOUT and game.result is not None:
        return timeout_text(game, mine, seats)
    if game.reason == Game.Reason.NO_START and game.result is not None:
        return no_start_text(game, mine, seats)
    if game.reason != Game.Reason.RESIGNED or game.result is None:
        return None
    return lost_text(game, game.result["resigned"], "resigned", mine, seats)


def lost_text(game: Game, loser: int, what: str, mine: list[int], seats: list[Seat]) -> str:
    """One seat lost by ``what`` it did ("resigned", "ran out of time"): "You resigned:
    Player 2 wins.", "Player 2 ran out of time: you win.", with three or four seats "...:
    the others share the win."."""
    spec = catalog.get(game.kind)
    who = seat_name(spec, loser, mine, seats)
    said = f"You {what}" if who == "you" else f"{capital(with_symbol(spec, loser, who, seats))} {what}"
    if game.winner is None:
        others = "you share the win" if set(mine) - {loser} else "the others share the win"
        return f"{said}: {others}."
    winner = seat_name(spec, game.winner, mine, seats)
    if winner == "you":
        return f"{said}: you win."
    return f"{said}: {with_symbol(spec, game.winner, winner, seats)} wins."


def timeout_text(game: Game, mine: list[int], seats: list[Seat]) -> str:
    """ "You ran out of time: Player 2 wins.", "Player 2 ran out of time: you win."."""
    assert game.result is not None
    return lost_text(game, game.result["timeout"], "ran out of time", mine, seats)


def no_start_text(game: Game, mine: list[int], seats: list[Seat]) -> str:
    """ "Aborted: Player 1 made no first move.", "Aborted: you made no first move."."""
    assert game.result is not None
    spec = catalog.get(game.kind)
    seat = game.result["no_start"]
    who = seat_name(spec, seat, mine, seats)
    return f"Aborted: {who if who == 'you' else with_symbol(spec, seat, who, seats)} made no first move."


def abandoned_text(game: Game, mine: list[int], seats: list[Seat]) -> str:
    """ "Player 2 left: you win.", "Player 2 left: draw.", "Player 2 left: the game was closed."."""
    assert game.result is not None
    spec = catalog.get(game.kind)
    gone = [
        capital(with_symbol(spec, s, seat_name(spec, s, mine, seats), seats))
        for s in game.result.get("abandoned", [])
    ]
    said = f"{' and '.join(gone) or 'A player'} left"
    if game.status == Game.Status.ABANDONED:
        return f"{said} and nobody claimed the game: it was closed, nobody won."
    if game.status == Game.Status.DRAWN:
        return f"{said}: the game was called a draw."
    if game.winner is None:
        shared = set(mine) & set(game.result.get("winners", []))
        others = "you share the win" if shared else "the others share the win"
        return f"{said}: {others}."
    winner = seat_name(spec, game.winner, mine, seats)
    if winner == "you":
        return f"{said}: you win."
    return f"{said}: {with_symbol(spec, game.winner, winner, seats)} wins."


PRESENCE_UNKNOWN = "Who is connected is not known right now."


def presence_text(
    names: Sequence[str | None], mine: Sequence[int], here: Collection[int], watching: int
) -> str:
    """Who is connected, from the viewer's side: every other person's seat, then how many watch.

    ``names[i]`` is seat i's display name ("" when it has none), or None when no person
    holds it (the computer, an open seat); ``mine`` the viewer's seats (none for a
    spectator); ``here`` the seats with a page open. A player is not told about themselves:
    "Your opponent is connected." (one person against another), "Bob (Player 2) is not
    connected.", "Player 3 is connected. 2 watching."."""
    facing_one = bool(mine) and len(names) == 2
    parts = []
    for index, name in enumerate(names):
        if name is None or index in mine:
            continue
        if name:
            who = f"{name} (Player {index + 1})"
        else:
            who = "Your opponent" if facing_one else f"Player {index + 1}"
        parts.append(f"{who} is {'connected' if index in here else 'not connected'}.")
    if watching:
        parts.append(f"{watching} watching.")
    return " ".join(parts)


OFFER_WORDS = {"draw": "a draw", "takeback": "a takeback", "rematch": "a rematch"}


def offer_lines(game: Game, mine: list[int], seats: list[Seat]) -> list[dict[str, Any]]:
    """The pending offers, each with its sentence and which buttons this viewer gets:
    ``answer`` (accept or decline) for a player who has not said yes, ``withdraw`` for one
    who has (with three or four seats, the others may still be deciding); spectators none."""
    spec = catalog.get(game.kind)
    lines = []
    for kind, offer in game.offers.items():
        said_yes = offer["seats"]
        offerer = said_yes[0]
        said = bool(mine) and set(mine) <= set(said_yes)
        if offerer in mine:
            text = f"You asked for {OFFER_WORDS[kind]}: waiting for an answer."
        else:
            who = capital(with_symbol(spec, offerer, seat_name(spec, offerer, mine, seats), seats))
            text = f"{who} asks for {OFFER_WORDS[kind]}."
            if said:
                text += " You said yes: waiting for the others."
        lines.append({"kind": kind, "text": text, "answer": bool(mine) and not said, "withdraw": said})
    return lines


def status_text(game: Game, state: State[Any], mine: list[int], seats: list[Seat]) -> str:
    """One sentence: the result, or who is to do what (the computer: that it is thinking)."""
    if (reason := reason_text(game, mine, seats)) is not None:
        return reason
    if state.outcome is not None:
        return outcome_text(game, state, mine, seats)
    if game.status == Game.Status.ABORTED:
        return "A moderator aborted this game: nobody won."
    if game.status == Game.Status.WAITING:
        if mine:
            return "Waiting for a friend to join: share the invite link."
        return "Waiting for players to join."
    spec = catalog.get(game.kind)
    who = seat_name(spec, state.to_move, mine, seats)
    thinking = seats[state.to_move].is_ai
    task = spec.words.turn(state)
    if task is not None:
        if who == "you":
            return f"Your turn: {task.yours}."
        if thinking:
            return f"{capital(who)} is thinking about {task.thinking}…"
        return f"{capital(who)} to {task.others}."
    if who == "you":
        return f"Your turn: you play {spec.symbol(state.to_move)}."
    who = capital(with_symbol(spec, state.to_move, who, seats))
    return f"{who} is thinking…" if thinking else f"{who} to move."


# -- post-game review ---------------------------------------------------------------

VERDICTS = {
    "best": ("✓", "best"),
    "inaccuracy": ("?!", "inaccuracy"),
    "blunder": ("??", "blunder"),
    None: ("·", "not proved"),
}


def value_words(value: str | None, distance: int | None, score: float | None = None) -> str:
    if value is None:
        return "not proved" if score is None else f"estimate {score:+.2f}"
    if value == "draw" or distance is None:
        return value
    return f"{value} in {distance}"


def review_rows(game: Game, entries: list[ReviewEntry], mine: list[int]) -> list[dict[str, Any]]:
    """The review table's rows, each action said by whom and how good it was."""
    spec = catalog.get(game.kind)
    rules = spec.rules
    state = rules.new_state(game.options)
    rows = []
    for entry in entries:
        icon, word = VERDICTS.get(entry.verdict, VERDICTS[None])
        who = seat_word(entry.seat, mine, game.seat_list)
        rows.append(
            {
                "entry": entry,
                "who": capital(who),
                "words": spec.words.review(state, entry.text),
                "best": spec.words.named(state, entry.best) if entry.best else "",
                "icon": icon,
                "verdict": word,
                "verdict_class": entry.verdict or "unknown",
                "before": value_words(entry.value_before, entry.distance_before, entry.score_before),
                "after": value_words(entry.value_after, entry.distance_after, entry.score_after),
            }
        )
        state = state.play(rules.parse_move(entry.text))
    return rows

"""A game in sentences, from the viewer's side: seat names, the status line, the review.

The phrases of each game's actions come from its catalog entry
(:class:`games.formats.action_words.ActionWords`); this module only puts who did what around them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games import catalog
from games.ai.base import ReviewEntry
from games.catalog import GameSpec
from games.engine import State
from games.engine.grid import cell_name
from games.formats import action_words
from games.models import Game, Seat

# The games' own phrases are said in the reader's language too.
action_words.translate = _

# "you" stays this word inside the module (sentences compare with it) and is said in the
# reader's language by capital() and said(); the other words are translated where made.
YOU = "you"


def _own_words() -> re.Pattern[str]:
    """The site's own lower-case words a sentence may begin with, in the reader's language;
    a player's name is never among them (names that pass for them are refused), so a name
    keeps the case it was typed in."""
    words = {YOU, _("you"), _("the computer"), _("the others")}
    return re.compile("(" + "|".join(re.escape(w) for w in words) + r")(?=$|[ (:,.])")


def said(text: str) -> str:
    """``text`` with the sentinel "you" in the reader's language."""
    return _("you") + text[len(YOU) :] if text == YOU or text.startswith(YOU + " (") else text


def capital(text: str) -> str:
    """``text`` at the start of a sentence: the site's own words capitalised ("You", "The
    computer"), a player's name ("bob853") as typed."""
    text = said(text)
    return text[:1].upper() + text[1:] if _own_words().match(text) else text


def player(seat_index: int) -> str:
    return _("Player %(number)s") % {"number": seat_index + 1}


def seat_word(seat_index: int, mine: list[int], seats: list[Seat]) -> str:
    if seat_index in mine and len(mine) == 1:
        return YOU
    seat = seats[seat_index]
    if seat.is_ai:
        return _("the computer")
    return seat.name or player(seat_index)  # as the players panel names it


def seat_title(spec: GameSpec, seat_index: int, seats: list[Seat]) -> str:
    """A seat named so that anyone can tell it from the others: "X (the computer)",
    "Player 2 (O)", "Player 1 (the computer)", "Player 2 (Ann)"."""
    seat = seats[seat_index]
    who = _("the computer") if seat.is_ai else seat.name
    if spec.symbols:
        symbol = spec.symbol(seat_index)
        return f"{symbol} ({who})" if who else f"{player(seat_index)} ({symbol})"
    return f"{player(seat_index)} ({who})" if who else player(seat_index)


def seat_name(spec: GameSpec, seat_index: int, mine: list[int], seats: list[Seat]) -> str:
    """A seat as this viewer reads it: "you" for their own seat; "the computer" when only
    one seat is the computer's; the opponent's name (or "Player 2") for a player facing
    one opponent; else the seat's full :func:`seat_title`."""
    if seat_index in mine and len(mine) == 1:
        return YOU
    if seats[seat_index].is_ai and sum(s.is_ai for s in seats) == 1:
        return _("the computer")
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
    cell = spec.where_played(state, spec.last_move(game.move_texts))
    where = cell_name(cell, state.width) if cell is not None else text
    # Said whoever did it: a language whose verb follows the person may write "{who}: {action}".
    action = spec.words.last(state, text, where)
    return _("%(who)s %(action)s.") % {"who": capital(with_symbol(spec, seat, who, seats)), "action": action}


def outcome_text(game: Game, state: State[Any], mine: list[int], seats: list[Seat]) -> str:
    """Who won, said from the viewer's side: "You win!", "You lose: the computer wins.",
    or for a spectator "X (the computer) wins!"."""
    spec = catalog.get(game.kind)
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        return _(spec.words.draw)
    winner = seat_name(spec, outcome.winner, mine, seats)
    if winner == YOU:
        text = _("You win!")
    elif len(mine) == 1:
        text = _("You lose: %(who)s wins.") % {"who": with_symbol(spec, outcome.winner, winner, seats)}
    else:
        text = _("%(who)s wins!") % {"who": capital(with_symbol(spec, outcome.winner, winner, seats))}
    if outcome.shared:
        traits = ", ".join(action_words.translate(word) for word in outcome.shared)
        text += " " + _("The line shares: %(traits)s.") % {"traits": traits}
    return text


def reason_text(game: Game, mine: list[int], seats: list[Seat]) -> str | None:
    """How a game the rules did not end ended: "Player 2 resigned: you win.", "Draw agreed."."""
    if game.reason == Game.Reason.AGREED:
        return _("Draw agreed.")
    if game.reason == Game.Reason.ABANDONED and game.result is not None:
        return abandoned_text(game, mine, seats)
    if game.reason == Game.Reason.TIMEOUT and game.result is not None:
        return timeout_text(game, mine, seats)
    if game.reason == Game.Reason.NO_START and game.result is not None:
        return no_start_text(game, mine, seats)
    if game.reason != Game.Reason.RESIGNED or game.result is None:
        return None
    return lost_text(game, game.result["resigned"], "resigned", mine, seats)


# What a seat did to lose, said of the viewer and of another.
LOSSES = {
    "resigned": (gettext_lazy("You resigned"), gettext_lazy("%(who)s resigned")),
    "ran out of time": (gettext_lazy("You ran out of time"), gettext_lazy("%(who)s ran out of time")),
}


def lost_text(game: Game, loser: int, what: str, mine: list[int], seats: list[Seat]) -> str:
    """One seat lost by ``what`` it did ("resigned", "ran out of time"): "You resigned:
    Player 2 wins.", "Player 2 ran out of time: you win.", with three or four seats "...:
    the others share the win."."""
    spec = catalog.get(game.kind)
    who = seat_name(spec, loser, mine, seats)
    yours, theirs = LOSSES[what]
    done = str(yours) if who == YOU else str(theirs) % {"who": capital(with_symbol(spec, loser, who, seats))}
    return ending(game, done, mine, seats, share=bool(set(mine) - {loser}))


def ending(game: Game, done: str, mine: list[int], seats: list[Seat], share: bool) -> str:
    """``done``, then who wins: "...: you win.", "...: Player 2 wins.", "...: the others share the win."."""
    if game.winner is None:
        if share:
            return _("%(done)s: you share the win.") % {"done": done}
        return _("%(done)s: the others share the win.") % {"done": done}
    spec = catalog.get(game.kind)
    winner = seat_name(spec, game.winner, mine, seats)
    if winner == YOU:
        return _("%(done)s: you win.") % {"done": done}
    return _("%(done)s: %(who)s wins.") % {"done": done, "who": with_symbol(spec, game.winner, winner, seats)}


def timeout_text(game: Game, mine: list[int], seats: list[Seat]) -> str:
    """ "You ran out of time: Player 2 wins.", "Player 2 ran out of time: you win."."""
    assert game.result is not None
    return lost_text(game, game.result["timeout"], "ran out of time", mine, seats)


def no_start_text(game: Game, mine: list[int], seats: list[Seat]) -> str:
    """ "Aborted: Player 1 made no first move.", "Aborted: you made no first move."."""
    assert game.result is not None
    spec = catalog.get(game.kind)
    if game.result.get("ended_by"):  # a rated game ended before every seat had moved
        how = EARLY_ENDS.get(game.result["ended_by"], EARLY_ENDS["ended"])
        return str(how)
    seat = game.result["no_start"]
    who = seat_name(spec, seat, mine, seats)
    if who == YOU:
        return _("Aborted: you made no first move.")
    return _("Aborted: %(who)s made no first move.") % {"who": with_symbol(spec, seat, who, seats)}


EARLY_ENDS = {
    "resigned": gettext_lazy(
        "Aborted: the game was resigned before both sides had moved, so nobody wins and it is not rated."
    ),
    "agreed": gettext_lazy(
        "Aborted: the game was agreed drawn before both sides had moved, so nobody wins and it is not rated."
    ),
    "abandoned": gettext_lazy(
        "Aborted: the game was claimed before both sides had moved, so nobody wins and it is not rated."
    ),
    "timeout": gettext_lazy(
        "Aborted: the game ran out of time before both sides had moved, so nobody wins and it is not rated."
    ),
    "ended": gettext_lazy(
        "Aborted: the game ended before both sides had moved, so nobody wins and it is not rated."
    ),
}


def abandoned_text(game: Game, mine: list[int], seats: list[Seat]) -> str:
    """ "Player 2 left: you win.", "Player 2 left: draw.", "Player 2 left: the game was closed."."""
    assert game.result is not None
    spec = catalog.get(game.kind)
    gone = [
        capital(with_symbol(spec, s, seat_name(spec, s, mine, seats), seats))
        for s in game.result.get("abandoned", [])
    ]
    if not gone:
        done = _("A player left")
    else:
        who = _(" and ").join(gone)
        done = ngettext("%(who)s left", "%(who)s left", len(gone)) % {"who": who}
    if game.status == Game.Status.ABANDONED:
        return _("%(done)s and nobody claimed the game: it was closed, nobody won.") % {"done": done}
    if game.status == Game.Status.DRAWN:
        return _("%(done)s: the game was called a draw.") % {"done": done}
    shared = bool(set(mine) & set(game.result.get("winners", [])))
    return ending(game, done, mine, seats, share=shared)


PRESENCE_UNKNOWN = gettext_lazy("Who is connected is not known right now.")


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
            who = f"{name} ({player(index)})"
        elif facing_one:
            parts.append(
                _("Your opponent is connected.") if index in here else _("Your opponent is not connected.")
            )
            continue
        else:
            who = player(index)
        if index in here:
            parts.append(_("%(who)s is connected.") % {"who": who})
        else:
            parts.append(_("%(who)s is not connected.") % {"who": who})
    if watching:
        parts.append(ngettext("%(count)s watching.", "%(count)s watching.", watching) % {"count": watching})
    return " ".join(parts)


# An offer, said by its maker and by the others.
OFFER_WORDS = {
    "draw": (
        gettext_lazy("You asked for a draw: waiting for an answer."),
        gettext_lazy("%(who)s asks for a draw."),
    ),
    "takeback": (
        gettext_lazy("You asked for a takeback: waiting for an answer."),
        gettext_lazy("%(who)s asks for a takeback."),
    ),
    "rematch": (
        gettext_lazy("You asked for a rematch: waiting for an answer."),
        gettext_lazy("%(who)s asks for a rematch."),
    ),
}


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
        yours, theirs = OFFER_WORDS[kind]
        if offerer in mine:
            text = str(yours)
        else:
            who = capital(with_symbol(spec, offerer, seat_name(spec, offerer, mine, seats), seats))
            text = str(theirs) % {"who": who}
            if said:
                text += " " + _("You said yes: waiting for the others.")
        lines.append({"kind": kind, "text": text, "answer": bool(mine) and not said, "withdraw": said})
    return lines


def status_text(game: Game, state: State[Any], mine: list[int], seats: list[Seat]) -> str:
    """One sentence: the result, or who is to do what (the computer: that it is thinking)."""
    if (reason := reason_text(game, mine, seats)) is not None:
        return reason
    if state.outcome is not None:
        return outcome_text(game, state, mine, seats)
    if game.status == Game.Status.ABORTED:
        return _("A moderator aborted this game: nobody won.")
    if game.status == Game.Status.WAITING:
        if mine:
            return _("Waiting for a friend to join: share the invite link.")
        return _("Waiting for players to join.")
    spec = catalog.get(game.kind)
    who = seat_name(spec, state.to_move, mine, seats)
    thinking = seats[state.to_move].is_ai
    task = spec.words.turn(state)
    if task is not None:
        if who == YOU:
            return _("Your turn: %(task)s.") % {"task": task.yours}
        if thinking:
            return _("%(who)s is thinking about %(task)s…") % {"who": capital(who), "task": task.thinking}
        return _("%(who)s to %(task)s.") % {"who": capital(who), "task": task.others}
    if who == YOU:
        return _("Your turn: you play %(symbol)s.") % {"symbol": spec.symbol(state.to_move)}
    who = capital(with_symbol(spec, state.to_move, who, seats))
    return _("%(who)s is thinking…") % {"who": who} if thinking else _("%(who)s to move.") % {"who": who}


# -- post-game review ---------------------------------------------------------------

VERDICTS = {
    "best": ("✓", gettext_lazy("best")),
    "inaccuracy": ("?!", gettext_lazy("inaccuracy")),
    "blunder": ("??", gettext_lazy("blunder")),
    None: ("·", gettext_lazy("not proved")),
}


# A proved value: the side to move wins, loses or draws.
VALUES = {"win": gettext_lazy("win"), "loss": gettext_lazy("loss"), "draw": gettext_lazy("draw")}


def signed(score: float, decimals: int = 2) -> str:
    """An estimate in [-1, 1] with its sign, as the reader's language writes a number
    (+0.11, +0,11)."""
    rounded = round(score, decimals)
    sign = "-" if rounded < 0 else "+"
    return sign + formats.number_format(abs(rounded), decimal_pos=decimals)


def value_words(value: str | None, distance: int | None, score: float | None = None) -> str:
    if value is None:
        return _("not proved") if score is None else _("estimate %(score)s") % {"score": signed(score)}
    word = str(VALUES.get(value, value))
    if value == "draw" or distance is None:
        return word
    return pgettext("a proved value", "%(value)s in %(distance)s") % {"value": word, "distance": distance}


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
                "verdict": str(word),
                "verdict_class": entry.verdict or "unknown",
                "before": value_words(entry.value_before, entry.distance_before, entry.score_before),
                "after": value_words(entry.value_after, entry.distance_after, entry.score_after),
            }
        )
        state = state.play(rules.parse_move(entry.text))
    return rows

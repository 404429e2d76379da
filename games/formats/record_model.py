"""What a game record holds, and what its readers and writers share: the
:class:`Record`, :class:`RecordError`, results as text, and the time control and clock
times as a record gives them. The format itself is described in
:mod:`games.formats.records`. Pure: no Django."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from games import clocks as clock_rules
from games.engine import Outcome
from games.engine.refusals import Phrase, Refusal, gettext_noop

FORMAT = "quarto-site-record/1"
UNFINISHED = "*"
PLAYER_SEPARATOR = "; "
MAX_MOVE_LENGTH = 16
MAX_NAME_LENGTH = 40
# Why a game ended without the rules ending it (``Termination``); the rules' own end is "".
TERMINATIONS = ("resigned", "agreed", "abandoned", "timeout", "no_start")
# Ended with nobody scoring: the result may be "*".
UNSCORED = ("abandoned", "no_start")
UNTIMED = "-"


_PLACE_RE = re.compile(r"^(line|move) ([0-9]+)$")


def _place(where: str) -> str | Phrase:
    """ "line 7" or "move 7", said in the reader's language; a field's name as it is."""
    found = _PLACE_RE.match(where)
    if found is None:
        return where
    if found.group(1) == "line":
        return Phrase("line %(number)s", number=found.group(2))
    return Phrase("move %(number)s", number=found.group(2))


_WHERE_WHY = gettext_noop("%(where)s: %(reason)s")


class RecordError(Refusal, ValueError):
    """A record that cannot be read or replayed; ``where`` is "line 7" or "move 7". The
    ``reason`` is a %-template and its words, or the refusal of the rules or the clock."""

    def __init__(self, where: str, reason: str | Refusal, /, **words: Any) -> None:
        said = reason if isinstance(reason, Refusal) else Phrase(reason, **words)
        super().__init__(self.keep(_WHERE_WHY, {"where": _place(where), "reason": said}))
        self.where = where
        self.reason = str(said) if isinstance(said, Phrase) else said.message


def shown(text: str) -> str:
    """A record's own text as an error message quotes it: on one line, escaped if need be."""
    return text if text.isprintable() else json.dumps(text)


def player_name(name: str) -> str:
    return " ".join(name.replace(";", ",").split())[:MAX_NAME_LENGTH]


@dataclass(frozen=True)
class Record:
    kind: str
    options: Mapping[str, Any]
    moves: tuple[str, ...]
    players: tuple[str, ...] = ()
    date: str = ""
    result: str = UNFINISHED
    termination: str = ""
    # The time control in its JSON form (games.clocks.parse), None without a clock.
    clock: Mapping[str, Any] | None = None
    # The mover's time left after each action (ms), None where the record does not say.
    move_clocks: tuple[int | None, ...] = ()
    # The position the actions start from, in the game's notation ("" for the start);
    # reading a record turns it into the actions that reach it (games.engine.positions).
    position: str = ""
    # Where each action was read from ("line 12", "move 3"), for error messages.
    sources: tuple[str, ...] = field(default=(), compare=False)
    # Where the Game, Options, Players and Result were read from.
    tag_sources: Mapping[str, str] = field(default_factory=dict, compare=False)

    def source(self, index: int) -> str:
        return self.sources[index] if index < len(self.sources) else f"move {index + 1}"

    def tag_source(self, name: str) -> str:
        return self.tag_sources.get(name, name)


def result_text(outcome: Outcome | None, num_players: int) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2``, ``0-0-1``, ``1/3-1/3-1/3`` ... or ``*``."""
    if outcome is None:
        return UNFINISHED
    if outcome.winner is None:
        share = Fraction(1, num_players)
        return "-".join(f"{share.numerator}/{share.denominator}" for _ in range(num_players))
    return "-".join("1" if seat == outcome.winner else "0" for seat in range(num_players))


def shared_result(winners: list[int] | tuple[int, ...], num_players: int) -> str:
    """The winners share one point (``1-0``, ``1/2-0-1/2``); nobody winning is a draw."""
    if not winners:
        return result_text(Outcome(winner=None), num_players)
    share = Fraction(1, len(winners))
    return "-".join(
        (str(share) if share != 1 else "1") if seat in winners else "0" for seat in range(num_players)
    )


# -- clocks -------------------------------------------------------------------


def unpaused(clock: Mapping[str, Any] | None) -> clock_rules.TimeControl:
    """The time control a record writes (an imported game's paused clock is the same one)."""
    return replace(clock_rules.parse(clock), paused=False)


def time_control_text(clock: Mapping[str, Any] | None) -> str:
    """The ``TimeControl`` tag: ``180+2``, ``1/259200`` (3 days a move) or ``-``."""
    control = unpaused(clock)
    if control.correspondence:
        return f"1/{control.days * clock_rules.DAY_MS // clock_rules.MS}"
    if control.realtime:
        return f"{control.initial}+{control.increment}"
    return UNTIMED


_TIME_CONTROL_RE = re.compile(r"^(?:([0-9]{1,6})(?:\+([0-9]{1,3}))?|1/([0-9]{1,8})|([0-9]{1,3})d)$")
BAD_TIME_CONTROL = gettext_noop(
    'the TimeControl must read like "180+2" (seconds + increment), "1/259200" '
    '(one move per that many seconds: 3 days) or "-" (none).'
)


def read_time_control(text: str, where: str) -> dict[str, int] | None:
    """The JSON form of a ``TimeControl`` tag's value (``None`` for ``-``)."""
    text = text.strip()
    if text in ("", UNTIMED):
        return None
    match = _TIME_CONTROL_RE.match(text)
    if not match:
        raise RecordError(where, BAD_TIME_CONTROL)
    initial, increment, seconds, days = match.groups()
    if initial is not None:
        return {"initial": int(initial), "increment": int(increment or 0)}
    if seconds is not None:
        whole_days, rest = divmod(int(seconds), clock_rules.DAY_MS // clock_rules.MS)
        if rest or not whole_days:
            raise RecordError(
                where, "a correspondence TimeControl gives whole days per move (1/86400 a day)."
            )
        return {"days": whole_days}
    return {"days": int(days)}


def move_times(values: Any, count: int) -> tuple[int | None, ...]:
    """One time (or None) per action; () when the record gives none."""
    times = tuple(values[:count]) + (None,) * max(0, count - len(values))
    return times if any(t is not None for t in times) else ()

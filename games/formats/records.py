"""Game records: writing and reading a finished (or unfinished) game as text or JSON.

Pure functions over the rules of the games in the catalog; no Django. The text form looks like PGN::

    [Game "quarto"]
    [Options "{\\"advanced\\": false}"]
    [Players "person; computer (casual)"]
    [Date "2026-11-22"]
    [Result "0-1"]

    1. 8
    2. a1
    ...

Tag values are double-quoted with ``\\"`` and ``\\\\`` escapes; unknown tags are kept
out of the way (ignored). ``Players`` lists the seats in order, separated by ``"; "``.
``Result`` gives every seat's score in seat order, joined by ``-``: 1 for the winner and
0 for the others, or 1/N each for a draw, and ``*`` for an unfinished game. With two
players that is ``1-0``, ``0-1`` or ``1/2-1/2``; with three ``0-1-0`` or
``1/3-1/3-1/3``; on reading, a missing or ``*`` result is filled in from the actions.
``Termination`` says why a finished game ended when the rules did not end it:
``resigned`` (the resigning seat scores 0, the others share: ``1-0``, ``1/2-0-1/2``) or
``agreed`` (a draw by agreement); then the actions stop short of an end and the
``Result`` stands as written.
``timeout`` (the seat whose time ran out scores 0, the others share) and ``no_start``
(a seat made no first move in time: aborted, ``*``) are the clock's.
Then come the actions in order, as their canonical texts: any number per line, each
optionally preceded by its number (``12.``); ``;`` starts a comment to the end of the
line, and ``{...}`` a comment that ends on the same line.

A timed game has a ``TimeControl`` tag, PGN's way: ``"180+2"`` (initial seconds +
increment seconds) or ``"1/259200"`` (one move per that many seconds: correspondence,
here 3 days; ``"3d"`` is read too); absent or ``"-"``, no clock. Each action may be
followed by the mover's time left after it, as PGN's clock comment: ``a1
{[%clk 0:02:58]}`` (h:mm:ss, tenths when not whole).

The JSON form holds the same: ``{"format", "game", "options", "players", "date",
"result", "moves"}``, and for a timed game ``"clock"`` (the API's form, ``{"initial":
180, "increment": 2}`` or ``{"days": 3}``) and ``"clocks"`` (each action's time left in
ms, ``null`` where unknown).

:func:`load` reads either form and replays it through the rules; a bad record raises
:class:`RecordError` naming the line (or the move) and the reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from games import catalog
from games import clocks as clock_rules
from games.engine import MoveError, OptionError, Outcome

FORMAT = "quarto-site-record/1"
UNFINISHED = "*"
PLAYER_SEPARATOR = "; "
MAX_MOVE_LENGTH = 16
MAX_NAME_LENGTH = 40

# Records nest at most two deep ({"options": {...}}); Python's json module recurses
# once per level and raises RecursionError near a thousand, so depth is checked first.
MAX_JSON_DEPTH = 20

_TAG_RE = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER_RE = re.compile(r"^([0-9]+)\.$")
_JSON_KEYS = (
    "format",
    "game",
    "options",
    "players",
    "date",
    "result",
    "termination",
    "clock",
    "moves",
    "clocks",
)
# One token of an action line: a {comment}, a ; comment to the end, or a word.
_TOKEN_RE = re.compile(r"\{[^}]*\}|\{|;.*|[^\s{;]+")
_CLK_RE = re.compile(r"\[%clk\s+([^\]]*)\]")
# Why a game ended without the rules ending it (``Termination``); the rules' own end is "".
TERMINATIONS = ("resigned", "agreed", "abandoned", "timeout", "no_start")
# Ended with nobody scoring: the result may be "*".
UNSCORED = ("abandoned", "no_start")
UNTIMED = "-"


class RecordError(ValueError):
    """A record that cannot be read or replayed; ``where`` is "line 7" or "move 7"."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


def _shown(text: str) -> str:
    """A record's own text as an error message quotes it: on one line, escaped if need be."""
    return text if text.isprintable() else json.dumps(text)


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets in strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def loads_json(text: str, where: str, invalid: str | None = None) -> Any:
    """``json.loads`` refusing deep nesting and bad JSON as a :class:`RecordError` at ``where``.

    ``invalid`` is the reason given for JSON that does not parse (else the parser's own).
    """
    if json_depth(text) > MAX_JSON_DEPTH:
        raise RecordError(where, f"the JSON nests deeper than {MAX_JSON_DEPTH} levels.")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError(where, invalid or f"not valid JSON ({exc}).") from None


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


def _unpaused(clock: Mapping[str, Any] | None) -> clock_rules.TimeControl:
    """The time control a record writes (an imported game's paused clock is the same one)."""
    return replace(clock_rules.parse(clock), paused=False)


def time_control_text(clock: Mapping[str, Any] | None) -> str:
    """The ``TimeControl`` tag: ``180+2``, ``1/259200`` (3 days a move) or ``-``."""
    control = _unpaused(clock)
    if control.correspondence:
        return f"1/{control.days * clock_rules.DAY_MS // clock_rules.MS}"
    if control.realtime:
        return f"{control.initial}+{control.increment}"
    return UNTIMED


_TIME_CONTROL_RE = re.compile(r"^(?:([0-9]{1,6})(?:\+([0-9]{1,3}))?|1/([0-9]{1,8})|([0-9]{1,3})d)$")
BAD_TIME_CONTROL = (
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


def _move_clocks(values: Any, count: int) -> tuple[int | None, ...]:
    """One time (or None) per action; () when the record gives none."""
    times = tuple(values[:count]) + (None,) * max(0, count - len(values))
    return times if any(t is not None for t in times) else ()


# -- writing ------------------------------------------------------------------


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _player_name(name: str) -> str:
    return " ".join(name.replace(";", ",").split())[:MAX_NAME_LENGTH]


def format_text(record: Record) -> str:
    tags = [
        ("Game", record.kind),
        ("Options", json.dumps(dict(record.options), sort_keys=True)),
        ("Players", PLAYER_SEPARATOR.join(_player_name(p) for p in record.players)),
        ("Date", record.date),
        ("Result", record.result),
    ]
    if record.termination:
        tags.append(("Termination", record.termination))
    if record.clock:
        tags.append(("TimeControl", time_control_text(record.clock)))
    lines = [f"[{name} {_quote(value)}]" for name, value in tags]
    lines.append("")
    times = _move_clocks(record.move_clocks, len(record.moves)) or (None,) * len(record.moves)
    for ply, (text, left) in enumerate(zip(record.moves, times, strict=True), start=1):
        clock = f" {{[%clk {clock_rules.pgn_clock(left)}]}}" if left is not None else ""
        lines.append(f"{ply}. {text}{clock}")
    return "\n".join(lines) + "\n"


def to_json(record: Record) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": record.kind,
        "options": dict(record.options),
        "players": [_player_name(p) for p in record.players],
        "date": record.date,
        "result": record.result,
        **({"termination": record.termination} if record.termination else {}),
        **({"clock": _unpaused(record.clock).to_json()} if record.clock else {}),
        "moves": list(record.moves),
        **({"clocks": list(times)} if (times := _move_clocks(record.move_clocks, len(record.moves))) else {}),
    }


# -- reading ------------------------------------------------------------------


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def parse_text(text: str) -> Record:
    """The tags and action texts of a text record; the rules are not consulted yet."""
    tags: dict[str, tuple[str, int]] = {}
    moves: list[str] = []
    sources: list[str] = []
    clock_of: dict[int, int] = {}  # action index -> its clock comment's time (ms)
    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"line {number}"
        line = raw.strip()
        if line.startswith("["):
            match = _TAG_RE.match(line)
            if not match:
                raise RecordError(where, 'a tag must look like [Name "value"].')
            if moves:
                raise RecordError(where, "tags must come before the actions.")
            name = match.group(1)
            if name in tags:
                raise RecordError(where, f"the {name} tag appears twice.")
            tags[name] = (_unquote(match.group(2)), number)
            continue
        for found in _TOKEN_RE.finditer(line):
            token = found.group()
            if token.startswith(";"):
                break
            if token.startswith("{"):
                _clock_comment(token, where, len(moves), clock_of)
                continue
            numbered = _NUMBER_RE.match(token)
            if numbered:
                # Compared as text: int() refuses numbers of over 4,300 digits.
                if (numbered.group(1).lstrip("0") or "0") != str(len(moves) + 1):
                    shown = token if len(token) <= 20 else f"{token[:20]}..."
                    raise RecordError(
                        where, f"the number {shown} does not match: this is action {len(moves) + 1}."
                    )
                continue
            if len(token) > MAX_MOVE_LENGTH:
                raise RecordError(where, f"{token[:20]!r}... is too long for an action.")
            moves.append(token)
            sources.append(where)
    if "Game" not in tags:
        raise RecordError("line 1", 'the record has no [Game "..."] tag.')
    options: Any = {}
    if "Options" in tags:
        value, number = tags["Options"]
        where = f"line {number}"
        options = loads_json(value, where, "the Options tag is not a JSON object.") if value.strip() else {}
        if not isinstance(options, dict):
            raise RecordError(f"line {number}", "the Options tag is not a JSON object.")
    players = tags.get("Players", ("", 0))[0]
    result = tags.get("Result", (UNFINISHED, 0))[0]
    clock = None
    if "TimeControl" in tags:
        value, number = tags["TimeControl"]
        clock = read_time_control(value, f"line {number}")
    return Record(
        kind=tags["Game"][0],
        options=options,
        moves=tuple(moves),
        players=tuple(p.strip() for p in players.split(";")) if players.strip() else (),
        date=tags.get("Date", ("", 0))[0],
        result=result.strip() or UNFINISHED,
        termination=tags.get("Termination", ("", 0))[0].strip(),
        clock=clock,
        move_clocks=_move_clocks([clock_of.get(i) for i in range(len(moves))], len(moves)),
        sources=tuple(sources),
        tag_sources={name: f"line {number}" for name, (_, number) in tags.items()},
    )


def _clock_comment(token: str, where: str, count: int, clock_of: dict[int, int]) -> None:
    """A ``{...}`` comment: kept out of the way, but its ``[%clk h:mm:ss]`` is the time
    left after the action before it (``count`` actions read so far)."""
    if not token.endswith("}"):
        raise RecordError(where, "a comment opened with { must end with } on the same line.")
    found = _CLK_RE.search(token)
    if found is None:
        return
    if not count:
        raise RecordError(where, "a clock comment must follow an action.")
    if count - 1 in clock_of:
        raise RecordError(where, f"action {count} has two clock comments.")
    try:
        clock_of[count - 1] = clock_rules.read_pgn_clock(found.group(1))
    except clock_rules.ClockError as exc:
        raise RecordError(where, f"{exc.message}.") from None


def _strings(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(key, "must be a list of texts.")
    return tuple(value)


def parse_json(data: Any) -> Record:
    if not isinstance(data, dict):
        raise RecordError("record", "a JSON record is an object.")
    unknown = sorted(set(data) - set(_JSON_KEYS))
    if unknown:
        raise RecordError(_shown(unknown[0]), f"unknown field; known: {', '.join(_JSON_KEYS)}.")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError("format", f"expected {FORMAT!r}.")
    kind = data.get("game")
    if not isinstance(kind, str):
        raise RecordError("game", "the record must name its game.")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options", "must be an object.")
    for name in ("date", "result", "termination"):
        if not isinstance(data.get(name, ""), str):
            raise RecordError(name, "must be a text.")
    moves = _strings(data, "moves")
    for index, text in enumerate(moves):
        if len(text) > MAX_MOVE_LENGTH:
            raise RecordError(f"move {index + 1}", "too long for an action.")
    clock = data.get("clock")
    if clock is not None and not isinstance(clock, dict):
        raise RecordError("clock", clock_rules.SHAPE[0].lower() + clock_rules.SHAPE[1:])
    times = data.get("clocks", [])
    if not isinstance(times, list) or not all(
        t is None or (isinstance(t, int) and not isinstance(t, bool) and t >= 0) for t in times
    ):
        raise RecordError("clocks", "must be a list of times left in ms (whole numbers, or null).")
    if len(times) > len(moves):
        raise RecordError("clocks", f"{len(times)} times for {len(moves)} moves.")
    return Record(
        kind=kind,
        options=options,
        moves=moves,
        players=_strings(data, "players"),
        date=data.get("date", ""),
        result=data.get("result", UNFINISHED) or UNFINISHED,
        termination=data.get("termination", ""),
        clock=clock,
        move_clocks=_move_clocks(times, len(moves)),
        sources=tuple(f"move {i + 1}" for i in range(len(moves))),
        tag_sources={
            "Game": "game",
            "Options": "options",
            "Players": "players",
            "Result": "result",
            "Termination": "termination",
            "TimeControl": "clock",
        },
    )


def check(record: Record) -> tuple[Record, Any]:
    """Replay the record through the rules, action by action.

    Returns the record with cleaned options, canonical action texts and the result the
    actions reach, and the final position. A ``Result`` other than ``*`` (or none) must
    agree with that position.
    """
    try:
        rules = catalog.get(record.kind).rules
        options = rules.clean_options(record.options)
    except OptionError as exc:
        tag = "Game" if exc.option == "game" else "Options"
        raise RecordError(record.tag_source(tag), exc.message) from None
    try:
        control = _unpaused(record.clock)
    except clock_rules.ClockError as exc:
        raise RecordError(record.tag_source("TimeControl"), f"{exc.message}") from None
    record = replace(
        record,
        clock=control.to_json() or None,
        move_clocks=_move_clocks(record.move_clocks, len(record.moves)),
    )
    state = rules.new_state(options)
    canonical = []
    for index, text in enumerate(record.moves):
        try:
            move = rules.parse_move(text)
            state = state.play(move)
        except MoveError as exc:
            raise RecordError(record.source(index), f"{_shown(text)}: {exc.message}") from None
        canonical.append(str(move))
    if len(record.players) > state.num_players:
        raise RecordError(
            record.tag_source("Players"), f"{len(record.players)} names for {state.num_players} seats."
        )
    # Names as the writers put them, so a record read back from either form is the same.
    players = tuple(_player_name(p) for p in record.players)
    if not any(players):
        players = ()
    reached = result_text(state.outcome, state.num_players)
    if record.termination and record.termination not in TERMINATIONS:
        raise RecordError(
            record.tag_source("Termination"), f"the termination must be one of {', '.join(TERMINATIONS)}."
        )
    if record.termination and state.outcome is None:
        # Ended by a resignation, an agreement or a player leaving: the result is the
        # record's word ("*" for a game closed unclaimed after a player left).
        closed = record.termination in UNSCORED and record.result == UNFINISHED
        if not closed and len(record.result.split("-")) != state.num_players:
            raise RecordError(record.tag_source("Result"), f"a result needs {state.num_players} scores.")
        return replace(record, options=options, moves=tuple(canonical)), state
    # A missing or "*" result is filled in from the actions; only a result that
    # contradicts them is refused.
    if record.result not in (UNFINISHED, reached):
        raise RecordError(
            record.tag_source("Result"),
            f"the record says {_shown(record.result)} but its actions end with {reached}.",
        )
    return replace(record, options=options, moves=tuple(canonical), players=players, result=reached), state


def load(text: str) -> tuple[Record, Any]:
    """Read a text or JSON record (JSON when it starts with ``{``) and replay it."""
    if text.lstrip().startswith("{"):
        return check(parse_json(loads_json(text, "record")))
    return check(parse_text(text))

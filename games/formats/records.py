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
Then come the actions in order, as their canonical texts: any number per line, each
optionally preceded by its number (``12.``); ``;`` starts a comment.

The JSON form holds the same: ``{"format", "game", "options", "players", "date",
"result", "moves"}``.

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
_JSON_KEYS = ("format", "game", "options", "players", "date", "result", "termination", "moves")
# Why a game ended without the rules ending it (``Termination``); the rules' own end is "".
TERMINATIONS = ("resigned", "agreed", "abandoned")


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
    lines = [f"[{name} {_quote(value)}]" for name, value in tags]
    lines.append("")
    lines += [f"{ply}. {text}" for ply, text in enumerate(record.moves, start=1)]
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
        "moves": list(record.moves),
    }


# -- reading ------------------------------------------------------------------


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def parse_text(text: str) -> Record:
    """The tags and action texts of a text record; the rules are not consulted yet."""
    tags: dict[str, tuple[str, int]] = {}
    moves: list[str] = []
    sources: list[str] = []
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
        for token in line.split(";", 1)[0].split():
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
    return Record(
        kind=tags["Game"][0],
        options=options,
        moves=tuple(moves),
        players=tuple(p.strip() for p in players.split(";")) if players.strip() else (),
        date=tags.get("Date", ("", 0))[0],
        result=result.strip() or UNFINISHED,
        termination=tags.get("Termination", ("", 0))[0].strip(),
        sources=tuple(sources),
        tag_sources={name: f"line {number}" for name, (_, number) in tags.items()},
    )


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
    return Record(
        kind=kind,
        options=options,
        moves=moves,
        players=_strings(data, "players"),
        date=data.get("date", ""),
        result=data.get("result", UNFINISHED) or UNFINISHED,
        termination=data.get("termination", ""),
        sources=tuple(f"move {i + 1}" for i in range(len(moves))),
        tag_sources={"Game": "game", "Options": "options", "Players": "players", "Result": "result"},
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
        closed = record.termination == "abandoned" and record.result == UNFINISHED
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

"""Reading a game record, text or JSON (see :mod:`games.formats.records` for the format),
and replaying it through the rules (:func:`check`); a bad record raises
:class:`~games.formats.record_model.RecordError` naming the line (or the move) and the
reason. Pure: no Django."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games import catalog
from games import clocks as clock_rules
from games.engine import MoveError, OptionError
from games.formats.record_model import (
    FORMAT,
    MAX_MOVE_LENGTH,
    TERMINATIONS,
    UNFINISHED,
    UNSCORED,
    Record,
    RecordError,
    move_times,
    player_name,
    read_time_control,
    result_text,
    shown,
    unpaused,
)

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
    "position",
)

# One token of an action line: a {comment}, a ; comment to the end, or a word.
_TOKEN_RE = re.compile(r"\{[^}]*\}|\{|;.*|[^\s{;]+")
_CLK_RE = re.compile(r"\[%clk\s+([^\]]*)\]")


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
        raise RecordError(where, "the JSON nests deeper than %(levels)s levels.", levels=MAX_JSON_DEPTH)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError(where, invalid or "not valid JSON (%(error)s).", error=str(exc)) from None


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
                raise RecordError(where, "the %(name)s tag appears twice.", name=name)
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
                        where,
                        "the number %(number)s does not match: this is action %(count)s.",
                        number=shown,
                        count=len(moves) + 1,
                    )
                continue
            if len(token) > MAX_MOVE_LENGTH:
                raise RecordError(where, "%(token)s... is too long for an action.", token=repr(token[:20]))
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
        move_clocks=move_times([clock_of.get(i) for i in range(len(moves))], len(moves)),
        position=tags.get("Position", ("", 0))[0].strip(),
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
        raise RecordError(where, "action %(count)s has two clock comments.", count=count)
    try:
        clock_of[count - 1] = clock_rules.read_pgn_clock(found.group(1))
    except clock_rules.ClockError as exc:
        raise RecordError(where, "%(reason)s.", reason=exc) from None


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
        raise RecordError(shown(unknown[0]), "unknown field; known: %(known)s.", known=", ".join(_JSON_KEYS))
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError("format", "expected %(format)s.", format=repr(FORMAT))
    kind = data.get("game")
    if not isinstance(kind, str):
        raise RecordError("game", "the record must name its game.")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options", "must be an object.")
    for name in ("date", "result", "termination", "position"):
        if not isinstance(data.get(name, ""), str):
            raise RecordError(name, "must be a text.")
    moves = _strings(data, "moves")
    for index, text in enumerate(moves):
        if len(text) > MAX_MOVE_LENGTH:
            raise RecordError(f"move {index + 1}", "too long for an action.")
    clock = data.get("clock")
    if clock is not None and not isinstance(clock, dict):
        raise RecordError("clock", clock_rules.SHAPE)
    times = data.get("clocks", [])
    if not isinstance(times, list) or not all(
        t is None or (isinstance(t, int) and not isinstance(t, bool) and 0 <= t <= clock_rules.MAX_LEFT_MS)
        for t in times
    ):
        raise RecordError(
            "clocks",
            "must be a list of times left in ms (whole numbers from 0 to %(most)s, or null).",
            most=clock_rules.MAX_LEFT_MS,
        )
    if len(times) > len(moves):
        raise RecordError(
            "clocks", "%(times)s times for %(moves)s moves.", times=len(times), moves=len(moves)
        )
    return Record(
        kind=kind,
        options=options,
        moves=moves,
        players=_strings(data, "players"),
        date=data.get("date", ""),
        result=data.get("result", UNFINISHED) or UNFINISHED,
        termination=data.get("termination", ""),
        clock=clock,
        move_clocks=move_times(times, len(moves)),
        position=data.get("position", "").strip(),
        sources=tuple(f"move {i + 1}" for i in range(len(moves))),
        tag_sources={
            "Game": "game",
            "Options": "options",
            "Players": "players",
            "Result": "result",
            "Termination": "termination",
            "TimeControl": "clock",
            "Position": "position",
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
        raise RecordError(record.tag_source(tag), exc) from None
    try:
        control = unpaused(record.clock)
    except clock_rules.ClockError as exc:
        raise RecordError(record.tag_source("TimeControl"), exc) from None
    record = replace(
        record,
        clock=control.to_json() or None,
        move_clocks=move_times(record.move_clocks, len(record.moves)),
    )
    if record.position:
        record = _from_position(record, options)
    state = rules.new_state(options)
    canonical = []
    for index, text in enumerate(record.moves):
        try:
            move = rules.parse_move(text)
            state = state.play(move)
        except MoveError as exc:
            raise RecordError(
                record.source(index), "%(action)s: %(reason)s", action=shown(text), reason=exc
            ) from None
        canonical.append(str(move))
    if len(record.players) > state.num_players:
        raise RecordError(
            record.tag_source("Players"),
            "%(names)s names for %(seats)s seats.",
            names=len(record.players),
            seats=state.num_players,
        )
    # Names as the writers put them, so a record read back from either form is the same.
    players = tuple(player_name(p) for p in record.players)
    if not any(players):
        players = ()
    reached = result_text(state.outcome, state.num_players)
    if record.termination and record.termination not in TERMINATIONS:
        raise RecordError(
            record.tag_source("Termination"),
            "the termination must be one of %(known)s.",
            known=", ".join(TERMINATIONS),
        )
    if record.termination and state.outcome is None:
        # Ended by a resignation, an agreement or a player leaving: the result is the
        # record's word ("*" for a game closed unclaimed after a player left).
        closed = record.termination in UNSCORED and record.result == UNFINISHED
        if not closed and len(record.result.split("-")) != state.num_players:
            raise RecordError(
                record.tag_source("Result"), "a result needs %(scores)s scores.", scores=state.num_players
            )
        return replace(record, options=options, moves=tuple(canonical)), state
    # A missing or "*" result is filled in from the actions; only a result that
    # contradicts them is refused.
    if record.result not in (UNFINISHED, reached):
        raise RecordError(
            record.tag_source("Result"),
            "the record says %(result)s but its actions end with %(reached)s.",
            result=shown(record.result),
            reached=reached,
        )
    return replace(record, options=options, moves=tuple(canonical), players=players, result=reached), state


def _from_position(record: Record, options: Mapping[str, Any]) -> Record:
    """The record with the actions that reach its ``Position`` put before its own: a
    game is kept as actions from the start."""
    spec = catalog.get(record.kind)
    where = record.tag_source("Position")
    if spec.notation is None:
        raise RecordError(where, "%(game)s has no position notation.", game=spec.title)
    try:
        setup = tuple(spec.notation.moves(spec.rules, record.position, options))
    except MoveError as exc:
        raise RecordError(where, exc) from None
    own = len(record.moves)
    return replace(
        record,
        position="",
        moves=setup + record.moves,
        move_clocks=(None,) * len(setup) + tuple(move_times(record.move_clocks, own) or (None,) * own),
        sources=(where,) * len(setup) + tuple(record.source(i) for i in range(own)),
    )

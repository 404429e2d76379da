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

This module writes records and says every name of theirs; :mod:`games.formats.record_model`
keeps the :class:`Record` and what readers and writers share, and
:mod:`games.formats.record_reading` reads and replays.
"""

from __future__ import annotations

import json
from typing import Any

from games import clocks as clock_rules
from games.formats.record_model import (
    BAD_TIME_CONTROL,
    FORMAT,
    MAX_MOVE_LENGTH,
    MAX_NAME_LENGTH,
    PLAYER_SEPARATOR,
    TERMINATIONS,
    UNFINISHED,
    UNSCORED,
    UNTIMED,
    Record,
    RecordError,
    move_times,
    player_name,
    read_time_control,
    result_text,
    shared_result,
    time_control_text,
    unpaused,
)
from games.formats.record_reading import MAX_JSON_DEPTH, check, json_depth, loads_json, parse_json, parse_text

# The records' names, wherever they are kept (record_model, record_reading).
__all__ = [
    "BAD_TIME_CONTROL",
    "FORMAT",
    "MAX_JSON_DEPTH",
    "MAX_MOVE_LENGTH",
    "MAX_NAME_LENGTH",
    "PLAYER_SEPARATOR",
    "TERMINATIONS",
    "UNFINISHED",
    "UNSCORED",
    "UNTIMED",
    "Record",
    "RecordError",
    "check",
    "format_text",
    "json_depth",
    "load",
    "loads_json",
    "parse_json",
    "parse_text",
    "read_time_control",
    "result_text",
    "shared_result",
    "time_control_text",
    "to_json",
]


# -- writing ------------------------------------------------------------------


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_text(record: Record) -> str:
    tags = [
        ("Game", record.kind),
        ("Options", json.dumps(dict(record.options), sort_keys=True)),
        ("Players", PLAYER_SEPARATOR.join(player_name(p) for p in record.players)),
        ("Date", record.date),
        ("Result", record.result),
    ]
    if record.termination:
        tags.append(("Termination", record.termination))
    if record.clock:
        tags.append(("TimeControl", time_control_text(record.clock)))
    lines = [f"[{name} {_quote(value)}]" for name, value in tags]
    lines.append("")
    times = move_times(record.move_clocks, len(record.moves)) or (None,) * len(record.moves)
    for ply, (text, left) in enumerate(zip(record.moves, times, strict=True), start=1):
        clock = f" {{[%clk {clock_rules.pgn_clock(left)}]}}" if left is not None else ""
        lines.append(f"{ply}. {text}{clock}")
    return "\n".join(lines) + "\n"


def to_json(record: Record) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": record.kind,
        "options": dict(record.options),
        "players": [player_name(p) for p in record.players],
        "date": record.date,
        "result": record.result,
        **({"termination": record.termination} if record.termination else {}),
        **({"clock": unpaused(record.clock).to_json()} if record.clock else {}),
        "moves": list(record.moves),
        **({"clocks": list(times)} if (times := move_times(record.move_clocks, len(record.moves))) else {}),
    }


def load(text: str) -> tuple[Record, Any]:
    """Read a text or JSON record (JSON when it starts with ``{``) and replay it."""
    if text.lstrip().startswith("{"):
        return check(parse_json(loads_json(text, "record")))
    return check(parse_text(text))

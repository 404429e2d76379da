"""The analysis board's move list with branches: the main line and the variations kept
beside it, all in the address (``lines``: each line's actions from the start, ``,``
between actions and ``;`` between lines, the main line first; ``root``: the plies of a
set-up position, shown as one step). Playing an action on the board extends the line
it was played at the end of, or opens a variation there; every action listed is a link
back to its position."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.utils.translation import gettext as _

from games.services.base import ServiceError
from study.positions import MAX_MOVES, Position

MAX_LINES = 8  # the main line and seven variations; the oldest variation goes first
MAX_TEXT = 3000  # characters of the lines in an address


def read(text: str | None, moves: Sequence[str]) -> list[list[str]]:
    """The lines an address carries, with the current position's way in one of them."""
    if text and len(text) > MAX_TEXT:
        raise ServiceError("too_many_moves", _("Those lines are far too long for any game here."))
    lines = [[m.strip() for m in line.split(",") if m.strip()] for line in (text or "").split(";")]
    lines = [line[:MAX_MOVES] for line in lines if line][:MAX_LINES]
    return keep(lines, list(moves))


def keep(lines: list[list[str]], moves: list[str]) -> list[list[str]]:
    """``lines`` holding ``moves``: as they are when a line goes through it, else with the
    line that ends where ``moves`` leaves off extended, else with a new variation."""
    if not moves or any(line[: len(moves)] == moves for line in lines):
        return lines or [moves]
    for index, line in enumerate(lines):
        if moves[: len(line)] == line:
            return [*lines[:index], moves, *lines[index + 1 :]]
    if not lines:
        return [moves]
    return [lines[0], *lines[1:][-(MAX_LINES - 2) :], moves] if len(lines) >= MAX_LINES else [*lines, moves]


def text(lines: Sequence[Sequence[str]]) -> str:
    return ";".join(",".join(line) for line in lines)


def query(options: dict[str, Any], moves: Sequence[str], lines: Sequence[Sequence[str]], root: int) -> str:
    """The analysis board's address of a position with the move list kept."""
    pairs: list[tuple[str, str]] = [
        (name, "1" if value is True else "0" if value is False else str(value))
        for name, value in options.items()
    ]
    pairs.append(("moves", ",".join(moves)))
    if lines and (len(lines) > 1 or list(lines[0]) != list(moves)):
        pairs.append(("lines", text(lines)))
    if root:
        pairs.append(("root", str(root)))
    return urlencode(pairs)


def tree(where: Position, lines: list[list[str]], root: int, url: str) -> list[dict[str, Any]]:
    """The main line's steps after the root, each with the variations that leave the main
    line there (the alternatives to that step), each step a link and the current one marked."""
    spec = where.spec
    options = where.options

    def said(line: Sequence[str], start: int) -> list[dict[str, Any]]:
        state = spec.rules.replay(options, line[:start])
        steps = []
        for number in range(start, len(line)):
            try:
                words = spec.words.review(state, line[number])
                state = state.play(spec.rules.parse_move(line[number]))
            except Exception:  # a hand-made address: the rest of the line is not shown
                break
            steps.append(
                {
                    "ply": number + 1,
                    "words": words,
                    "href": f"{url}?{query(options, line[: number + 1], lines, root)}",
                    "current": list(line[: number + 1]) == where.moves,
                }
            )
        return steps

    main = lines[0]
    steps = said(main, root)
    forks: dict[int, list[list[dict[str, Any]]]] = {}
    for line in lines[1:]:
        fork = next((i for i, (a, b) in enumerate(zip(line, main, strict=False)) if a != b), len(main))
        fork = max(fork, root)
        forks.setdefault(fork, []).append(said(line, fork))
    for step in steps:
        step["variations"] = [v for v in forks.pop(step["ply"] - 1, []) if v]
    tail = [v for fork in sorted(forks) for v in forks[fork] if v]  # past the main line's end
    if tail:
        steps.append({"ply": None, "words": "", "href": "", "current": False, "variations": tail})
    return steps

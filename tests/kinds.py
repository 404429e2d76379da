"""The games the tests go over: read from the catalog, never listed by hand.

``option_variants(kind)`` turns a game's declared options into a few option sets worth
playing: the defaults, each flag turned over, and each number at its bounds, keeping the
sets the rules accept (a bound alone can be refused, such as a row longer than the board).
"""

from __future__ import annotations

import random
from typing import Any

from games import catalog
from games.engine import OptionError

KINDS = sorted(catalog.CATALOG)
WITH_PLAYER = sorted(kind for kind, spec in catalog.CATALOG.items() if spec.player)


def option_variants(kind: str) -> list[dict[str, Any]]:
    rules = catalog.get(kind).rules
    candidates: list[dict[str, Any]] = [{}]
    for option in rules.options:
        if option.type == "bool":
            candidates.append({option.name: not option.default})
        else:
            candidates += [{option.name: option.min}, {option.name: option.max}]
    variants = []
    for candidate in candidates:
        try:
            cleaned = rules.clean_options(candidate)
        except OptionError:
            continue
        if cleaned not in variants:
            variants.append(cleaned)
    return variants


def random_moves(kind: str, options: dict[str, Any], seed: int, stop_after: int | None = None) -> list[str]:
    """The texts of a game of random legal actions, to the end or ``stop_after`` actions."""
    rng = random.Random(seed)
    state = catalog.get(kind).rules.new_state(options)
    moves: list[str] = []
    while not state.is_over() and (stop_after is None or len(moves) < stop_after):
        move = rng.choice(list(state.legal_moves()))
        moves.append(str(move))
        state = state.play(move)
    return moves


def largest_options(kind: str) -> dict[str, Any]:
    """The game's number options each at its largest that the rules accept with the others
    (the biggest board, the most players), or {} for a game without number options."""
    rules = catalog.get(kind).rules
    chosen: dict[str, Any] = {}
    for option in rules.options:
        if option.type != "int":
            continue
        try:
            rules.clean_options({**chosen, option.name: option.max})
        except OptionError:
            continue
        chosen[option.name] = option.max
    return chosen


def boards_to_show() -> dict[str, tuple[str, dict[str, str]]]:
    """Every game's board as a new-game form makes it: label -> (kind, the form's fields):
    each game's default board, and its largest where its options make the board grow."""
    shown: dict[str, tuple[str, dict[str, str]]] = {}
    for kind in catalog.CATALOG:
        shown[kind] = (kind, {})
        largest = largest_options(kind)
        if largest:
            shown[f"{kind}-largest"] = (kind, {name: str(value) for name, value in largest.items()})
    return shown

"""Every game the site offers, each registered once (OpenSpiel's ``register_game``).

A game is one package, ``games/kinds/<kind>/``, whose ``GAME`` (a :class:`GameSpec`)
says what it is and what it provides; registering it here, ``add("<kind>")``, is the one
line that puts it on the site. Everything else (pages, API, socket, terminal, runner, tests) asks here and
never branches on a game's name.

Pure: imports the game descriptions and the games' packages, never Django.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai.base import ActionValue, ReviewEntry
from games.engine import OptionError, State
from games.spec import Capabilities, GameSpec, LevelRating, Player, level_ratings

__all__ = ["CATALOG", "Capabilities", "GameSpec", "LevelRating", "Player", "get", "level_ratings", "register"]

CATALOG: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game (each game package's one registration below; tests add toy games)."""
    CATALOG[spec.kind] = spec
    return spec


def get(kind: str) -> GameSpec:
    try:
        return CATALOG[kind]
    except KeyError:
        raise OptionError(
            "game", "Unknown game %(kind)s; known: %(known)s.", kind=repr(kind), known=", ".join(CATALOG)
        ) from None


def add(kind: str) -> GameSpec:
    """Register the game of the package ``games/kinds/<kind>/``, its ``GAME``."""
    spec: GameSpec = importlib.import_module(f"games.kinds.{kind}").GAME
    if spec.kind != kind:
        raise ValueError(f"games/kinds/{kind}/ declares {spec.kind!r}: a package is named by its kind")
    return register(spec)


# The games, one line each, in the order the home page offers them.
add("quarto")
add("tictactoe")
add("connect")
add("ultimate")
add("quixo")


# -- plain-argument entry points, for the computer's process pools ----------------------


def player_of(kind: str) -> Player:
    player = get(kind).player
    if player is None:
        raise OptionError("opponent", "%(game)s has no computer player.", game=get(kind).title)
    return player


def compute_move(
    kind: str, options: Mapping[str, Any], moves: Sequence[str], level: str, budget: float, seed: int
) -> str:
    """The text of the computer's action after ``moves``. Takes and returns plain values,
    so it can run in another process."""
    spec = get(kind)
    state = spec.rules.replay(options, moves)
    return str(player_of(kind).choose_move(state, level, budget, random.Random(seed)))


def analyse(kind: str, state: State[Any], budget: float) -> list[ActionValue]:
    return player_of(kind).analyse(state, budget)


def analyse_moves(
    kind: str, options: Mapping[str, Any], moves: Sequence[str], budget: float
) -> list[ActionValue]:
    """Every legal action after ``moves`` with its value; plain arguments, for another process."""
    return analyse(kind, get(kind).rules.replay(options, moves), budget)


def review(
    kind: str, options: Mapping[str, Any], moves: Sequence[str], budget_per_position: float
) -> list[ReviewEntry]:
    """Every action of a game judged by the computer, with the game's ``analyse``: exact
    where it proves the values, estimates elsewhere. Plain arguments, for another process."""
    return player_of(kind).review(get(kind).rules, options, moves, budget_per_position)


def warm_up() -> float:
    """Load (or compile) every player's compiled code; returns seconds taken."""
    return sum(spec.player.warm_up() for spec in CATALOG.values() if spec.player)

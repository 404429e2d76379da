"""Every game the site offers, each declared once (OpenSpiel's ``register_game``).

A :class:`GameSpec` says what a game is and what it provides: its rules, its computer
player and levels, its capabilities (declared, never probed), its template, its seat
symbols, its JSON extras, its text-board look, its action words, its board data and its
new-game options. Everything else (pages, API, socket, terminal, runner) asks here and
never branches on a game's name.

Pure: imports the engine, the players (lazily: importing the catalog compiles nothing)
and the pure formats, never Django.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from games.formats import boards, phrases, serializers, textboard

from .ai.base import ActionValue, ReviewEntry, review_game
from .engine import GameRules, OptionError, OptionSpec, State, connect, quarto, tictactoe, ultimate


@dataclass(frozen=True)
class Player:
    """A computer player: its module (imported on first use) and its levels, weakest first.

    The module offers ``choose_move(state, level, budget, rng)``, ``analyse(state,
    budget)`` and ``warm_up()``; the review is built on ``analyse``.
    """

    module_name: str
    levels: tuple[str, ...]

    @property
    def default_level(self) -> str:
        return self.levels[len(self.levels) // 2]

    @cached_property
    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    def choose_move(
        self, state: State[Any], level: str, budget: float, rng: random.Random | None = None
    ) -> Any:
        return self.module.choose_move(state, level, budget, rng)

    def analyse(self, state: State[Any], budget: float) -> list[ActionValue]:
        values: list[ActionValue] = self.module.analyse(state, budget)
        return values

    def review(
        self, rules: GameRules[Any, Any], options: Mapping[str, Any], moves: Sequence[str], budget: float
    ) -> list[ReviewEntry]:
        return review_game(rules.new_state(options), rules.parse_move, moves, self.analyse, budget)

    def warm_up(self) -> float:
        return float(self.module.warm_up())


def no_last_cell(state: Any, last: Hashable | None) -> int | None:
    return None


@dataclass(frozen=True)
class Capabilities:
    """What the computer offers for a game, declared (never probed): ``analysis`` (the
    API's analysis), ``review`` (post-game), ``hints`` (on the page), and ``exact``: where
    its values are proved, in words."""

    analysis: bool = False
    review: bool = False
    hints: bool = False
    exact: str = ""

    @classmethod
    def all(cls, exact: str) -> Capabilities:
        """Analysis, review and hints, all built on the player's ``analyse``."""
        return cls(analysis=True, review=True, hints=True, exact=exact)


@dataclass(frozen=True)
class GameSpec:
    """One game, as the site knows it."""

    kind: str
    rules: GameRules[Any, Any]
    board: boards.BoardData
    player: Player | None = None
    capabilities: Capabilities = Capabilities()
    symbols: tuple[str, ...] = ()  # how seats are shown on the board; () when pieces are shared
    extras: serializers.Extras = field(default_factory=serializers.Extras)
    look: textboard.Look = field(default_factory=textboard.Look)
    words: phrases.ActionWords = field(default_factory=phrases.ActionWords)
    last_cell: Callable[[Any, Hashable | None], int | None] = no_last_cell

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        return self.rules.options

    @property
    def levels(self) -> tuple[str, ...]:
        return self.player.levels if self.player else ()

    @property
    def default_level(self) -> str:
        return self.player.default_level if self.player else ""

    @property
    def template(self) -> str:
        """The game's own template, holding its partials (board, pieces, human_opponent...)."""
        return f"games/kinds/{self.kind}.html"

    @property
    def board_template(self) -> str:
        """The game's board partial, as ``{% include %}`` names it."""
        return f"{self.template}#board"

    @property
    def pieces_template(self) -> str:
        return f"{self.template}#pieces"

    def symbol(self, seat: int) -> str:
        return self.symbols[seat] if seat < len(self.symbols) else ""

    def level_rating(self, level: str) -> LevelRating | None:
        """The level's measured rating (bench/level_ratings.py), or None if never measured."""
        return level_ratings().get(self.kind, {}).get(level)

    def level_label(self, level: str) -> str:
        """ "club, about 1450" once the level's rating is established, else "club"."""
        rating = self.level_rating(level)
        if rating is None or not rating.established:
            return level
        return f"{level}, about {round(rating.rating, -1):.0f}"

    def last_move(self, moves: Sequence[str]) -> Hashable | None:
        return self.rules.parse_move(moves[-1]) if moves else None

    def board_data(self, state: State[Any], moves: Sequence[str], my_turn: bool) -> dict[str, Any]:
        return self.board(state, self.last_move(moves), my_turn)

    def serialize(
        self, options: Mapping[str, Any], state: State[Any], moves: Sequence[str], status: str | None = None
    ) -> dict[str, Any]:
        return serializers.serialize(self.kind, options, state, moves, status=status, extras=self.extras)

    def draw(self, state: State[Any]) -> str:
        return textboard.draw(state, self.look)


GRID_SYMBOLS = boards.GRID_SYMBOLS

# The computer's levels' ratings, as bench/level_ratings.py measured and wrote them.
LEVEL_RATINGS = Path(__file__).resolve().parent / "ai" / "data" / "level_ratings.json"
ESTABLISHED_RD = 110  # as for people: a deviation at most this is a rating, not a guess


@dataclass(frozen=True)
class LevelRating:
    rating: float
    rd: float
    games: int

    @property
    def established(self) -> bool:
        return self.rd <= ESTABLISHED_RD


@cache
def level_ratings(path: Path = LEVEL_RATINGS) -> dict[str, dict[str, LevelRating]]:
    """kind -> level -> its measured rating; empty when the file is missing or unreadable
    (the levels are then shown without a rating and never played rated)."""
    try:
        data = json.loads(path.read_text())
        return {
            kind: {
                level: LevelRating(float(v["rating"]), float(v["rd"]), int(v["games"]))
                for level, v in levels.items()
            }
            for kind, levels in data.items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


CATALOG: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game (each game module's one registration; tests add toy games)."""
    CATALOG[spec.kind] = spec
    return spec


def get(kind: str) -> GameSpec:
    try:
        return CATALOG[kind]
    except KeyError:
        raise OptionError("game", f"Unknown game {kind!r}; known: {', '.join(CATALOG)}.") from None


register(
    GameSpec(
        kind="quarto",
        rules=quarto.RULES,
        board=boards.quarto_board,
        player=Player("games.ai.quarto", ("beginner", "casual", "club", "expert", "perfect")),
        capabilities=Capabilities.all("from about ten empty cells to the end"),
        extras=serializers.QUARTO,
        look=textboard.QUARTO,
        words=phrases.QUARTO,
        last_cell=boards.quarto_last_cell,
    )
)
register(
    GameSpec(
        kind="tictactoe",
        rules=tictactoe.RULES,
        board=boards.tictactoe_board,
        player=Player("games.ai.tictactoe", ("beginner", "casual", "club", "perfect")),
        capabilities=Capabilities.all("always (the whole game is solved)"),
        symbols=GRID_SYMBOLS,
        last_cell=boards.marked_cell,
    )
)
register(
    GameSpec(
        kind="connect",
        rules=connect.RULES,
        board=boards.connect_board,
        player=Player("games.ai.connect", ("beginner", "casual", "club", "expert", "master")),
        capabilities=Capabilities.all(
            "where the solver reaches the end in its budget (Connect Four openings from the book)"
        ),
        symbols=GRID_SYMBOLS,
        extras=serializers.CONNECT,
        last_cell=boards.connect_last_cell,
    )
)
register(
    GameSpec(
        kind="ultimate",
        rules=ultimate.RULES,
        board=boards.ultimate_board,
        player=Player("games.ai.ultimate", ("beginner", "casual", "club", "expert", "master")),
        capabilities=Capabilities.all("only for won or lost positions the search proves near the end"),
        symbols=GRID_SYMBOLS,
        extras=serializers.ULTIMATE,
        look=textboard.ULTIMATE,
        last_cell=boards.ultimate_last_cell,
    )
)


# -- plain-argument entry points, for the computer's process pools ----------------------


def player_of(kind: str) -> Player:
    player = get(kind).player
    if player is None:
        raise OptionError("opponent", f"{get(kind).title} has no computer player.")
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

"""What a game is, as the site knows it: a :class:`GameSpec`.

Each game's package (``games/kinds/<kind>/``) declares one and :mod:`games.catalog`
registers it: its rules, its computer player and levels, its capabilities (declared,
never probed), its partials, its seat symbols, its board data, its JSON fields, its
text look, its action words and its new-game options.

Pure: imports the engine, the players' shared values and the pure formats, never Django
and never a game (a player's module is imported on first use, so describing a game
compiles nothing).
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

from games.ai.base import ActionValue, ReviewEntry, review_game
from games.engine import GameRules, OptionSpec, State
from games.engine.positions import Notation
from games.formats import action_words, boards, serializers, textboard


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


def nowhere(state: Any, last: Hashable | None) -> int | None:
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
    # (state, newest action, viewer may act) -> the board's data for the game's partials
    board_data: boards.BoardData
    player: Player | None = None
    capabilities: Capabilities = Capabilities()
    symbols: tuple[str, ...] = ()  # how seats are shown on the board; () when pieces are shared
    json_fields: serializers.JsonFields = field(default_factory=serializers.JsonFields)
    text_look: textboard.TextLook = field(default_factory=textboard.TextLook)
    words: action_words.ActionWords = field(default_factory=action_words.ActionWords)
    # (state, newest action) -> the cell it was played on, named in the status line
    where_played: Callable[[Any, Hashable | None], int | None] = nowhere
    stylesheets: tuple[str, ...] = ()  # static paths of the game's own stylesheets
    scripts: tuple[str, ...] = ()  # static paths of the game's own scripts
    notation: Notation | None = None  # the game's position notation, when it has one

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
        """The game's own template, holding its partials (board, pieces, human_opponent...):
        ``games/kinds/<kind>/templates/kinds/<kind>.html``."""
        return f"kinds/{self.kind}.html"

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

    def board_after(self, state: State[Any], moves: Sequence[str], my_turn: bool) -> dict[str, Any]:
        """The board's data for the partials after ``moves`` (the newest one found here)."""
        return self.board_data(state, self.last_move(moves), my_turn)

    def serialize(
        self, options: Mapping[str, Any], state: State[Any], moves: Sequence[str], status: str | None = None
    ) -> dict[str, Any]:
        return serializers.serialize(self.kind, options, state, moves, status=status, fields=self.json_fields)

    def draw(self, state: State[Any]) -> str:
        return textboard.draw(state, self.text_look, self.symbols)


# The computer's levels' ratings, as bench/level_ratings.py measured and wrote them: each
# game's in its package, games/kinds/<kind>/level_ratings.json (level -> rating, rd, games).
KINDS = Path(__file__).resolve().parent / "kinds"
RATINGS_FILE = "level_ratings.json"
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
def level_ratings(path: Path = KINDS) -> dict[str, dict[str, LevelRating]]:
    """kind -> level -> its measured rating, from each game package's file under ``path``
    (or from one file holding kind -> level -> rating); a missing or unreadable file means
    no ratings for its game (the levels are then shown without one and never played rated)."""
    if path.is_dir():
        found = {}
        for file in sorted(path.glob(f"*/{RATINGS_FILE}")):
            found.update(_read_ratings(file, file.parent.name))
        return found
    return _read_ratings(path)


def _read_ratings(path: Path, kind: str | None = None) -> dict[str, dict[str, LevelRating]]:
    """The ratings ``path`` holds: one game's (``kind``), or every game's."""
    try:
        data = json.loads(path.read_text())
        data = {kind: data} if kind is not None else data
        return {
            kind: {
                level: LevelRating(float(v["rating"]), float(v["rd"]), int(v["games"]))
                for level, v in levels.items()
            }
            for kind, levels in data.items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}

"""The catalog: every entry consistent, and a game added by one entry is playable.

"Race" is a toy game defined here and nowhere else: a row of three cells, players take
turns marking an empty one, and whoever marks c1 wins once the row is full. It has no
computer player. Registering it (rules + one catalog entry + its templates) is all it
takes for the site to list it, create it, play it, serve it as JSON, draw it, write and
read its records and play it in the terminal.
"""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games import catalog
from games.engine import GameRules, IllegalMove, OptionSpec, Outcome, State
from games.engine.base import check_playing, check_turn, clean_by_specs
from games.engine.grid import cell_name, parse_cell
from games.formats import boards, records
from games.models import Game
from games.presenting import downloads, presenters
from games.services import moves as services
from games.services.moves import Actor

# -- every entry -------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(catalog.CATALOG))
def test_an_entry_is_consistent(kind: str) -> None:
    spec = catalog.get(kind)
    assert spec.kind == spec.rules.kind and spec.title
    assert bool(spec.levels) == (spec.player is not None)
    assert spec.template == f"kinds/{kind}.html"
    if spec.player is not None:
        module = spec.player.module
        assert spec.levels == module.LEVELS, "the declared levels are the player's"
        assert spec.default_level in spec.levels
    # Capabilities are declared; each needs the player to provide what it rests on.
    if spec.capabilities.analysis or spec.capabilities.review or spec.capabilities.hints:
        assert spec.player is not None and callable(getattr(spec.player.module, "analyse", None))
    assert bool(spec.capabilities.exact) == spec.capabilities.analysis
    # The options: declared once, and their defaults are what clean_options makes of nothing.
    assert spec.rules.clean_options({}) == {o.name: o.default for o in spec.options} or not spec.options
    for option in spec.options:
        assert option.type in ("int", "bool")
        assert (option.min is not None) == (option.type == "int")


def test_an_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="Unknown game 'chess'; known: quarto"):
        catalog.get("chess")


def test_importing_the_catalog_loads_no_player() -> None:
    player = "games.kinds.connect.player"
    code = f"import sys, games.catalog; print({player!r} in sys.modules, 'numba' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]


def test_connect_options_are_declared_once_and_checked_from_the_declaration() -> None:
    fields = {o.name: o for o in catalog.get("connect").options}
    assert (fields["width"].min, fields["width"].max, fields["players"].max) == (3, 12, 4)
    with pytest.raises(ValueError, match="width must be from 3 to 12"):
        catalog.get("connect").rules.clean_options({"width": 13})


# -- a toy game ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Take:
    cell: int

    def __str__(self) -> str:
        return cell_name(self.cell, 3)


@dataclasses.dataclass(frozen=True)
class RaceState:
    board: tuple[int | None, ...] = (None, None, None)
    to_move: int = 0
    outcome: Outcome | None = None
    width = 3
    height = 1
    num_players = 2

    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_moves(self) -> list[Take]:
        return [] if self.is_over() else [Take(c) for c, owner in enumerate(self.board) if owner is None]

    def play(self, move: Take) -> RaceState:
        check_playing(self)
        check_turn(self, self.to_move)
        if self.board[move.cell] is not None:
            raise IllegalMove("occupied", f"{move} is taken.")
        board = tuple(self.to_move if c == move.cell else owner for c, owner in enumerate(self.board))
        full = None not in board
        winner = board[2]
        outcome = Outcome(winner, ((2,),)) if full else None
        return RaceState(board, 1 - self.to_move, outcome)


RACE_OPTIONS = (OptionSpec("fast", "Fast", "bool", False),)


def race_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return clean_by_specs(options, RACE_OPTIONS)


RACE_RULES: GameRules[Any, Any] = GameRules(
    kind="race",
    title="Race",
    initial_state=lambda fast=False: RaceState(),
    parse_move=lambda text: Take(parse_cell(text, 3, 1)),
    clean_options=race_options,
    default_options={"fast": False},
    options=RACE_OPTIONS,
)


def race_board(state: Any, last: Any, my_turn: bool) -> dict[str, Any]:
    targets = boards.cell_targets(state) if my_turn else {}
    cells = boards.grid_cells(state, targets, set(), boards.marked_cell(state, last), RACE_SYMBOLS)
    return boards.grid_data(state, cells, RACE_SYMBOLS)


RACE_SYMBOLS = ("R", "S")
RACE = catalog.GameSpec(
    kind="race",
    rules=RACE_RULES,
    board_data=race_board,
    symbols=RACE_SYMBOLS,
    where_played=boards.marked_cell,
)


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch, settings: Any, tmp_path: Path) -> Iterator[catalog.GameSpec]:
    """Race in the catalog, and its templates (the partials every game brings)."""
    board = "{% for row in rows %}{% for c in row %}{{ c.label }};{% endfor %}{% endfor %}"
    text = (
        "{% load partials %}"
        f"{{% partialdef board %}}{board}{{% endpartialdef %}}"
        "{% partialdef pieces %}{% endpartialdef %}"
        "{% partialdef human_opponent %}a friend{% endpartialdef %}"
    )
    (tmp_path / "kinds").mkdir(parents=True)
    (tmp_path / "kinds" / "race.html").write_text(text)
    templates = [dict(t) for t in settings.TEMPLATES]
    templates[0]["DIRS"] = [*templates[0].get("DIRS", []), tmp_path]
    settings.TEMPLATES = templates
    monkeypatch.setitem(catalog.CATALOG, "race", RACE)
    yield RACE


def test_the_toy_state_follows_the_protocol() -> None:
    state: State[Any] = RaceState()
    assert [str(m) for m in state.legal_moves()] == ["a1", "b1", "c1"]


@pytest.mark.django_db(transaction=True)
def test_a_game_added_by_one_catalog_entry_is_playable(race: catalog.GameSpec, client: Client) -> None:
    # The new-game page lists it, with its options built from the declaration.
    home = client.get("/")
    assert home.status_code == 200 and "Race" in home.content.decode()
    listed = {g["kind"]: g for g in home.context["games"]}
    assert listed["race"]["levels"] == [] and listed["race"]["template"] == "kinds/race.html"
    assert listed["race"]["numbers"] == []
    assert listed["race"]["flags"] == [
        {
            "name": "fast",
            "label": "Fast",
            "input_type": "checkbox",
            "default": False,
            "min": None,
            "max": None,
            "checked": False,
            "error": "",
        }
    ]
    # No computer player: the computer cannot be chosen, a friend can.
    with pytest.raises(services.ServiceError, match="Race has no computer player"):
        services.create_game("race", opponent="ai", player_id="p1")
    response = client.post("/games/new", {"kind": "race", "opponent": "human", "seat": "first"})
    assert response.status_code == 303
    game = Game.objects.get(kind="race")
    services.join_game(game.pk, invite=game.invite_code, player_id="p2")
    first = Actor(player_id=game.seat_list[0].player_id)  # the creator, who starts

    # A move through the one move path.
    game = services.play_move(game.pk, first, "c1", 0)
    assert game.ply == 1 and game.move_texts == ["c1"]

    # The page's context, the status line and the API's JSON, all from the entry.
    context = presenters.game_context(game, Actor(player_id="p2"))
    assert context["kind_template"] == "kinds/race.html"
    assert context["board_template"] == "kinds/race.html#board"
    assert context["last_action"] == "Player 1 (R) played c1."
    assert [c["move"] for c in context["rows"][0]] == ["a1", "b1", None]
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200 and "c1: R" in page.content.decode()
    state = client.get(f"/api/v1/games/{game.pk}").json()
    assert state["game"] == "race" and state["legal_moves"] == ["a1", "b1"]
    assert state["board"] == [
        [{"cell": "a1", "owner": None}, {"cell": "b1", "owner": None}, {"cell": "c1", "owner": 0}]
    ]
    assert downloads.game_json(game)["width"] == 3

    # The text board.
    assert race.draw(game.state).splitlines() == ["   a b c", "1  . . R"]


@pytest.mark.django_db(transaction=True)
def test_the_toy_game_has_a_record_and_a_terminal_game(race: catalog.GameSpec, client: Client) -> None:
    # A record: written from a game, read back through the same rules, imported by the API.
    game = services.import_game("race", {"fast": True}, ["a1", "c1", "b1"], with_token=False).game
    text = records.format_text(downloads.game_record(game))
    assert '[Game "race"]' in text and '[Result "0-1"]' in text
    record, state = records.load(text)
    assert record.moves == ("a1", "c1", "b1") and state.outcome.winner == 1
    imported = client.post("/api/v1/records", json.dumps(text), content_type="application/json")
    assert imported.status_code == 201, imported.content
    assert Game.objects.get(pk=imported.json()["id"]).move_texts == ["a1", "c1", "b1"]

    # A terminal game, hot-seat, with the toy's own option from its declaration.
    out = io.StringIO()
    lines = io.StringIO("c1\na1\nb1\n")
    call_command("play", "race", "--vs", "human", "--fast", stdin=lines, stdout=out)
    said = out.getvalue()
    assert "Race #" in said and "Player 1 (R) wins." in said
    assert Game.objects.filter(kind="race").latest("pk").options == {"fast": True}

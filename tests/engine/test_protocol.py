"""What every game's rules share: typed entry points, move texts and reprs that read back,
boards that describe their own size, and positions that survive their ASCII form."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games import catalog
from games.engine import grid

from ..kinds import KINDS, option_variants

KINDS_DIR = Path(catalog.__file__).resolve().parent / "kinds"

# Each registered game's rules module, found from its rules (the catalog is the one list).
MODULES = {kind: sys.modules[catalog.get(kind).rules.parse_move.__module__] for kind in KINDS}


def playouts(kind: str, seed: int, variants: list[dict[str, Any]] | None = None) -> list[object]:
    """Every state of a few random games of ``kind``, under each of its option variants."""
    rng = random.Random(seed)
    states: list[object] = []
    for options in option_variants(kind) if variants is None else variants:
        for _ in range(3):
            state = catalog.get(kind).rules.new_state(options)
            states.append(state)
            while not state.is_over():
                state = state.play(rng.choice(state.legal_moves()))
                states.append(state)
    return states


def test_every_game_package_is_registered() -> None:
    """Each package under games/kinds/ is a registered game whose rules module is its own."""
    packages = {path.parent.name for path in KINDS_DIR.glob("*/rules.py")}
    assert packages <= set(MODULES)
    assert all(module.RULES is catalog.get(kind).rules for kind, module in MODULES.items())
    assert all(
        module.__name__ == f"games.kinds.{kind}.rules" for kind, module in MODULES.items() if kind in packages
    )


@pytest.mark.parametrize("kind", sorted(MODULES))
def test_moves_read_back_from_their_text_and_their_repr(kind: str) -> None:
    module: ModuleType = MODULES[kind]
    names = vars(sys.modules[module.__name__])
    for state in playouts(kind, seed=12):
        for move in state.legal_moves():  # type: ignore[attr-defined]
            assert module.parse_move(str(move)) == move
            assert eval(repr(move), names) == move


@pytest.mark.parametrize("kind", sorted(MODULES))
def test_states_know_their_size(kind: str) -> None:
    for state in playouts(kind, seed=3)[:5]:
        assert state.width * state.height == len(state.board)  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", KINDS)
def test_positions_survive_their_ascii_form(kind: str) -> None:
    """``from_ascii`` is part of the protocol: a position's text, with what the text leaves
    out (``ascii_keywords``: the piece in hand, the side to move, the rules in force...),
    reads back as the same position."""
    rules = catalog.get(kind).rules
    assert rules.from_ascii is not None, f"{kind} has no from_ascii"
    for state in playouts(kind, seed=5)[:80]:
        again = rules.from_ascii(str(state), **rules.ascii_keywords(state))
        assert again.board == state.board and again.outcome == state.outcome  # type: ignore[attr-defined]
        assert again.to_move == state.to_move  # type: ignore[attr-defined]
        assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]  # type: ignore[attr-defined]


def test_quarto_positions_read_back_whole() -> None:
    quarto = MODULES["quarto"]
    for state in playouts("quarto", seed=7):
        assert quarto.RULES.from_ascii(str(state), **quarto.RULES.ascii_keywords(state)) == state


def test_quarto_ascii_board_reads_top_rank_first() -> None:
    state = MODULES["quarto"].RULES.replay({}, ["8", "a1", "15", "d4"])
    assert str(state).splitlines() == [" .  .  . 15", " .  .  .  .", " .  .  .  .", " 8  .  .  ."]


def test_grid_lines_are_the_familiar_tables() -> None:
    assert grid.lines(3, 3, 3) == (
        (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
    )  # fmt: skip
    assert len(grid.lines(4, 4, 4)) == 10 and len(grid.blocks(4, 4, 2, 1)) == 9
    assert grid.blocks(9, 9, 3, 3)[4] == (30, 31, 32, 39, 40, 41, 48, 49, 50)
    assert len(grid.lines(7, 6, 4)) == 69  # Connect Four's lines

"""The clock bench's simple human player (bench/clock_computer.py; the bench itself is never run here)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from games.kinds.tictactoe import rules as ttt

PATH = Path(__file__).resolve().parents[2] / "bench" / "clock_computer.py"
spec = importlib.util.spec_from_file_location("clock_computer", PATH)
assert spec and spec.loader
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_the_simple_player_wins_when_it_can() -> None:
    state = ttt.from_ascii("XX.\nOO.\n...")  # X to move: c3 wins
    assert {str(bench.simple_action(state, random.Random(seed))) for seed in range(20)} == {"c3"}


def test_the_simple_player_never_hands_the_next_player_a_win() -> None:
    state = ttt.from_ascii("OO.\n.X.\n..X", to_move=0)  # X to move, no win: must stop O at c3
    assert {str(bench.simple_action(state, random.Random(seed))) for seed in range(20)} == {"c3"}

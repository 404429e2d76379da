"""The book bench's account of a lost game (bench/quarto_book.py; the bench itself is never run here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from games.kinds.quarto.rules import RULES

PATH = Path(__file__).resolve().parents[2] / "bench" / "quarto_book.py"
spec = importlib.util.spec_from_file_location("quarto_book", PATH)
assert spec and spec.loader
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

# The first player kept the draw through the book, then placed 8 on c4 (11 empty cells), a
# lost position, and lost; the rest of the game is best play from both sides.
LOST_TEXT = "0 b4 7 b2 1 a2 9 c2 2 c1 8 c4 4 a3 14 b3 6 d1 12 d2 5 a4 15 c3 10 d3 11 d4 3 a1"
LOST = LOST_TEXT.split()


def _record(moves: list[str], seat: int) -> dict[str, object]:
    own = [
        {"ply": ply, "source": "book" if ply < 10 else "search", "cpu": 0.01, "wall": 0.02}
        for ply in range(len(moves))
        if RULES.replay({}, moves[:ply]).to_move == seat
    ]
    return {"moves": moves, "own": own}


def test_blame_names_the_first_action_that_lost_the_draw() -> None:
    assert RULES.replay({}, LOST).outcome.winner == 1  # type: ignore[union-attr]
    text = bench.blame(_record(LOST, 0), bench.Values())
    assert text.startswith("ply 11 (c4, 11 empty) turned +0 into -1: search")


def test_blame_clears_the_side_that_won() -> None:
    assert bench.blame(_record(LOST, 1), bench.Values()) == "no action of the perfect side lowered its value"

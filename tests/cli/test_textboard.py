"""Boards as text: Quarto's pieces, grid games' marks, Ultimate's boxes."""

from __future__ import annotations

from dataclasses import dataclass

from games import catalog
from games.engine import Outcome
from games.formats import textboard


def test_quarto_board_shows_pieces_hand_and_names() -> None:
    state = catalog.get("quarto").rules.replay({}, ["8", "a1", "15"])
    text = textboard.draw(state, catalog.get("quarto").text_look)
    lines = text.splitlines()
    assert lines[0].split() == ["a", "b", "c", "d"]
    assert lines[4].split() == ["1", "8", ".", ".", "."]
    assert "In hand: 15 (tall dark round hollow)" in text
    assert " 0 short light square solid" in text and " 8 short light round solid" not in text


@dataclass(frozen=True)
class Grid:
    width: int
    height: int
    board: tuple[int | None, ...]
    outcome: Outcome | None = None
    allowed_boards: tuple[int, ...] = ()

    def is_over(self) -> bool:
        return self.outcome is not None


def test_grid_games_draw_the_game_s_own_symbols() -> None:
    state = Grid(3, 3, (0, None, None, None, 1, None, None, None, 2))
    assert textboard.draw(state, symbols=("X", "O", "A")).splitlines() == [
        "   a b c",
        "3  . . A",
        "2  . O .",
        "1  X . .",
    ]
    # A game without symbols shows a seat by its number.
    assert textboard.draw(state).splitlines()[1:] == ["3  . . 3", "2  . 2 .", "1  1 . ."]


def test_wide_boards_keep_rank_numbers_aligned() -> None:
    state = Grid(12, 12, (None,) * 144)
    lines = textboard.draw(state).splitlines()
    assert lines[1].startswith("12  .") and lines[-1].startswith(" 1  .")
    assert lines[0].split()[-1] == "l"


def test_ultimate_draws_box_lines_and_where_to_play() -> None:
    board: list[int | None] = [None] * 81
    board[0] = 0  # a1
    board[40] = 1  # e5, the centre
    state = Grid(9, 9, tuple(board), allowed_boards=(4,))
    lines = textboard.draw(state, catalog.get("ultimate").text_look, ("X", "O")).splitlines()
    assert lines[0] == "   a b c │ d e f │ g h i"
    assert lines[4] == "  ───────┼───────┼───────"
    assert lines[6] == "5  . . . │ . O . │ . . ."
    assert lines[11] == "1  X . . │ . . . │ . . ."
    assert lines[-1] == "Play in: d4-f6"

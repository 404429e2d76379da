"""Connect-N rules: perft-style counts cross-checked by a naive second implementation,
table tests, every error code, options and properties."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import grid
from games.engine.base import BadNotation, IllegalMove, OptionError
from games.kinds.connect import rules as connect

# --- a deliberately naive second implementation -------------------------------------


def naive_winner(grid: list[list[int | None]], n: int) -> int | None:
    """Scan every cell and direction for n consecutive stones of one owner."""
    height, width = len(grid), len(grid[0])
    for r in range(height):
        for f in range(width):
            owner = grid[r][f]
            if owner is None:
                continue
            for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(r + k * dr, f + k * df) for k in range(n)]
                if all(0 <= rr < height and 0 <= ff < width and grid[rr][ff] == owner for rr, ff in cells):
                    return owner
    return None


def naive_moves(grid: list[list[int | None]], gravity: bool) -> list[tuple[int, int]]:
    height, width = len(grid), len(grid[0])
    if gravity:
        moves = []
        for f in range(width):
            for r in range(height):
                if grid[r][f] is None:
                    moves.append((r, f))
                    break
        return moves
    return [(r, f) for r in range(height) for f in range(width) if grid[r][f] is None]


def naive_count(width: int, height: int, n: int, gravity: bool) -> tuple[int, Counter[int | None]]:
    """Distinct reachable positions and the results of the terminal ones."""
    start: list[list[int | None]] = [[None] * width for _ in range(height)]
    seen = {str(start)}
    stack = [(start, 0)]
    results: Counter[int | None] = Counter()
    while stack:
        grid, mover = stack.pop()
        for r, f in naive_moves(grid, gravity):
            child = [row[:] for row in grid]
            child[r][f] = mover
            key = str(child)
            if key in seen:
                continue
            seen.add(key)
            winner = naive_winner(child, n)
            if winner is not None:
                results[winner] += 1
            elif all(cell is not None for row in child for cell in row):
                results[None] += 1
            else:
                stack.append((child, 1 - mover))
    return len(seen), results


def engine_count(width: int, height: int, n: int, gravity: bool) -> tuple[int, Counter[int | None]]:
    start = connect.initial_state(width=width, height=height, n=n, gravity=gravity)
    seen = {start.board}
    stack = [start]
    results: Counter[int | None] = Counter()
    while stack:
        state = stack.pop()
        for move in state.legal_moves():
            child = state.play(move)
            if child.board in seen:
                continue
            seen.add(child.board)
            if child.outcome is not None:
                results[child.outcome.winner] += 1
            else:
                stack.append(child)
    return len(seen), results


@pytest.mark.parametrize(
    ("width", "height", "n", "gravity", "positions", "results"),
    [
        (3, 3, 3, False, 5478, {0: 626, 1: 316, None: 16}),  # tic-tac-toe
        (3, 3, 3, True, 694, {0: 118, 1: 55, None: 16}),
        (4, 3, 3, True, 7157, {0: 1572, 1: 926, None: 28}),
        (4, 4, 3, True, 41750, {0: 10476, 1: 7326, None: 18}),
        pytest.param(4, 3, 3, False, 111973, {0: 20312, 1: 12070, None: 28}, marks=pytest.mark.slow),
    ],
)
def test_reachable_positions(
    width: int, height: int, n: int, gravity: bool, positions: int, results: dict[int | None, int]
) -> None:
    count, found = engine_count(width, height, n, gravity)
    assert (count, dict(found)) == (positions, results)
    if width * height <= 12:
        assert naive_count(width, height, n, gravity) == (count, found)


# --- table tests --------------------------------------------------------------------

C4 = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_gravity_lands_on_the_lowest_empty_rank() -> None:
    state = connect.initial_state()
    assert (state.width, state.height, state.n, state.gravity, state.num_players) == (7, 6, 4, True, 2)
    state = state.play(connect.parse_move("d")).play(connect.parse_move("d"))
    assert state.board[3] == 0 and state.board[10] == 1
    assert state.last_cell == 10
    assert state.landing_cell(3) == 17
    assert state.legal_targets == (0, 1, 2, 17, 4, 5, 6)
    assert state.move_at(38) == connect.Drop(3)
    assert connect.to_ascii(state).splitlines()[-2:] == [". . . O . . .", ". . . X . . ."]


@pytest.mark.parametrize(
    ("board", "n", "winner", "line"),
    [
        ("... ....\n" * 0 + ". . . . . . .\n" * 5 + "X X X X O O O", 4, 0, (0, 1, 2, 3)),
        (". . . . . . .\n" * 2 + ". . O . . . .\n" * 4 + "X X X . . . .", 4, 1, (9, 16, 23, 30)),
        (
            ". . . . . . .\n. . . . . . .\n. . . X . . .\n. . X O . . .\n. X O O . . .\nX O X O . . .",
            4,
            0,
            (0, 8, 16, 24),
        ),
        (
            ". . . . . . .\n. . . . . . .\n. . . . . . O\n. . . . . O X\n. . . . O X X\n. . . O X X X",
            4,
            1,
            (3, 11, 19, 27),
        ),
    ],
)
def test_lines_in_every_direction(board: str, n: int, winner: int, line: tuple[int, ...]) -> None:
    state = connect.from_ascii(board, n=n)
    assert state.outcome is not None and state.outcome.winner == winner
    assert sorted(state.outcome.lines[0]) == sorted(line)


def test_scattered_stones_are_not_a_win() -> None:
    state = connect.from_ascii(C4.strip().rsplit("\n", 1)[0] + "\nX X . X X O O", to_move=1)
    assert state.outcome is None
    state = state.play(connect.Drop(6))  # O
    state = state.play(connect.Drop(2))  # X fills the gap: five in a row
    assert state.outcome is not None and state.outcome.winner == 0
    assert state.outcome.lines == ((0, 1, 2, 3, 4),)


def test_without_gravity_cells_are_named() -> None:
    state = connect.initial_state(width=5, height=5, n=3, gravity=False)
    state = state.play(connect.parse_move("c3"))
    assert state.board[12] == 0
    assert connect.Place(2, 2) not in state.legal_moves()
    assert len(state.legal_moves()) == 24
    assert state.move_at(13) == connect.Place(3, 2)
    for text in ("e1", "b2", "a5"):  # O, X, O
        state = state.play(connect.parse_move(text))
    assert state.outcome is None
    state = state.play(connect.parse_move("d4"))  # X: b2 c3 d4
    assert state.outcome is not None and state.outcome.winner == 0
    assert state.outcome.lines == ((6, 12, 18),)


def test_full_board_is_a_draw() -> None:
    state = connect.from_ascii("XOX\nXOX\nOXO", n=3, gravity=False)
    assert state.outcome is not None and state.outcome.is_draw


def test_three_players_round_robin() -> None:
    state = connect.initial_state(width=5, height=4, n=3, players=3)
    seats = []
    for text in ("a", "b", "c", "a", "b", "c", "a"):
        seats.append(state.to_move)
        state = state.play(connect.parse_move(text), player=state.to_move)
    assert seats == [0, 1, 2, 0, 1, 2, 0]
    assert state.outcome is not None and state.outcome.winner == 0
    assert state.outcome.lines == ((0, 5, 10),)
    state = connect.from_ascii("....\n....\nAXB.\nXOAB", n=3, players=4)
    assert state.to_move == 7 % 4 and state.outcome is None


# --- errors and notation ------------------------------------------------------------


def test_error_codes() -> None:
    c4 = connect.initial_state()
    full_column = c4
    for _ in range(6):
        full_column = full_column.play(connect.Drop(0))
    free = connect.initial_state(width=4, height=4, n=3, gravity=False).play(connect.parse_move("b2"))
    won = connect.from_ascii(C4.strip().rsplit("\n", 1)[0] + "\nX X X X O O O")
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: full_column.play(connect.Drop(0)), "column_full"),
        (lambda: c4.play(connect.Drop(7)), "out_of_bounds"),
        (lambda: c4.play(connect.parse_move("a7")), "out_of_bounds"),
        (lambda: c4.play(connect.parse_move("a2")), "not_landing_cell"),
        (lambda: full_column.play(connect.parse_move("a6")), "occupied"),
        (lambda: c4.play(connect.Drop(0), player=1), "not_your_turn"),
        (lambda: won.play(connect.Drop(6)), "game_over"),
        (lambda: free.play(connect.parse_move("b2")), "occupied"),
        (lambda: free.play(connect.parse_move("e1")), "out_of_bounds"),
        (lambda: free.play(connect.parse_move("b")), "cell_required"),
        (lambda: connect.parse_move("m"), "out_of_bounds"),
        (lambda: connect.parse_move("a13"), "out_of_bounds"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalMove) as info:
            action()
        assert info.value.code == code, code
        assert info.value.message
    assert c4.play(connect.parse_move("a1")).board[0] == 0  # the landing cell itself is fine


@pytest.mark.parametrize("text", ["", "4", "dd", "d-3", "1d", "é", "d 3"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation) as info:
        connect.parse_move(text)
    assert info.value.code == "bad_notation"


def test_parse_and_print() -> None:
    assert connect.parse_move(" D ") == connect.Drop(3)
    assert connect.parse_move("L12") == connect.Place(11, 11)
    assert str(connect.Drop(3)) == "d" and str(connect.Place(0, 9)) == "a10"


def test_options() -> None:
    assert connect.clean_options({}) == {"width": 7, "height": 6, "n": 4, "gravity": True, "players": 2}
    form = {"width": "9", "height": "3", "n": "9", "gravity": "off", "players": "4"}
    assert connect.clean_options(form) == {"width": 9, "height": 3, "n": 9, "gravity": False, "players": 4}
    state = connect.RULES.new_state(form)
    assert (state.width, state.height, state.num_players, len(state.board)) == (9, 3, 4, 27)
    assert connect.RULES.kind == "connect" and connect.RULES.title == "Connect-N"
    for bad in (
        {"width": 2},
        {"width": 13},
        {"height": "x"},
        {"n": 8},
        {"n": 2},
        {"players": 5},
        {"players": 1},
        {"gravity": "maybe"},
        {"colour": "red"},
        {"width": True},
    ):
        with pytest.raises(OptionError):
            connect.clean_options(bad)
    with pytest.raises(OptionError):
        connect.initial_state(width=3, height=3, n=4)


# --- playouts and properties --------------------------------------------------------


def check_invariants(state: connect.State) -> None:
    w, h = state.width, state.height
    counts = [state.board.count(seat) for seat in range(state.num_players)]
    stones = sum(counts)
    assert all(
        counts[seat] == (stones - seat + state.num_players - 1) // state.num_players
        for seat in range(len(counts))
    )
    if state.outcome is None:
        assert state.to_move == stones % state.num_players
    if state.gravity:
        for f in range(w):
            column = [state.board[r * w + f] for r in range(h)]
            filled = [c for c in column if c is not None]
            assert column[: len(filled)] == filled, "a floating stone"
    grid = [list(state.board[r * w : (r + 1) * w]) for r in range(h)]
    winner = naive_winner(grid, state.n)
    if winner is not None:
        assert state.outcome is not None and state.outcome.winner == winner
        for line in state.outcome.lines:
            assert len(line) >= state.n and all(state.board[c] == winner for c in line)
    elif None not in state.board:
        assert state.outcome is not None and state.outcome.is_draw
    else:
        assert state.outcome is None
    for move in state.legal_moves():
        assert connect.parse_move(str(move)) == move
        assert state.target_of(move) in state.legal_targets


def random_game(rng: random.Random, options: dict[str, int | bool]) -> None:
    state = connect.initial_state(**options)  # type: ignore[arg-type]
    check_invariants(state)
    while not state.is_over():
        state = state.play(rng.choice(state.legal_moves()))
        check_invariants(state)


def test_random_playouts_connect_four() -> None:
    rng = random.Random(3)
    for _ in range(40):
        random_game(rng, {})


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 8),
    st.integers(3, 8),
    st.integers(3, 8),
    st.booleans(),
    st.integers(2, 4),
    st.integers(0, 2**32),
)
def test_random_playouts_any_options(
    width: int, height: int, n: int, gravity: bool, players: int, seed: int
) -> None:
    n = min(n, max(width, height))
    random_game(
        random.Random(seed),
        {"width": width, "height": height, "n": n, "gravity": gravity, "players": players},
    )


def test_connect_lines_are_the_grid_s_lines() -> None:
    assert {frozenset(line) for line in grid.lines(7, 6, 4)} == {
        frozenset(line) for line in connect.all_lines(7, 6, 4)
    }

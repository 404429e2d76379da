"""The Connect Four opening book: the shipped file is sound and complete, lookups see
mirror images, and the builder writes what the solver finds and resumes."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest

from games.engine.grid import FILES
from games.kinds.connect import book, build_book
from games.kinds.connect import player as ai
from games.kinds.connect import rules as connect

ENTRIES = list(book._parse(book.BOOK_FILE))
BY_KEY = {book.canonical(book.replay(m))[0]: (m, c, s) for m, c, s in ENTRIES}
# How far the book goes for each seat (0 moves first): stones + 1 of its deepest entries.
DEPTH = {
    seat: max((len(m) for m, _c, _s in ENTRIES if len(m) % 2 == seat), default=-1) + 1 for seat in (0, 1)
}


def score_of(moves: str) -> int | None:
    found = book.lookup(book.replay(moves))
    return None if found is None else found[1]


def test_every_entry_is_a_legal_position_with_an_open_column() -> None:
    assert ENTRIES, "the book file is empty"
    assert len(BY_KEY) == len(ENTRIES), "a position (or its mirror image) is listed twice"
    for moves, column, _score in ENTRIES:
        state = book.replay(moves)
        assert not state.is_over()
        assert column in state.droppable_columns, moves
        # The book is read by bit operations on the letters alone; they agree with the rules.
        assert book._canonical_key(book._key_of_moves(moves)) == book.canonical(state), moves


def test_the_book_answers_every_reply_to_its_own_moves() -> None:
    """Both seats, every opponent reply, up to the book's depth: the top level never
    leaves the book early while it follows it."""
    for first in ("", *FILES[:7]):
        assert book.lookup(book.replay(first)) is not None, first
    for moves, column, _score in ENTRIES:
        if len(moves) + 2 >= DEPTH[len(moves) % 2]:
            continue
        after = moves + FILES[column]
        for reply in book.replay(after).droppable_columns:
            assert book.lookup(book.replay(after + FILES[reply])) is not None, after + FILES[reply]


def test_scores_agree_along_the_book_lines() -> None:
    """A score counts stones to the end of the game, so it is the same at every ply of a
    best line: an entry's score is the worst of the scores after each reply."""
    checked = 0
    for moves, column, score in ENTRIES:
        after = moves + FILES[column]
        position = book.replay(after)
        if position.is_over():  # the book's stone wins at once: the top score left
            assert score == (book.WIDTH * book.HEIGHT + 1 - len(moves)) // 2, moves
            continue
        replies = [score_of(after + FILES[r]) for r in position.droppable_columns]
        if len(moves) + 2 < DEPTH[len(moves) % 2]:
            assert None not in replies
            assert score == min(r for r in replies if r is not None), moves
            checked += 1
    assert checked > 0


def test_the_deepest_entry_agrees_with_the_solver() -> None:
    """One exact check in the suite (a 6-stone position takes the solver seconds to
    minutes); the test above ties every other entry to the entries below it."""
    moves, column, score = max(ENTRIES, key=lambda e: (len(e[0]), e[0]))
    state = book.replay(moves)
    solved = ai.solve_best(state, 120.0)
    assert solved is not None and solved[1] == score, moves
    # The book's column keeps the position's value: the reply is lost if the entry wins.
    reply = ai.solve_best(state.play(connect.Drop(column)), 120.0, weak=True)
    assert reply is not None and reply[1] == -min(max(score, -1), 1), moves


def test_mirror_images_share_an_entry() -> None:
    """Every entry, looked up from its mirror image, gives the mirrored column and the same
    score; a position that is its own mirror image has both columns and keeps one."""
    for moves, column, score in ENTRIES:
        mirrored = "".join(FILES[6 - FILES.index(m)] for m in moves)
        state = book.replay(moves)
        assert book.lookup(state) == (column, score), moves
        key = book._key_of_moves(moves)
        expected = column if key == book._mirror(key) else 6 - column
        assert book.lookup(book.replay(mirrored)) == (expected, score), mirrored


def test_other_boards_have_no_book() -> None:
    assert book.lookup(connect.initial_state(width=6, height=5)) is None
    assert book.lookup(connect.initial_state(gravity=False)) is None


def test_builder_writes_solver_results_and_resumes(tmp_path: Path) -> None:
    start = "begggacadgddfdgbadag"  # 20 stones: every position below solves in milliseconds
    path = tmp_path / "book.txt"
    out = StringIO()
    assert build_book.main(["--plies", "24", "--file", str(path), "--start", start], out) == 0
    entries = list(book._parse(path))
    assert entries and all(len(m) in (20, 21, 22, 23) for m, _c, _s in entries)
    assert f"{len(entries)} positions added" in out.getvalue()
    for moves, column, score in entries:
        state = book.replay(moves)
        solved = ai.solve_columns(state, 10.0)
        assert solved is not None and solved[column] == score == max(solved.values()), moves
    again = StringIO()
    assert build_book.main(["--plies", "24", "--file", str(path), "--start", start], again) == 0
    assert "0 positions added" in again.getvalue()
    assert list(book._parse(path)) == entries


@pytest.mark.parametrize("start", ["dz", "ddddddd"])
def test_builder_refuses_a_bad_start(start: str, tmp_path: Path) -> None:
    err = StringIO()
    assert build_book.main(["--file", str(tmp_path / "b.txt"), "--start", start], StringIO(), err) == 2
    assert "not a line of play" in err.getvalue()
    assert not (tmp_path / "b.txt").exists()

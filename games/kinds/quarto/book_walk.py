"""Walking the opening book as the site's games do: states, not keys.

Used by the book's tests and benchmarks: :func:`covered_replies` lists the opponent's
replies (place, then a safe give) after which the book answers again, and
:func:`keeps_value` re-proves a book action with the solver.
"""

from __future__ import annotations

from .book import Book, action_values, book, book_move
from .rules import Give, Place, State, safe_pieces, winning_cells
from .solver import FULL_DEPTH, Solver, encode


def replies(state: State) -> list[tuple[Place, Give]]:
    """Every reply of the side to place: a placement that does not win at once, then a
    safe give (replies that lose or win at once need no book)."""
    assert state.in_hand is not None
    wins = set(winning_cells(state, state.in_hand))
    found: list[tuple[Place, Give]] = []
    for cell in state.empty_cells:
        if cell in wins:
            continue
        after = state.play(Place(cell))
        found.extend((Place(cell), Give(q)) for q in safe_pieces(after))
    return found


def covered_replies(state: State, the_book: Book | None = None) -> list[tuple[Place, Give]]:
    """The replies after which the book holds the next own turn."""
    b = the_book or book()
    return [(p, g) for p, g in replies(state) if action_values(state.play(p).play(g), b)]


def play_book_turn(state: State, the_book: Book | None = None) -> State | None:
    """The book's place and give from ``state``, or ``None`` when it has no answer."""
    place = book_move(state, the_book)
    if place is None:
        return None
    after = state.play(place)
    if after.is_over():
        return after
    give = book_move(after, the_book)
    return None if give is None else after.play(give)


def keeps_value(state: State, solver: Solver, low: int = 0) -> bool:
    """Whether the position after a book turn (the opponent to place) is worth at most
    ``-low`` (class) to the opponent: the book's action keeps the value ``low``."""
    assert state.in_hand is not None and state.in_hand not in winning_cells(state, state.in_hand)
    position = encode(state)
    if low >= 1:
        return solver.search(position, state.in_hand, -1, 0, FULL_DEPTH).value <= -1
    return solver.search(position, state.in_hand, 0, 1, FULL_DEPTH).value <= 0

"""Post-game reviews for every game with a computer player, built on each player's
analysis: exact for tic-tac-toe, the solver's values for Connect Four where it reaches,
estimates (labelled as not proved) elsewhere; the turning point is the loser's losing move."""

from __future__ import annotations

import pytest

from games import catalog
from games.ai.base import DRAW, LOSS, WIN, ReviewEntry, first_proved_loss, mark_turning_point

from ..kinds import WITH_PLAYER, random_moves


@pytest.mark.parametrize("kind", WITH_PLAYER)
def test_every_game_with_a_computer_player_has_a_review(kind: str) -> None:
    assert catalog.get(kind).capabilities.review


def test_tictactoe_review_is_exact_and_turns_on_the_loser_s_move() -> None:
    # O answers the centre with an edge (b1) and loses; X wins on file c.
    moves = ["b2", "b1", "c1", "a3", "c3", "a1", "c2"]
    entries = catalog.review("tictactoe", {}, moves, 0.01)
    assert [e.text for e in entries] == moves and [e.seat for e in entries] == [0, 1] * 3 + [0]
    assert all(e.proved and e.verdict is not None for e in entries)
    assert entries[0].value_before == DRAW and entries[0].verdict == "best"
    second = entries[1]
    assert (second.value_before, second.value_after, second.verdict) == (DRAW, LOSS, "blunder")
    assert [e.ply for e in entries if e.turning_point] == [2]
    assert entries[-1].value_after == WIN and entries[-1].distance_after == 1


def test_connect_four_review_uses_the_solver_where_it_reaches_and_estimates_elsewhere() -> None:
    # X builds column a; O never blocks. Late enough, the solver proves the win.
    moves = ["a", "b", "a", "b", "a", "c", "a"]
    rules = catalog.get("connect").rules
    moves = [str(rules.parse_move(m)) for m in moves]
    entries = catalog.review("connect", {}, moves, 0.05)
    assert [e.ply for e in entries] == list(range(1, 8))
    last = entries[-1]
    assert last.proved and last.value_after == WIN and last.distance_after == 1
    sixth = entries[5]  # O lets the fourth stone in: proved lost at once
    assert sixth.value_after == LOSS and sixth.distance_after == 2
    # The opening is beyond the solver in this budget: estimates, never a verdict.
    first = entries[0]
    assert not first.proved and first.verdict is None and first.score_before is not None


def test_a_small_connect_board_is_reviewed_exactly() -> None:
    options = {"width": 4, "height": 4, "n": 3}
    moves = random_moves("connect", options, seed=5)
    entries = catalog.review("connect", options, moves, 0.2)
    assert len(entries) == len(moves) and all(e.proved for e in entries)


def test_ultimate_review_gives_labelled_estimates() -> None:
    moves = random_moves("ultimate", {}, seed=2)
    entries = catalog.review("ultimate", {}, moves, 0.005)
    assert [e.text for e in entries] == moves
    unproved = [e for e in entries if not e.proved]
    assert unproved and all(e.verdict is None for e in unproved)
    assert all(e.score_after is not None for e in unproved if e.value_after is None)


def entry(ply: int, seat: int, before: str | None, after: str | None) -> ReviewEntry:
    return ReviewEntry(ply, seat, str(ply), None, before, None, after, None, None)


@pytest.mark.parametrize(
    ("entries", "winner", "turning"),
    [
        # The winner slipped at ply 3 (unpunished), the loser lost for good at ply 4.
        (
            [
                entry(1, 0, DRAW, DRAW),
                entry(2, 1, DRAW, LOSS),
                entry(3, 0, WIN, LOSS),
                entry(4, 1, WIN, LOSS),
            ],
            0,
            [4],
        ),
        ([entry(1, 0, DRAW, DRAW), entry(2, 1, DRAW, LOSS), entry(3, 0, WIN, WIN)], 0, [2]),
        ([entry(1, 0, DRAW, LOSS), entry(2, 1, WIN, DRAW)], None, []),  # a draw: nobody lost
        ([entry(1, 0, None, None), entry(2, 1, None, None)], 1, []),  # nothing proved
    ],
)
def test_the_turning_point_is_the_loser_s_last_losing_move(
    entries: list[ReviewEntry], winner: int | None, turning: list[int]
) -> None:
    assert [e.ply for e in mark_turning_point(entries, winner) if e.turning_point] == turning


@pytest.mark.parametrize(
    ("entries", "winner", "late"),
    [
        # Nothing was proved before the loser's action at ply 3, proved lost: which earlier
        # action lost the game is not known.
        ([entry(1, 0, None, None), entry(2, 1, None, None), entry(3, 0, None, LOSS)], 1, 3),
        # The loser's action at ply 2 turned a proved draw into a loss: that is known.
        ([entry(1, 0, DRAW, DRAW), entry(2, 1, DRAW, LOSS), entry(3, 0, WIN, WIN)], 0, None),
        ([entry(1, 0, None, LOSS), entry(2, 1, None, None)], None, None),  # a draw: nobody lost
        ([entry(1, 0, None, None), entry(2, 1, None, WIN)], 1, None),  # the loser's loss never proved
    ],
)
def test_a_loss_proved_only_late_is_named_as_such(
    entries: list[ReviewEntry], winner: int | None, late: int | None
) -> None:
    found = first_proved_loss(mark_turning_point(entries, winner), winner)
    assert (found.ply if found is not None else None) == late

"""The generic JSON picture of a position, on Quarto and on stand-ins for the grid games."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from games import catalog
from games.engine import Outcome
from games.formats import serializers

from .api_helpers import SECOND_WINS

QUARTO, CONNECT, ULTIMATE = (catalog.get(kind).json_fields for kind in ("quarto", "connect", "ultimate"))


def test_quarto_state_has_its_own_fields_and_result() -> None:
    state = catalog.get("quarto").rules.replay({}, SECOND_WINS)
    data = serializers.serialize("quarto", {"advanced": False}, state, SECOND_WINS, fields=QUARTO)
    assert data["status"] == "finished" and data["to_move"] is None and data["legal_moves"] == []
    assert data["result"] == {"winner": 1, "lines": [["a1", "b1", "c1", "d1"]], "shared": ["short", "round"]}
    assert data["phase"] == "give" and data["in_hand"] is None and 8 not in data["available"]
    assert data["board"][3][0] == {"cell": "a1", "piece": 8, "traits": ["short", "light", "round", "solid"]}
    assert (data["width"], data["height"], data["ply"]) == (4, 4, 14)


def test_waiting_status_offers_no_moves() -> None:
    state = catalog.get("quarto").rules.new_state({})
    data = serializers.serialize("quarto", {}, state, [], status="waiting", fields=QUARTO)
    assert data["status"] == "waiting" and data["legal_moves"] == [] and data["to_move"] == 0


@dataclass(frozen=True)
class Mark:
    cell: int

    def __str__(self) -> str:
        return f"m{self.cell}"


@dataclass(frozen=True)
class GridState:
    """What the grid cousins' states are known to offer."""

    width: int = 3
    height: int = 2
    board: tuple[int | None, ...] = (0, 1, None, None, 2, None)
    to_move: int = 1
    num_players: int = 3
    outcome: Outcome | None = None
    gravity: bool = True
    allowed_boards: tuple[int, ...] = (4,)
    board_owners: tuple[int | None, ...] = (None,) * 9
    last_move: Mark | None = field(default=Mark(4))

    def legal_moves(self) -> list[Mark]:
        return [Mark(i) for i, owner in enumerate(self.board) if owner is None]

    def is_over(self) -> bool:
        return self.outcome is not None


def test_generic_board_from_width_height_and_owners() -> None:
    data = serializers.serialize("newgame", {}, GridState(), ["x"] * 3)
    assert data["board"] == [
        [{"cell": "a2", "owner": None}, {"cell": "b2", "owner": 2}, {"cell": "c2", "owner": None}],
        [{"cell": "a1", "owner": 0}, {"cell": "b1", "owner": 1}, {"cell": "c1", "owner": None}],
    ]
    assert data["legal_moves"] == ["m2", "m3", "m5"] and data["num_players"] == 3
    assert "droppable" not in data and "allowed_boards" not in data


def test_connect_lists_droppable_columns() -> None:
    assert serializers.serialize("connect", {}, GridState(), [], fields=CONNECT)["droppable"] == [
        "a",
        "c",
    ]
    no_gravity = GridState(gravity=False)
    assert serializers.serialize("connect", {}, no_gravity, [], fields=CONNECT)["droppable"] == []


def test_ultimate_lists_allowed_boards() -> None:
    data = serializers.serialize("ultimate", {}, GridState(), [], fields=ULTIMATE)
    assert data["allowed_boards"] == [4] and data["last_move"] == "m4" and len(data["board_owners"]) == 9
    won = GridState(outcome=Outcome(winner=0, lines=((0, 1, 2),)))
    finished = serializers.serialize("ultimate", {}, won, [], fields=ULTIMATE)
    assert finished["allowed_boards"] == [] and finished["result"] == {
        "winner": 0,
        "lines": [["a1", "b1", "c1"]],
    }


def test_square_board_without_width_is_measured() -> None:
    @dataclass(frozen=True)
    class Square:
        board: tuple[Any, ...] = (None,) * 9

    assert serializers.geometry(Square()) == (3, 3)
    with pytest.raises(ValueError):
        serializers.geometry(Square(board=(None,) * 8))

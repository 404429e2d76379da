"""Every game's board data lists its controls: what can be played now, each sending one
legal action, and every legal action reachable from one; nothing while it is not the
viewer's turn. Hints and the keyboard rely on it, whatever the game."""

from __future__ import annotations

import json

import pytest

from games import catalog
from games.ai.base import ActionValue
from games.formats import boards
from games.presenting.presenters import annotate_controls

from .kinds import KINDS, option_variants, random_moves


@pytest.mark.parametrize("kind", KINDS)
def test_controls_play_exactly_the_legal_moves(kind: str) -> None:
    spec = catalog.get(kind)
    for options in option_variants(kind):
        moves = random_moves(kind, options, seed=11)
        for ply in range(0, len(moves) + 1, 3):
            state = spec.rules.replay(options, moves[:ply])
            mine = spec.board_after(state, moves[:ply], True)["controls"]
            # a two-part move's first part sends nothing itself: its ends do
            sent = [end["move"] for control in mine for end in control.get("ends") or [control]]
            legal = {str(m) for m in state.legal_moves()} if not state.is_over() else set()
            assert set(sent) == legal, (kind, options, moves[:ply])
            assert all(control["label"] for control in mine)
            assert all(end["label"] for control in mine for end in control.get("ends") or ())
            assert spec.board_after(state, moves[:ply], False)["controls"] == []


def two_part_controls() -> list[boards.Data]:
    """A first part (take a1) with two ends, on cells e1 and a5, as a game's board data has them."""
    cells = {name: {"name": name, **boards.HINTLESS, **boards.PARTLESS} for name in ("a1", "e1", "a5")}
    take: boards.Data = cells["a1"] | {"move": None, "part": "a1", "label": "a1: take"}
    take["ends"] = [
        boards.end(cells["e1"], "a1-e1", "a1 in at e1"),
        boards.end(cells["a5"], "a1-a5", "a1 in at a5"),
    ]
    return [take]


def test_a_chosen_first_part_sets_its_ends_on_their_cells() -> None:
    controls = two_part_controls()
    boards.prepare_parts(controls)
    assert not controls[0]["is_chosen"] and controls[0]["ends"][0]["at"]["end"] is None
    assert [e["move"] for e in json.loads(controls[0]["ends_json"])] == ["a1-e1", "a1-a5"]
    boards.prepare_parts(controls, "a1")
    assert controls[0]["is_chosen"]
    assert [e["at"]["end"]["move"] for e in controls[0]["ends"]] == ["a1-e1", "a1-a5"]


def test_hints_go_on_the_ends_and_the_first_part_shows_the_best_of_them() -> None:
    controls = two_part_controls()
    values = [ActionValue("a1-a5", "win", True, 3, 1.0), ActionValue("a1-e1", None, False, score=-0.2)]
    best = annotate_controls(controls, values)
    take, (to_e1, to_a5) = controls[0], controls[0]["ends"]
    assert best is not None and best.text == "a1-a5"
    assert to_a5["is_best"] and to_a5["hint"]["kind"] == "win" and to_e1["hint"]["kind"] == "estimate"
    assert take["is_best"] and take["label"] == "a1: take, best move, at best wins in 3 plies"
    boards.prepare_parts(controls)
    assert json.loads(take["ends_json"])[1]["hint"]["icon"] == "✓"

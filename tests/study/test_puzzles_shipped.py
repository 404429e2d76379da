"""The shipped puzzles, re-proved by the solver on a sample (bench/puzzles.py proves all):
each position is what its actions reach, its answer is every action keeping the forced win,
its themes are what the solver finds."""

from __future__ import annotations

import random

import pytest

from games import catalog
from study import mining, puzzle_rules

PUZZLES = mining.read(mining.data_file("quarto"))
SAMPLE = random.Random(32).sample(PUZZLES, 40)


def test_at_least_500_quarto_puzzles_are_shipped_each_once() -> None:
    assert len(PUZZLES) >= 500
    assert len({p["id"] for p in PUZZLES}) == len(PUZZLES)
    assert len({(p["position"], str(p["options"])) for p in PUZZLES}) == len(PUZZLES)
    themes = {t for p in PUZZLES for t in p["themes"]}
    assert {"win_in_1", "win_in_2", "win_in_3", "safe_give", "advanced"} <= themes


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    catalog.player_of("quarto").warm_up()


@pytest.mark.parametrize("puzzle", SAMPLE, ids=[p["id"] for p in SAMPLE])
def test_a_shipped_puzzle_is_proved_again(puzzle: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    # The proof, not its speed, is checked here: two test workers share two cores.
    monkeypatch.setattr(puzzle_rules, "SOLVE_BUDGET", 60.0)
    spec = catalog.get("quarto")
    assert spec.notation is not None
    state = spec.rules.replay(puzzle["options"], puzzle["moves"])  # type: ignore[arg-type]
    assert spec.notation.format(state) == puzzle["position"]
    assert state.to_move == puzzle["to_move"]
    found = puzzle_rules.find("quarto", state)
    assert found is not None
    assert list(found.answer) == puzzle["answer"] and list(found.themes) == puzzle["themes"]

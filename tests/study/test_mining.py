"""mine_puzzles takes puzzles from the site's finished games and the computer's own,
each a position the solver proves, written to the data file and loadable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from games import catalog
from study import puzzle_rules, puzzles
from study.models import Puzzle
from tests.api.api_helpers import SECOND_WINS, two_players
from tests.api.api_helpers import play_through as play

pytestmark = pytest.mark.django_db(transaction=True)


def test_puzzles_come_from_finished_games_then_self_play(client: Client, tmp_path: Path) -> None:
    catalog.player_of("quarto").warm_up()
    game_id, one, two = two_players(client)
    play(client, game_id, SECOND_WINS, {0: one, 1: two})
    out = tmp_path / "puzzles.json"
    call_command("mine_puzzles", "--want", "6", "--seed", "5", "--out", str(out))
    found = json.loads(out.read_text())
    assert len(found) == 6
    assert found[0]["source"] == f"game:{game_id}"
    assert any(p["source"].startswith("self-play:") for p in found)
    for puzzle in found:
        state = catalog.get("quarto").rules.replay(puzzle["options"], puzzle["moves"])
        proved = puzzle_rules.find("quarto", state)
        assert proved is not None and list(proved.answer) == puzzle["answer"]
    # a second run adds to the file, never a position twice
    call_command("mine_puzzles", "--want", "3", "--seed", "5", "--out", str(out))
    again = json.loads(out.read_text())
    assert len(again) == 9 and len({p["id"] for p in again}) == 9
    assert puzzles.load("quarto", out) == (9, 0)
    assert puzzles.load("quarto", out) == (0, 9)
    assert Puzzle.objects.count() == 9

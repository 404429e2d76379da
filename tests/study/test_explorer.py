"""The explorer: each finished game's actions filed under their positions as it ends;
the analysis answer says how the site's games went from the position asked about."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from games.kinds.quarto import rules as quarto
from games.kinds.quarto.position import NOTATION
from study import explorer
from study.models import ExplorerMove
from tests.api.api_helpers import SECOND_WINS, post, two_players
from tests.api.api_helpers import play_through as play

pytestmark = pytest.mark.django_db(transaction=True)


def finished(client: Client, moves: list[str]) -> int:
    game_id, one, two = two_players(client)
    play(client, game_id, moves, {0: one, 1: two})
    return game_id


def test_finished_games_are_counted_by_action_and_result(client: Client) -> None:
    finished(client, SECOND_WINS)  # seat 1 wins: after "8", seat 1 placed a1
    finished(client, SECOND_WINS)
    variant = ["8", "b1", "0", "a4", "9", "a1", *SECOND_WINS[6:]]
    finished(client, variant)  # 8 on b1 and 9 on a1: the same end, seat 1 wins
    unfinished_id, one, two = two_players(client)
    play(client, unfinished_id, ["8", "c3"], {0: one, 1: two})  # still playing: not filed
    assert ExplorerMove.objects.filter(ply=0).count() == 3

    after_8 = NOTATION.format(quarto.RULES.replay({}, ["8"]))
    entries = explorer.explore("quarto", {"advanced": False}, after_8)
    assert entries == [
        {"move": "a1", "games": 2, "won": 2, "drawn": 0, "lost": 0},
        {"move": "b1", "games": 1, "won": 1, "drawn": 0, "lost": 0},
    ]
    body = post(client, "/api/v1/analysis", {"game": "quarto", "moves": ["8"]}).json()
    assert body["explorer"] == entries
    start = post(client, "/api/v1/analysis", {"game": "quarto"}).json()
    assert start["explorer"] == [{"move": "8", "games": 3, "won": 0, "drawn": 0, "lost": 3}]
    # other options are other positions
    assert explorer.explore("quarto", {"advanced": True}, after_8) == []


def test_the_command_files_games_that_ended_before_and_never_twice(client: Client) -> None:
    game_id = finished(client, SECOND_WINS)
    ExplorerMove.objects.all().delete()
    call_command("index_explorer")
    assert ExplorerMove.objects.filter(game_id=game_id).count() == len(SECOND_WINS)
    call_command("index_explorer")
    assert ExplorerMove.objects.filter(game_id=game_id).count() == len(SECOND_WINS)
    seat_0 = ExplorerMove.objects.filter(game_id=game_id, ply__in=(0, 3, 4))  # its give, place, give
    assert set(seat_0.values_list("result", flat=True)) == {"loss"}

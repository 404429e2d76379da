"""The review's evaluation graph: an SVG drawn on the server, a point per action linking
to the replay at that ply, the mistakes marked, and the same values in a table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from .helpers import SECOND_WINS
from .test_review import HTMX, finished_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_graph_links_each_ply_and_marks_the_mistakes(client: Client, settings: Any) -> None:
    settings.REVIEW_BUDGET = 0.5
    game = finished_game()
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    graph = html[html.index("<svg") : html.index("</svg>")]
    links = re.findall(r'<a href="/games/\d+/replay\?ply=(\d+)" class="eval__link"[^>]*>', graph)
    assert [int(ply) for ply in links] == list(range(1, len(SECOND_WINS) + 1))
    # plies 11 and 12 are the proved blunders (tests/web/test_review.py): larger rings
    marked = re.findall(
        r"<title>Ply (\d+): [^<]*blunder</title><circle class=\"eval__point eval__point--blunder\"", graph
    )
    assert {11, 12} <= {int(ply) for ply in marked}
    # the last action won for the second player: the point sits at the bottom
    last = re.findall(r'<title>Ply 14: ([^<]*)</title><circle [^>]*cy="([\d.]+)"', graph)
    assert last and last[0][0] == "lost for the first player" and float(last[0][1]) > 150
    # the same values for screen readers
    table = html[html.index("<caption>The value after each action") :]
    assert f'<a href="/games/{game.pk}/replay?ply=14">14</a></td><td>lost for the first player</td>' in table


def test_the_whole_page_without_javascript_has_the_graph(client: Client) -> None:
    game = finished_game()
    html = client.get(f"/games/{game.pk}/review/table").content.decode()
    assert '<svg class="eval__graph eval__graph--wide"' in html and 'aria-labelledby="eval-title"' in html


def test_the_replay_at_a_ply_draws_the_action_played_and_the_best_one(client: Client, settings: Any) -> None:
    """One page: the board at ply 12 (a proved blunder), the played cell and the best one
    drawn on it, the values before and after, the graph's point for ply 12 ringed, and a
    taller graph for phones."""
    settings.REVIEW_BUDGET = 0.5
    game = finished_game()
    client.get(f"/games/{game.pk}/review/table", headers=HTMX)  # computed once, then cached
    html = client.get(f"/games/{game.pk}/replay?ply=12").content.decode()
    assert "hx-trigger" not in html.split('id="study"')[1].split(">")[0]  # the review came along
    board = html.split('class="replay__board"')[1].split('class="replay__side"')[0]
    played = re.findall(r'data-cell="(\w+)"', board.split("is-played")[1])[0]
    best = re.findall(r'data-cell="(\w+)"', board.split("is-best-move")[1])[0]
    assert played == SECOND_WINS[11] and best != played
    side = html.split('class="replay__side"')[1]
    assert "Played: Player 1 placed" in side and "blunder" in side
    assert "Value before" in side and "Value after" in side and f"Best: {best}" in side
    assert re.search(r'<a href="/games/\d+/replay\?ply=12" class="eval__link" aria-current="step">', html)
    assert html.count('<svg class="eval__graph') == 2 and "eval__graph--tall" in html

"""The post-game review: every action judged, the turning point named."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from games.services import play_move

from .helpers import ONE, SECOND_WINS, TWO, two_humans

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def finished_game() -> Game:
    game = two_humans()
    for ply, text in enumerate(SECOND_WINS):
        game = play_move(game.pk, ONE if game.state.to_move == 0 else TWO, text, ply)
    return Game.objects.get(pk=game.pk)


def test_review_page_loads_its_table_lazily(client: Client) -> None:
    game = finished_game()
    html = client.get(f"/games/{game.pk}/review").content.decode()
    assert f'hx-get="/games/{game.pk}/review/table"' in html and 'hx-trigger="load"' in html
    assert "<noscript>" in html


def test_review_judges_every_action_and_names_the_turning_point(client: Client, settings: Any) -> None:
    # Enough time to prove the positions from ply 11 on (11 empty cells and fewer)
    # even on a busy machine; the opening positions just use it up unproved.
    settings.REVIEW_BUDGET = 0.5
    game = finished_game()
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    rows = re.findall(r'<tr class="review__row review__row--(\w+)( is-turning)?">\s*<td>(\d+)</td>', html)
    assert [int(ply) for _, _, ply in rows] == list(range(1, len(SECOND_WINS) + 1))
    verdicts = {int(ply): verdict for verdict, _, ply in rows}
    # With 11 empty cells or fewer every value is proved: player 2's give of piece 2
    # (ply 11) lost a drawn position, player 1's placement (ply 12) lost a won one,
    # after which every give loses (ply 13 is as good as any) and ply 14 wins.
    assert [verdicts[p] for p in (11, 12, 13, 14)] == ["blunder", "blunder", "best", "best"]
    # The first action that turned a draw into a loss: ply 11, or ply 9 when the
    # 12-empty-cell position before it was also proved in time.
    turning = [int(ply) for _, mark, ply in rows if mark]
    assert turning in ([9], [11])
    who = "Player 1" if turning[0] == 9 else "Player 2"
    assert f"The game turned at ply {turning[0]}: {who} gave" in html


def test_review_without_javascript_is_a_whole_page(client: Client) -> None:
    game = finished_game()
    html = client.get(f"/games/{game.pk}/review/table").content.decode()
    assert "<html" in html and "review__table" in html


def test_review_waits_for_the_end_of_the_game(client: Client) -> None:
    game = two_humans()
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    assert "The review opens when the game is over" in html
    assert "review__table" not in html


def test_finished_game_links_to_its_review(client: Client) -> None:
    game = finished_game()
    assert f'href="/games/{game.pk}/review"' in client.get(game.get_absolute_url()).content.decode()

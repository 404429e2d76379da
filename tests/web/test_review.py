"""The post-game review: every action judged, the turning point named."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import cache
from django.test import Client

from games import catalog
from games.ai.base import LOSS, ReviewEntry
from games.models import Game
from games.runner.pools import review_key
from games.services import moves as services
from games.services.moves import play_move

from ..kinds import KINDS, random_moves
from .helpers import ONE, SECOND_WINS, TWO, two_humans

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def finished_game() -> Game:
    game = two_humans()
    for ply, text in enumerate(SECOND_WINS):
        game = play_move(game.pk, ONE if game.state.to_move == 0 else TWO, text, ply)
    return Game.objects.get(pk=game.pk)


def test_the_old_review_address_leads_to_the_replay(client: Client) -> None:
    game = finished_game()
    response = client.get(f"/games/{game.pk}/review")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/replay?ply={len(SECOND_WINS)}#review"
    response = client.get(f"/games/{game.pk}/review", {"ply": "5"})
    assert response["Location"] == f"/games/{game.pk}/replay?ply=5#review"


def test_review_page_loads_its_table_lazily(client: Client) -> None:
    game = finished_game()
    html = client.get(f"/games/{game.pk}/replay?ply=3").content.decode()
    assert f'hx-get="/games/{game.pk}/review/table?ply=3"' in html and 'hx-trigger="load"' in html
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
    # The game turned on the loser's losing move (ply 12), not on the winner's slip
    # at ply 11 that player 1 failed to punish.
    turning = [int(ply) for _, mark, ply in rows if mark]
    assert turning == [12]
    assert "The game turned at ply 12: Player 1 placed" in html


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


REVIEWED = [kind for kind in KINDS if catalog.get(kind).capabilities.review]


@pytest.mark.parametrize("kind", REVIEWED)
def test_every_reviewed_game_has_a_review_page(client: Client, settings: Any, kind: str) -> None:
    settings.REVIEW_BUDGET = 0.01
    moves = random_moves(kind, {}, seed=5)
    game = services.import_game(kind, {}, moves, with_token=False, player_id="s-one").game
    assert game.is_finished
    page = client.get(game.get_absolute_url()).content.decode()
    assert f'href="/games/{game.pk}/review">Review the game</a>' in page
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    assert "no computer review" not in html
    assert html.count('class="review__row') == len(moves)


# Games the solver proves to the end: the last, winning move is marked best.
PROVED_WINS: dict[str, list[str]] = {
    "tictactoe": ["a1", "b1", "a2", "b2", "a3"],  # X takes file a
    "connect": ["a", "b", "a", "b", "a", "c", "a"],  # X builds column a while O plays elsewhere
}


@pytest.mark.parametrize("kind", sorted(PROVED_WINS))
def test_a_proved_win_is_reviewed_as_best(client: Client, kind: str) -> None:
    moves = PROVED_WINS[kind]
    game = services.create_game(kind, {}, opponent="human", seat="first", player_id="s-one").game
    services.join_game(game.pk, invite=game.invite_code, player_id="s-two")
    for ply, text in enumerate(moves):
        play_move(game.pk, ONE if ply % 2 == 0 else TWO, text, ply)
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    assert html.count('class="review__row') == len(moves)
    assert "review__row--best" in html


def test_ultimate_review_labels_its_estimates(client: Client, settings: Any) -> None:
    settings.REVIEW_BUDGET = 0.01
    rules = catalog.get("ultimate").rules
    state = rules.new_state({})
    moves, rng = [], random.Random(2)
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    game = services.import_game("ultimate", {}, moves, with_token=False, player_id="s-one").game
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    assert html.count('class="review__row') == len(moves)
    assert "estimate " in html and "not proved" in html


def test_a_loss_proved_only_after_open_positions_says_so(client: Client) -> None:
    # The review of a game whose positions were too open to solve until the loser's
    # placement at ply 12 (proved lost): no turning point, and no claim that nothing lost.
    game = finished_game()
    rows = game.move_rows
    entries = [
        ReviewEntry(ply, seat, text, None, None, None, None, None, None, score_before=0.0, score_after=0.0)
        for ply, (seat, text) in enumerate(rows, start=1)
    ]
    seat, text = rows[11]
    assert seat == 0  # player 1, who lost
    entries[11] = ReviewEntry(12, seat, text, None, None, None, LOSS, 3, None, score_before=0.1)
    async_to_sync(cache.aset)(review_key(game.pk, game.move_texts), entries)
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    said = "The computer cannot tell which action lost the game: the first loss it proved comes at ply 12"
    assert said in html
    assert "No action turned" not in html and "The game turned" not in html
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    html = french.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    assert "L\u2019ordinateur ne peut pas dire quelle action a perdu la partie" in html
    assert "au demi-coup 12" in html

"""Who starts is said as it is (a rematch swaps the seats: no coin toss), and "Play again"
is for games against the computer: between people the rematch takes both along."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game

from .test_action_pages import page, people, start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_starting_player_is_told_who_starts_without_a_coin_toss(client: Client) -> None:
    game = start(client)  # seat "first": chosen, not tossed
    html = page(client, game)
    assert '<p class="status__toss">You start.</p>' in html and "coin toss" not in html


def test_a_rematch_with_swapped_seats_says_who_starts(client: Client) -> None:
    game, friend = people(client)
    client.post(f"/games/{game.pk}/resign", {"ply": 0})
    client.post(f"/games/{game.pk}/rematch", {"ply": 0, "answer": "yes"})
    friend.post(f"/games/{game.pk}/rematch", {"ply": 0, "answer": "yes"})
    game.refresh_from_db()
    assert game.rematch is not None
    starter, other = page(friend, game.rematch), page(client, game.rematch)
    assert '<p class="status__toss">You start.</p>' in starter
    assert '<p class="status__toss">Your opponent starts.</p>' in other
    assert "coin toss" not in starter + other


def test_a_finished_game_between_people_offers_a_rematch_not_a_lone_new_game(client: Client) -> None:
    game, friend = people(client)
    client.post(f"/games/{game.pk}/resign", {"ply": 0})
    for player in (client, friend):
        html = page(player, game)
        assert ">Play again</button>" not in html and ">Rematch</button>" in html
    games = Game.objects.count()
    response = client.post(f"/games/{game.pk}/again", follow=True)
    assert Game.objects.count() == games  # no game for one of them alone
    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert "offer a rematch" in response.content.decode()


def test_play_again_stays_for_a_game_against_the_computer(client: Client) -> None:
    game = start(client)
    client.post(f"/games/{game.pk}/resign", {"ply": 0})
    assert ">Play again</button>" in page(client, game)
    response = client.post(f"/games/{game.pk}/again")
    assert response.status_code in (302, 303) and Game.objects.count() == 2

"""Moderators reset ratings and void a cheater's rated games from the admin; both recorded."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Account
from games.services import actions
from ratings.models import Rating, RatingChange

from .test_rating_games import accounts_game, started

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client) -> Client:
    get_user_model().objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    return client


def test_void_a_cheaters_games_and_reset_a_rating(admin_client: Client) -> None:
    game, _, bob = accounts_game()
    actions.resign(started(game).pk, bob, 2)
    cheater = Account.objects.get(user__username="alice")
    answer = admin_client.post(
        "/admin/accounts/account/", {"action": "void_rated_games", "_selected_action": [cheater.pk]}
    )
    assert answer.status_code == 302
    assert Rating.objects.get(user__username="bob").rating == pytest.approx(1500)
    assert RatingChange.objects.filter(voided=None).count() == 0
    assert LogEntry.objects.filter(change_message__contains="Voided 1 rated game").exists()
    listing = admin_client.get("/admin/ratings/ratingchange/").content.decode()
    assert f"Tic-tac-toe #{game.pk}" in listing
    rating = Rating.objects.get(user__username="bob")
    rating.rd = 80
    rating.save()
    admin_client.post("/admin/ratings/rating/", {"action": "reset", "_selected_action": [rating.pk]})
    assert Rating.objects.get(pk=rating.pk).rd == 500
    assert LogEntry.objects.filter(change_message__contains="Rating reset").exists()

"""A page whose socket cannot open (refused by the per-address cap, say) polls its
partials; while it does, its seat counts as present and cannot be claimed against."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Seat
from games.services import abandonment, policy
from games.services.moves import ServiceError

from .helpers import ONE, two_humans

pytestmark = pytest.mark.django_db(transaction=True)


def client_of(player_id: str) -> Client:
    client = Client()
    session = client.session
    session["player_id"] = player_id
    session.save()
    client.cookies["sessionid"] = session.session_key or ""
    return client


def test_a_polling_page_keeps_its_seat_from_being_claimed(settings: Any) -> None:
    settings.ABANDON_AFTER = 60
    game = two_humans()
    # Seat 2's last socket closed long ago (pushed past the address's cap, its page polls).
    Seat.objects.filter(game=game, index=1).update(left_at=timezone.now() - timedelta(seconds=61))
    assert policy.gone_seats(Game.objects.get(pk=game.pk)) == [1]

    polled = client_of("s-two").get(f"/games/{game.pk}/partials")
    assert polled.status_code == 200 and "Player 2: you" in polled.content.decode()

    seat = Seat.objects.get(game=game, index=1)
    assert seat.left_at is None and seat.seen_at is not None
    assert policy.gone_seats(Game.objects.get(pk=game.pk)) == []
    with pytest.raises(ServiceError):
        abandonment.claim(game.pk, ONE, "win", 0)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_a_spectator_s_poll_marks_no_seat(settings: Any) -> None:
    settings.ABANDON_AFTER = 60
    game = two_humans()
    Seat.objects.filter(game=game, index=1).update(left_at=timezone.now() - timedelta(seconds=61))
    assert Client().get(f"/games/{game.pk}/partials").status_code == 200
    assert policy.gone_seats(Game.objects.get(pk=game.pk)) == [1]

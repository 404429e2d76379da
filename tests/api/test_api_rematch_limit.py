"""A rematch over the API counts against the client's budget of games created."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game

from .api_helpers import create, error_of, post

pytestmark = pytest.mark.django_db(transaction=True)


def test_rematches_beyond_the_create_limit_are_429_with_retry_after(client: Client, settings: Any) -> None:
    settings.RATE_LIMIT_CREATE = "2/minute"
    created = create(client, game="tictactoe", level="beginner")
    game, token = created["id"], created["token"]
    made = []
    for _ in range(3):
        post(client, f"/api/v1/games/{game}/resign", token=token)
        answer = post(client, f"/api/v1/games/{game}/rematch/yes", token=token)
        if answer.status_code != 200:
            break
        made.append(answer.json()["rematch"])
        game = made[-1]
    assert len(made) == 2
    assert error_of(answer) == (429, "rate_limited")
    assert 1 <= int(answer["Retry-After"]) <= 60
    assert Game.objects.get(pk=game).rematch_id is None
    assert Game.objects.count() == 3
    # Declining is not counted (against the computer there is no offer to decline).
    assert error_of(post(client, f"/api/v1/games/{game}/rematch/no", token=token))[1] != "rate_limited"

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from .helpers import human_first_vs_ai

pytestmark = pytest.mark.django_db(transaction=True)


def test_admin_lists_games_and_renders_board_and_moves(client: Client) -> None:
    from games.services import Actor, play_move

    game = human_first_vs_ai(level="beginner")
    play_move(game.pk, Actor(player_id="s-human"), "15", 0)
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    listing = client.get("/admin/games/game/?kind__exact=quarto").content.decode()
    assert f">{game.pk}<" in listing and "beginner" in listing
    assert client.get(f"/admin/games/game/?q={game.pk}").status_code == 200
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert page.count('class="board__cell') == 16
    assert 'data-piece="15"' in page
    assert "<li>15</li>" in page

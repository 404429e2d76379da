"""File every finished game's actions in the explorer (games that end later are filed as
they end)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import Game
from study import explorer


class Command(BaseCommand):
    help = "File the finished games' actions in the explorer."

    def handle(self, *args: Any, **options: Any) -> None:
        actions = games = 0
        for game in Game.objects.filter(status__in=(Game.Status.WON, Game.Status.DRAWN)).iterator():
            filed = explorer.index_game(game)
            actions += filed
            games += filed > 0
        self.stdout.write(f"{actions} actions of {games} games filed")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LearnConfig(AppConfig):
    name = "learn"
    verbose_name = _("Learn")

    def ready(self) -> None:
        """Link each game's rules, and Quarto's guided first game, from the home page's
        cards, the game page and the lobby (games' game-link hook)."""
        from games.presenting import front
        from learn import links

        front.add_game_link(links.rules_link)
        front.add_game_link(links.lesson_link)

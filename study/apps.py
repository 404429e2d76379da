from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StudyConfig(AppConfig):
    name = "study"
    verbose_name = _("Study")

    def ready(self) -> None:
        """File every game that ends in the explorer (games' end hook), in its transaction;
        link the replay and the review to the analysis board (games' position-link hook) and
        the home page to it and to the puzzles (its front-page hook).

        Django loads the models only after this module, so the explorer is imported here.
        """
        from games.presenting import front
        from games.services import base
        from study import explorer, pages

        base.on_end(explorer.game_ended)
        front.add_position_link(pages.position_link)
        front.add_section(pages.home_section)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Score a tournament's game in the transaction that ends it (games' end hook), push
        its page on every change and add the tournaments to the home page. Django loads the
        models only after this module, so the services are imported here."""
        from games.presenting import front
        from games.services import base
        from tournaments import changes, live, pairing, presenting

        base.on_end(pairing.game_ended)
        changes.subscribe(live.on_change)
        changes.on_freed(live.wake)
        front.add_section(presenting.home_section)
        front.add_game_part(presenting.game_part)

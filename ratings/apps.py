from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        """Rate every game that ends, in the transaction that ends it (games' end hook).

        Django loads the models only after this module, so the services are imported here.
        """
        from games.presenting import seat_ratings
        from games.services import base
        from ratings import services

        base.on_end(services.game_ended)
        seat_ratings.add_provider(services.seat_view)

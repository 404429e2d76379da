from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        """Subscribe the live push and the AI runner to the services' game events.

        Django loads the models only after this module, so the modules that use them
        are imported here (the one place the architecture test allows it).
        """
        from games import events
        from games.live import push
        from games.runner import turns
        from games.services import players

        events.subscribe(push.on_game_event)
        players.on_forget(push.session_ended)
        events.subscribe(turns.on_game_event)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby")

    def ready(self) -> None:
        """Push the lobby to its pages on every change; give up a closed or banned account's
        seeks and pool places. Django loads the models only after
        this module, so the listener is imported here, as Django documents."""
        from accounts import services as accounts
        from games.presenting import front
        from lobby import changes, closing, live, presenting

        changes.subscribe(live.on_change)
        accounts.withdrawn.connect(closing.account_withdrawn, dispatch_uid="lobby-withdrawn")
        front.add_section(presenting.home_section)

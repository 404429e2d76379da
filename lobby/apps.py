from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby"

    def ready(self) -> None:
        """Push the lobby to its pages on every change. Django loads the models only after
        this module, so the listener is imported here, as Django documents."""
        from games.presenting import front
        from lobby import changes, live, presenting

        changes.subscribe(live.on_change)
        front.add_section(presenting.home_section)

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby"

    def ready(self) -> None:
        """Push the lobby to its pages on every change. Django loads the models only after
        this module, so the listener is imported here, as Django documents."""
        from lobby import changes, live

        changes.subscribe(live.on_change)

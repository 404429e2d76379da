from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MonitoringConfig(AppConfig):
    name = "monitoring"
    verbose_name = _("Monitoring")

    def ready(self) -> None:
        from games import events
        from tournaments import pairing

        from . import metrics

        events.subscribe(metrics.on_game_event)
        pairing.tick_observers.append(metrics.on_tournament_tick)

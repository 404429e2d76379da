from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        """Connect the log-in signals and plug the account identities into games' hooks.

        Django loads the models only after this module, so the signal receivers are
        imported here, as Django documents.
        """
        from accounts import signals

        signals.connect()

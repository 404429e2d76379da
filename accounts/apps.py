from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        """Connect the log-in signals and plug the account identities into games' hooks.

        Django loads the models only after this module, so the signal receivers are
        imported here, as Django documents.
        """
        from accounts import signals

        signals.connect()

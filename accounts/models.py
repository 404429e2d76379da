"""An account's own data beside Django's user: its player id, preferences, flags, API tokens."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_player_id() -> str:
    return secrets.token_hex(16)


class Account(models.Model):
    """One per user, made on first need (:func:`accounts.services.account_of`).

    ``player_id`` is what the account's seats are held by: a browser logged in to the
    account uses it as its player id, so the seats are the account's from any browser.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account")
    player_id = models.CharField(max_length=64, unique=True, default=new_player_id, editable=False)
    show_coordinates = models.BooleanField(default=True, help_text="Board coordinates on the pages.")
    sound = models.BooleanField(default=False, help_text="Sounds on the game page.")
    confirm_resign = models.BooleanField(default=True, help_text="Ask before resigning.")
    language = models.CharField(
        max_length=8,
        blank=True,
        default="",
        choices=settings.LANGUAGES,
        help_text="The site's language for this account; empty: the browser's.",
    )
    email_turns = models.BooleanField(
        default=True, help_text="Email on its turn in a correspondence game and when a timed game ends."
    )
    bot = models.BooleanField(default=False, help_text="Plays only through the API (set by the admin).")
    banned = models.BooleanField(default=False, help_text="Cannot log in, create games or chat.")
    closed = models.DateTimeField(null=True, blank=True, help_text="When the account was closed.")

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")

    def __str__(self) -> str:
        return self.user.username

    @property
    def in_good_standing(self) -> bool:
        return self.user.is_active and not self.banned and self.closed is None


class GameNotice(models.Model):
    """An email sent about a game, kept so that the same notice is never sent twice (an event
    can be delivered again): ``key`` names the turn (``turn:<seat>:<ply it began>``) or ``end``."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="notices")
    game_id = models.PositiveIntegerField()
    key = models.CharField(max_length=32)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("game notice")
        verbose_name_plural = _("game notices")
        constraints = [
            models.UniqueConstraint(fields=["account", "game_id", "key"], name="one_notice_per_key")
        ]

    def __str__(self) -> str:
        return f"{self.account}: game {self.game_id} {self.key}"


class ApiToken(models.Model):
    """A personal API token: acts for its account. Only its hash is kept; it is shown once."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="tokens")
    name = models.CharField(max_length=40)
    token_hash = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["account", "created"]
        constraints = [models.UniqueConstraint(fields=["account", "name"], name="one_token_per_name")]

    def __str__(self) -> str:
        return f"{self.account}: {self.name}"

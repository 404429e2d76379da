"""Open seeks (a game offered to anyone) and the quick-pairing pools."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Seek(models.Model):
    """A game offered to whoever accepts it first; the seeker's seat goes by ``seat``.

    The seeker is a browser or an account (``player_id``, ``user``) and/or an API client
    holding the seek's secret (``token_hash``): once taken, that secret holds the seeker's
    seat. ``last_seen`` is when the seeker last showed it still waits (its page's socket
    or refresh, or an API ``GET``); a real-time seek not seen for ``SEEK_ALIVE`` seconds is
    cancelled by the sweep, a correspondence seek lasts until taken, cancelled or it lapses
    (``SEEK_CORRESPONDENCE_DAYS`` after ``created``).
    """

    class Status(models.TextChoices):
        OPEN = "open"
        TAKEN = "taken"
        CANCELLED = "cancelled"

    kind = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    clock = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=False)
    seat = models.CharField(
        max_length=8, default="random", help_text="The seeker's seat: first, second, random."
    )
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    player_id = models.CharField(max_length=64, blank=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="seeks"
    )
    token_hash = models.CharField(max_length=64, blank=True)
    client = models.CharField(max_length=32, blank=True, help_text="A hash of the seeker's address.")
    bot = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()

    class Meta:
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "kind"], name="seek_open_kind")]

    def __str__(self) -> str:
        return f"seek {self.pk} {self.kind} ({self.status})"


class Pool(models.Model):
    """One row per quick-pairing pool (game and time control): locked while it pairs, so
    two joins of one pool are paired one after the other on every database."""

    key = models.CharField(max_length=64, unique=True)

    class Meta:
        verbose_name = _("pairing pool")
        verbose_name_plural = _("pairing pools")

    def __str__(self) -> str:
        return self.key


class PoolEntry(models.Model):
    """A player waiting in a pool (``game`` empty), or paired (``game`` set, kept so the
    waiting page finds it). A player waits in one pool at a time."""

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="entries")
    kind = models.CharField(max_length=20)
    clock = models.JSONField(default=dict)
    player_id = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    rating = models.FloatField(null=True, blank=True, help_text="The player's rating when it joined.")
    since = models.DateTimeField()
    last_seen = models.DateTimeField()
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    told = models.BooleanField(default=False, help_text="The player has been told of its game.")

    class Meta:
        verbose_name = _("pool entry")
        verbose_name_plural = _("pool entries")
        ordering = ["since", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["player_id"], condition=models.Q(game__isnull=True), name="one_wait_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.pool}: {self.player_id[:6]}"

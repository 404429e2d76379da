"""Each account's rating per game and speed, and every change a rated game made."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings import glicko2


class Rating(models.Model):
    """An account's Glicko-2 rating in one game kind at one speed (bullet ... correspondence)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=20)
    speed = models.CharField(max_length=16)
    rating = models.FloatField(default=glicko2.START_RATING)
    rd = models.FloatField(default=glicko2.START_RD)
    volatility = models.FloatField(default=glicko2.START_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    last_game = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["kind", "speed", "-rating"]
        constraints = [models.UniqueConstraint(fields=["user", "kind", "speed"], name="one_rating_per_speed")]
        indexes = [models.Index(fields=["kind", "speed", "-rating"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.speed}: {self.shown}"

    @property
    def value(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)

    @property
    def provisional(self) -> bool:
        return self.value.provisional

    @property
    def shown(self) -> str:
        """ "1512" or "1500?" while provisional, as lichess shows it."""
        return f"{glicko2.points(self.rating)}{'?' if self.provisional else ''}"


class RatingChange(models.Model):
    """What one rated game did to one seat's rating: unique per game and seat, so a game
    is rated once however often its end is seen."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=20)
    speed = models.CharField(max_length=16)
    score = models.FloatField(help_text="1 win, 0.5 draw, 0 loss.")
    before = models.FloatField()
    after = models.FloatField()
    rd_before = models.FloatField()
    rd_after = models.FloatField()
    volatility_before = models.FloatField()
    volatility_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    voided = models.DateTimeField(null=True, blank=True, help_text="Reverted by a moderator.")

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_change_per_seat")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat + 1}: {self.points:+d}"

    @property
    def delta(self) -> float:
        return self.after - self.before

    @property
    def shown_after(self) -> int:
        return glicko2.points(self.after)

    @property
    def points(self) -> int:
        """The change in whole points, as the ratings shown before and after differ."""
        return glicko2.points(self.after) - glicko2.points(self.before)

    @property
    def delta_text(self) -> str:
        """ "+12", "-12" written with a minus sign (U+2212), "0"."""
        points = self.points
        return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"

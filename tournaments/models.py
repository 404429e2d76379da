"""Tournaments (arenas and Swiss events), their players and their games."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Tournament(models.Model):
    """An arena (``minutes`` long: whoever is free is paired) or a Swiss event (``rounds``
    rounds, each paired when the last game of the one before ends).

    The row is the tournament's lock: a pairing wave, a start, a finish, a join and a
    withdrawal each hold it (``select_for_update``), so one process pairs a tournament at
    a time and a player is never paired twice."""

    class Kind(models.TextChoices):
        ARENA = "arena"
        SWISS = "swiss"

    class Status(models.IntegerChoices):
        UPCOMING = 10
        RUNNING = 20
        FINISHED = 30

    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=5, choices=Kind.choices)
    game = models.CharField(max_length=20, help_text="The game's kind (quarto, connect, ...).")
    options = models.JSONField(default=dict, blank=True)
    clock = models.JSONField(default=dict)
    rated = models.BooleanField(default=False)
    minutes = models.PositiveIntegerField(null=True, blank=True, help_text="An arena's duration.")
    rounds = models.PositiveIntegerField(null=True, blank=True, help_text="A Swiss event's rounds.")
    round = models.PositiveIntegerField(default=0, help_text="The Swiss round under way (0: none yet).")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text="An arena's end; a Swiss event's, once over."
    )
    status = models.IntegerField(choices=Status.choices, default=Status.UPCOMING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    schedule = models.ForeignKey(
        "Schedule", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status_start")]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"


class Entry(models.Model):
    """A player in a tournament. ``game`` is the game it plays now (None: free): one field,
    so a player is in one game of the tournament at a time by construction. ``sheet`` is
    its points game by game ("2 4 0"); ``streak`` its wins in a row (arena)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    player_id = models.CharField(max_length=64)
    rating = models.FloatField(help_text="The player's rating when it joined.")
    number = models.PositiveIntegerField(default=0, help_text="Swiss pairing number (1: highest rated).")
    score = models.IntegerField(default=0, help_text="Arena points; Swiss half points.")
    streak = models.PositiveIntegerField(default=0)
    sheet = models.CharField(max_length=2000, blank=True, default="")
    withdrawn = models.BooleanField(default=False)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    last_opponent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    free_since = models.DateTimeField(null=True, blank=True)
    buchholz = models.IntegerField(default=0, help_text="Swiss: half points.")
    sonneborn = models.IntegerField(default=0, help_text="Swiss: quarter points.")
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="The final place, once over.")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["-score", "-rating", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_account")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.player_id[:6]}"

    @property
    def on_fire(self) -> bool:
        return self.streak >= 2


class Pairing(models.Model):
    """A game of a tournament (or a Swiss bye: ``second`` and ``game`` empty). ``first``
    holds the game's first seat. ``first_points``/``second_points`` are what the game
    scored each (set when it ends, ``done``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveIntegerField(default=0, help_text="Swiss round; an arena's wave.")
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_pairing"
    )
    first_berserk = models.BooleanField(default=False)
    second_berserk = models.BooleanField(default=False)
    done = models.BooleanField(default=False)
    first_points = models.IntegerField(default=0)
    second_points = models.IntegerField(default=0)
    # The first seat's result in Swiss half points (2 won, 1 drawn, 0 lost), once done.
    first_result = models.IntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.round}: {self.game_id}"


class Schedule(models.Model):
    """A recurring tournament ("hourly Quarto 3+2 arena"): every ``every_minutes`` from
    ``first_at`` a tournament like it is made ``ahead_minutes`` before it starts."""

    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=5, choices=Tournament.Kind.choices, default=Tournament.Kind.ARENA)
    game = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    clock = models.JSONField(default=dict)
    rated = models.BooleanField(default=True)
    minutes = models.PositiveIntegerField(null=True, blank=True)
    rounds = models.PositiveIntegerField(null=True, blank=True)
    first_at = models.DateTimeField()
    every_minutes = models.PositiveIntegerField(default=60)
    ahead_minutes = models.PositiveIntegerField(default=60)
    active = models.BooleanField(default=True)

    class Meta:
        verbose_name = _("tournament schedule")
        verbose_name_plural = _("tournament schedules")

    def __str__(self) -> str:
        return self.name

"""The explorer's index of finished games, and the puzzles with their ratings."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings import glicko2


class ExplorerMove(models.Model):
    """One action of a finished game, filed under the position it was played from."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="explorer_moves")
    ply = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    options = models.CharField(max_length=200, help_text="The game's options as sorted JSON.")
    position = models.CharField(max_length=100, help_text="In the game's notation.")
    move = models.CharField(max_length=20)
    result = models.CharField(max_length=4, help_text="For the player who acted: win, draw or loss.")

    class Meta:
        verbose_name = _("explorer move")
        verbose_name_plural = _("explorer moves")
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="one_explorer_move_per_ply")]
        indexes = [models.Index(fields=["kind", "options", "position"], name="explorer_position")]

    def __str__(self) -> str:
        return f"{self.kind} {self.position}: {self.move} ({self.result})"


class Puzzle(models.Model):
    """A position where the side to act has a forced win, as the solver proved it
    (study/data/<game>-puzzles.json, loaded by ``manage.py load_puzzles``)."""

    key = models.CharField(max_length=12, unique=True)
    kind = models.CharField(max_length=20)
    options = models.JSONField(default=dict)
    moves = models.JSONField(default=list, help_text="Actions from the start to the puzzle's position.")
    position = models.CharField(max_length=100)
    to_move = models.PositiveSmallIntegerField()
    themes = models.JSONField(default=list)
    answer = models.JSONField(default=list, help_text="Every first action that keeps the forced win.")
    source = models.CharField(max_length=60, blank=True)
    rating = models.FloatField(default=glicko2.START_RATING)
    rd = models.FloatField(default=glicko2.START_RD)
    volatility = models.FloatField(default=glicko2.START_VOLATILITY)
    plays = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        indexes = [models.Index(fields=["kind", "rating"], name="puzzle_by_rating")]

    def __str__(self) -> str:
        return f"{self.kind} puzzle {self.key} ({', '.join(self.themes)})"

    @property
    def value(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class PuzzleRating(models.Model):
    """An account's puzzle rating in one game."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_ratings"
    )
    kind = models.CharField(max_length=20)
    rating = models.FloatField(default=glicko2.START_RATING)
    rd = models.FloatField(default=glicko2.START_RD)
    volatility = models.FloatField(default=glicko2.START_VOLATILITY)
    attempts = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(
        default=0, help_text="Most puzzles solved in a row in the streak mode."
    )

    class Meta:
        verbose_name = _("puzzle rating")
        verbose_name_plural = _("puzzle ratings")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_puzzle_rating_per_game")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} puzzles: {glicko2.points(self.rating)}"

    @property
    def value(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class PuzzleAttempt(models.Model):
    """An account's first try at a puzzle: the one that moves both ratings."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    solved = models.BooleanField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle attempt")
        verbose_name_plural = _("puzzle attempts")
        constraints = [models.UniqueConstraint(fields=["user", "puzzle"], name="one_first_try")]

    def __str__(self) -> str:
        return f"{self.user} {'solved' if self.solved else 'failed'} {self.puzzle}"

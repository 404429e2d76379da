"""Games, their seats and their moves. A game's position is rebuilt by replaying its moves."""

from __future__ import annotations

import hashlib
import secrets
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from . import catalog, clocks
from .engine import State
from .prepared import Prepared


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def player_fingerprint(player_id: str) -> str:
    return hashlib.sha256(player_id.encode()).hexdigest()[:8] if player_id else ""


class Game(models.Model):
    class Status(models.IntegerChoices):
        # Gapped like lichess' codes: "finished" is ``status >= FINISHED``.
        WAITING = 10, _("waiting for a player")
        PLAYING = 20, _("playing")
        WON = 30, _("won")
        DRAWN = 35, _("drawn")
        ABORTED = 40, _("aborted")
        ABANDONED = 45, _("abandoned")

    FINISHED = Status.WON

    class Reason(models.TextChoices):
        # Why a finished game ended; blank while it is played.
        NORMAL = "normal", _("the rules")
        RESIGNED = "resigned", _("resignation")
        AGREED = "agreed", _("draw agreed")
        ABORTED = "aborted", _("aborted by a moderator")
        ABANDONED = "abandoned", _("a player left")
        TIMEOUT = "timeout", _("time ran out")
        NO_START = "no_start", _("no first move")

    # The offers a game can have pending (``Game.offers``: kind -> the seats that said yes).
    OFFERS = ("draw", "takeback", "rematch")

    # Checked against the engine registry, not DB choices: a new game needs no migration.
    kind = models.CharField(max_length=20, db_index=True)
    options = models.JSONField(default=dict, blank=True)
    status = models.PositiveSmallIntegerField(choices=Status.choices, default=Status.PLAYING, db_index=True)
    ply = models.PositiveIntegerField(
        default=0, help_text="Actions played; the expected ply of the next move."
    )
    winner = models.SmallIntegerField(null=True, blank=True, help_text="Winning seat index.")
    result = models.JSONField(null=True, blank=True)
    ai_level = models.CharField(max_length=20, blank=True)
    ai_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    allow_hints = models.BooleanField(default=True)
    allow_takebacks = models.BooleanField(default=True)
    rated = models.BooleanField(
        default=False, help_text="Rated between accounts (chosen with the seek); needs a clock."
    )
    takebacks = models.PositiveSmallIntegerField(default=0, help_text="Takebacks applied so far.")
    reason = models.CharField(max_length=12, choices=Reason.choices, blank=True)
    offers = models.JSONField(
        default=dict,
        blank=True,
        help_text='Pending offers: {"draw": {"seats": [0], "ply": 5}, ...}, the seats that said yes.',
    )
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    copy_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="copies",
        help_text="Imported from this game's record while it was still in play (its analysis is open).",
    )
    # The clock (games/clocks.py): the time control, each seat's time in ms as of
    # ``clock_since`` (when the seat to move began its turn), and ``deadline``, when that seat
    # runs out (or, on its first turn, when the game is aborted): what the sweeper looks for.
    clock = models.JSONField(
        default=dict, blank=True, help_text='{"initial": s, "increment": s}, {"days": n}, or {} for none.'
    )
    remaining = models.JSONField(default=list, blank=True, help_text="Each seat's time (ms) at clock_since.")
    clock_since = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    invite_code = models.CharField(max_length=20, unique=True, default=new_invite_code)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    updated = models.DateTimeField(auto_now=True)
    # Counts the saves that change what the game's pages show (every save that touches
    # ``updated``): pages keep the newest rendering they got, whichever way it came
    # (an answer, a push, a poll), by comparing it. A clock could go back; this cannot.
    revision = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created"]
        # The clock sweep's question, every second: which games in play have run out.
        indexes = [
            models.Index(
                fields=["deadline"], name="game_deadline", condition=models.Q(deadline__isnull=False)
            )
        ]

    def __str__(self) -> str:
        return f"{self.title} #{self.pk}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        fields = kwargs.get("update_fields")
        if fields is None or "updated" in fields:
            self.revision += 1
            if fields is not None:
                kwargs["update_fields"] = [*fields, "revision"]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])

    @property
    def group_name(self) -> str:
        return f"game-{self.pk}"

    @property
    def title(self) -> str:
        return catalog.get(self.kind).title

    @cached_property
    def time_control(self) -> clocks.TimeControl:
        return clocks.parse(self.clock)

    @property
    def is_finished(self) -> bool:
        return self.status >= self.FINISHED

    @cached_property
    def move_rows(self) -> list[tuple[int, str]]:
        """(seat, text) of every action in order: one query per game object."""
        if self.pk is None:
            return list(self.moves.order_by("ply").values_list("seat", "text"))  # Django's refusal
        return MOVE_ROWS.rows(self.pk)

    @property
    def move_texts(self) -> list[str]:
        return [text for _, text in self.move_rows]

    @property
    def last_seat(self) -> int | None:
        """The seat that made the newest action."""
        return self.move_rows[-1][0] if self.move_rows else None

    @cached_property
    def state(self) -> State[Any]:
        """The current position, rebuilt from the stored moves."""
        state: State[Any] = catalog.get(self.kind).rules.replay(self.options, self.move_texts)
        return state

    @cached_property
    def seat_list(self) -> list[Seat]:
        """The seats in order with their accounts, loaded once per game object."""
        if self.pk is None:
            return list(self.seats.select_related("user").order_by("index"))  # Django's refusal
        seats: list[Seat] = SEAT_LIST.rows(self.pk)
        for seat in seats:  # as the related manager does: seat.game is this object
            Seat.game.field.set_cached_value(seat, self)
        return seats


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", "person"
        AI = "ai", "computer"

    game = models.ForeignKey(Game, related_name="seats", on_delete=models.CASCADE)
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    # The browser's player id (kept in its session, never shown), not its session key:
    # the key changes on login, the player id does not.
    player_id = models.CharField(max_length=64, blank=True, db_index=True)
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    # The account holding the seat, if any (set by the accounts app; games only reads it).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    name = models.CharField(max_length=40, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the seat's last open page closed; blank while one is open (or none ever was).",
    )
    seen_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a server last said it holds an open page of the seat (every SEAT_HEARTBEAT "
        "seconds); blank if none ever was open.",
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="one_seat_per_index")]
        # The sweep looks for seats whose pages no server has seen lately among the seats
        # with a page open: a small part of the table.
        indexes = [
            models.Index(
                fields=["seen_at"],
                name="seat_open_seen_at",
                condition=models.Q(left_at__isnull=True, seen_at__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return f"seat {self.index + 1} of {self.game}: {self.label}"

    @property
    def is_ai(self) -> bool:
        return self.kind == self.Kind.AI

    @property
    def is_open(self) -> bool:
        return self.kind == self.Kind.HUMAN and not self.player_id and not self.token_hash

    @property
    def player_fingerprint(self) -> str:
        """A short, one-way tag of the player id: enough to tell seats apart, useless as a key."""
        return player_fingerprint(self.player_id)

    @property
    def label(self) -> str:
        if self.is_ai:
            return f"computer ({self.game.ai_level})"
        return self.name or ("open seat" if self.is_open else "person")

    @property
    def called(self) -> str:
        """The seat as the pages name it to others, in the reader's language: a person
        without a name is "Player 2". (``label`` is the records' English word.)"""
        if self.is_ai:
            return gettext("computer (%(level)s)") % {"level": pgettext("computer level", self.game.ai_level)}
        if self.name:
            return self.name
        if self.is_open:
            return gettext("open seat")
        return gettext("Player %(number)s") % {"number": self.index + 1}


class Move(models.Model):
    game = models.ForeignKey(Game, related_name="moves", on_delete=models.CASCADE)
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    text = models.CharField(max_length=16)
    created = models.DateTimeField(auto_now_add=True)
    clock_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="The mover's time left after the action (a record's [%clk])."
    )

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "ply"]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="one_move_per_ply")]

    def __str__(self) -> str:
        return f"{self.ply}. {self.text}"


class ChatLine(models.Model):
    """One line of a game's chat, said by a seat (``seat`` is None for a line of the site)."""

    game = models.ForeignKey(Game, related_name="chat_lines", on_delete=models.CASCADE)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    name = models.CharField(max_length=40, blank=True, help_text="The seat's name when the line was said.")
    text = models.CharField(max_length=300)
    # A line of the site keeps what was done ({"act", "offer", "seat", "name"}), so each page says
    # it in its reader's language (and "You" to the one who did it); ``text`` in English.
    said = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    hidden = models.BooleanField(default=False, help_text="Hidden by a moderator: kept, never shown.")

    class Meta:
        verbose_name = _("chat line")
        verbose_name_plural = _("chat lines")
        ordering = ["game", "created", "pk"]

    def __str__(self) -> str:
        return f"{self.name or 'someone'}: {self.text[:40]}"


class ChatMute(models.Model):
    """A player the moderators muted: their chat lines are refused in every game.

    ``key`` is what holds their seat: a browser's player id or a seat token's hash.
    """

    key = models.CharField(max_length=64, unique=True)
    reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")

    def __str__(self) -> str:
        return f"muted {player_fingerprint(self.key)}"


# The reads every move makes, compiled once (games/prepared.py): the API's token check, the
# locked game (games.services.base.locked_game), its moves, its seats with their accounts.
MOVE_ROWS: Prepared[tuple[int, str]] = Prepared(
    lambda game_id: Move.objects.filter(game_id=game_id).order_by("ply").values_list("seat", "text")
)
SEAT_LIST: Prepared[Seat] = Prepared(
    lambda game_id: Seat.objects.select_related("user").filter(game_id=game_id).order_by("index")
)
LOCKED_GAME: Prepared[Game] = Prepared(
    lambda game_id: Game.objects.select_for_update().filter(pk=game_id).order_by()
)
TOKEN_SEAT: Prepared[tuple[int]] = Prepared(
    lambda token_hash: Seat.objects.filter(token_hash=token_hash).order_by().values_list("pk")[:1]
)

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.web import presenters

from .models import Game, Move, Seat


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = ("index", "kind", "name", "player", "joined_at")
    readonly_fields = fields
    can_delete = False

    @admin.display(description="player")
    def player(self, seat: Seat) -> str:
        """A fingerprint of the player id, never the id: the id is what holds the seat."""
        return seat.player_fingerprint or "-"


class MoveInline(admin.TabularInline[Move, Game]):
    model = Move
    extra = 0
    fields = ("ply", "seat", "text", "created")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("id", "kind", "status", "result_summary", "ai_level", "ply", "created")
    list_filter = ("kind", "status", "ai_level")
    search_fields = ("=id", "invite_code")
    date_hierarchy = "created"
    readonly_fields = (
        "rendered_board",
        "review_link",
        "move_list",
        "ply",
        "result",
        "ai_due_at",
        "created",
        "updated",
    )
    fields = (
        "rendered_board",
        "review_link",
        "move_list",
        "kind",
        "options",
        "status",
        "ply",
        "result",
        "ai_level",
        "ai_due_at",
        "allow_hints",
        "created",
        "updated",
    )
    inlines = (SeatInline, MoveInline)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games start from the site, the API or the terminal player

    @admin.display(description="result")
    def result_summary(self, game: Game) -> str:
        if not game.is_finished:
            return "-"
        return "draw" if game.winner is None else f"seat {game.winner + 1} won"

    @admin.display(description="board")
    def rendered_board(self, game: Game) -> SafeString:
        # Read-only: the page's own forms, nested in the admin's form, would add empty
        # CSRF tokens to it and make "Save" fail.
        return presenters.read_only_board(game)

    @admin.display(description="review")
    def review_link(self, game: Game) -> SafeString:
        return format_html('<a href="{}">post-game review</a>', reverse("games:review", args=[game.pk]))

    @admin.display(description="moves")
    def move_list(self, game: Game) -> SafeString:
        texts = game.move_texts
        if not texts:
            return mark_safe("<em>none yet</em>")
        return format_html(
            "<ol class='admin-moves'>{}</ol>",
            mark_safe("".join(format_html("<li>{}</li>", t) for t in texts)),
        )

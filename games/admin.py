from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.presenting import presenters
from games.services import chat, moderation, stats
from games.services.base import ServiceError

from .models import ChatLine, ChatMute, Game, Move, Seat


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = ("index", "kind", "name", "player", "joined_at", "left_at", "seen_at")
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


class ChatLineInline(admin.TabularInline[ChatLine, Game]):
    model = ChatLine
    extra = 0
    fields = ("created", "seat", "name", "text", "hidden")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = "chat (hide lines or mute players from the chat line list)"


class GameActionForm(ActionForm):
    reason = forms.CharField(required=False, max_length=200, label="Reason (for abort)")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("id", "kind", "status", "result_summary", "reason", "ai_level", "ply", "created")
    list_filter = ("kind", "status", "reason", "ai_level")
    search_fields = ("=id", "invite_code")
    date_hierarchy = "created"
    fields = (
        "rendered_board",
        "review_link",
        "move_list",
        "kind",
        "options",
        "status",
        "ply",
        "result",
        "reason",
        "offers",
        "takebacks",
        "rematch",
        "copy_of",
        "ai_level",
        "ai_due_at",
        "allow_hints",
        "allow_takebacks",
        "created",
        "updated",
    )
    # Only the permissions change here: the kind, options, status and level are what the
    # moves replay against (a changed kind breaks every page); abort with the action.
    readonly_fields = tuple(f for f in fields if f not in ("allow_hints", "allow_takebacks"))
    inlines = (SeatInline, MoveInline, ChatLineInline)
    actions = ("abort_games",)
    action_form = GameActionForm

    def get_urls(self) -> list[URLPattern]:
        stats_url = path("stats/", self.admin_site.admin_view(self.stats_view), name="games_game_stats")
        return [stats_url, *super().get_urls()]

    def stats_view(self, request: HttpRequest) -> HttpResponse:
        """Games per day and per kind, results, computer levels, share against people."""
        context = {
            **self.admin_site.each_context(request),
            "title": "Game statistics",
            "opts": self.model._meta,
            "stats": stats.game_stats(),
        }
        return TemplateResponse(request, "admin/games/game/stats.html", context)

    @admin.action(description="Abort the selected games (no result)")
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        reason = request.POST.get("reason", "").strip() or "aborted by a moderator"
        aborted, refused = 0, []
        for game in queryset:
            try:
                moderation.abort_game(game.pk, reason, by=str(request.user))
                aborted += 1
            except ServiceError as exc:
                refused.append(exc.message)
        if aborted:
            self.message_user(request, f"Aborted {aborted} game(s).", messages.SUCCESS)
        for message in refused:
            self.message_user(request, message, messages.WARNING)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games start from the site, the API or the terminal player

    @admin.display(description="result")
    def result_summary(self, game: Game) -> str:
        if game.status == Game.Status.ABORTED:
            return f"aborted: {moderation.abort_reason(game)}"
        if not game.is_finished:
            return "-"
        on_time = " on time" if game.reason == Game.Reason.TIMEOUT else ""
        winners = (game.result or {}).get("winners") if isinstance(game.result, dict) else None
        if game.winner is None and game.status == Game.Status.WON and winners:
            return f"seats {', '.join(str(s + 1) for s in winners)} share the win{on_time}"
        return "draw" if game.winner is None else f"seat {game.winner + 1} won{on_time}"

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


@admin.register(ChatLine)
class ChatLineAdmin(admin.ModelAdmin[ChatLine]):
    """Read the chat, hide lines (kept, never shown again) and mute their authors."""

    list_display = ("created", "game_link", "seat_number", "name", "text", "hidden")
    list_filter = ("hidden", "created")
    search_fields = ("text", "name", "=game__id")
    list_select_related = ("game",)
    readonly_fields = ("game", "seat", "name", "text", "created", "hidden")
    actions = ("hide_lines", "show_lines", "mute_authors")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ChatLine | None = None) -> bool:
        return False  # read here; hidden, shown and muted through the actions

    def has_delete_permission(self, request: HttpRequest, obj: ChatLine | None = None) -> bool:
        return False  # "delete" is hiding: the line stays as a record of what was said

    @admin.display(description="game", ordering="game")
    def game_link(self, line: ChatLine) -> SafeString:
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:games_game_change", args=[line.game_id]), line.game
        )

    @admin.display(description="seat", ordering="seat")
    def seat_number(self, line: ChatLine) -> str:
        return "-" if line.seat is None else str(line.seat + 1)

    @admin.action(description="Hide the selected lines")
    def hide_lines(self, request: HttpRequest, queryset: QuerySet[ChatLine]) -> None:
        count = chat.hide_lines(queryset)
        self.message_user(request, f"Hid {count} line(s).", messages.SUCCESS)

    @admin.action(description="Show the selected lines again")
    def show_lines(self, request: HttpRequest, queryset: QuerySet[ChatLine]) -> None:
        count = chat.hide_lines(queryset, hidden=False)
        self.message_user(request, f"Showed {count} line(s) again.", messages.SUCCESS)

    @admin.action(description="Mute the authors of the selected lines (in every game)")
    def mute_authors(self, request: HttpRequest, queryset: QuerySet[ChatLine]) -> None:
        count = chat.mute_authors(queryset, reason=f"muted by {request.user}")
        self.message_user(request, f"Muted {count} player key(s).", messages.SUCCESS)


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin[ChatMute]):
    """Muted players, by a fingerprint of what holds their seats; delete one to unmute."""

    list_display = ("fingerprint", "reason", "created")
    fields = ("fingerprint", "reason", "created")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # muted from a chat line

    @admin.display(description="player")
    def fingerprint(self, mute: ChatMute) -> str:
        return str(mute).removeprefix("muted ")

"""The admin's accounts: listed with their games; closed or banned from the list, the bot
flag set on the account's page."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from accounts import services
from accounts.models import Account
from games.models import Game
from ratings import services as ratings

RECENT = 20


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin[Account]):
    list_display = ("__str__", "member_since", "bot", "banned", "closed")
    list_filter = ("bot", "banned")
    search_fields = ("user__username",)
    fields = ("user", "member_since", "bot", "banned", "closed", "games")
    readonly_fields = ("user", "member_since", "banned", "closed", "games")
    actions = ("ban", "close", "void_rated_games")

    @admin.display(description="member since")
    def member_since(self, account: Account) -> object:
        return account.user.date_joined

    @admin.display(description=f"games (the newest {RECENT})")
    def games(self, account: Account) -> SafeString:
        held = Q(seats__user=account.user) | Q(seats__player_id=account.player_id)
        found = Game.objects.filter(held).distinct().order_by("-created")[:RECENT]
        rows = (
            (reverse("admin:games_game_change", args=[g.pk]), str(g), g.get_status_display()) for g in found
        )
        return format_html_join(SafeString("<br>"), '<a href="{}">{}</a> ({})', rows) or SafeString("none")

    @admin.action(description="Ban: no log-in, games or chat; games in play aborted")
    def ban(self, request: HttpRequest, queryset: QuerySet[Account]) -> None:
        for account in queryset.select_related("user"):
            aborted = services.ban_account(account)
            self.message_user(request, f"{account} is banned; {len(aborted)} game(s) in play aborted.")

    @admin.action(description="Close: games kept, seats shown as a deleted player")
    def close(self, request: HttpRequest, queryset: QuerySet[Account]) -> None:
        for account in queryset.select_related("user"):
            if account.closed is not None:
                self.message_user(request, f"{account} was closed already.", messages.WARNING)
                continue
            services.close_account(account)
            self.message_user(request, f"{account} is closed.")

    @admin.action(description="Void rated games (cheating): opponents get their points back")
    def void_rated_games(self, request: HttpRequest, queryset: QuerySet[Account]) -> None:
        for account in queryset.select_related("user"):
            count = ratings.void_games_of(account.user.pk)
            self.log_change(request, account, f"Voided {count} rated game(s).")
            self.message_user(request, f"{account}: {count} rated game(s) voided.")

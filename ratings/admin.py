"""Ratings in the admin: reset a rating; every change a rated game made, voided or not."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from ratings import services
from ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ("user", "kind", "speed", "shown", "rd", "games", "last_game")
    list_filter = ("kind", "speed")
    search_fields = ("user__username",)
    readonly_fields = ("user", "kind", "speed", "rating", "rd", "volatility", "games", "last_game")
    actions = ("reset",)

    @admin.action(description="Reset to 1500 (deviation 500): the history stays")
    def reset(self, request: HttpRequest, queryset: QuerySet[Rating]) -> None:
        for rating in queryset:
            services.reset(rating)
            self.log_change(request, rating, "Rating reset to 1500, deviation 500.")
        self.message_user(request, f"{queryset.count()} rating(s) reset.")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = ("game", "user", "kind", "speed", "before", "after", "created", "voided")
    list_filter = ("kind", "speed", ("voided", admin.EmptyFieldListFilter))
    search_fields = ("user__username",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RatingChange | None = None) -> bool:
        return False

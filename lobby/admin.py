"""Seeks and pool entries in the admin: what is offered and who waits, read-only."""

from __future__ import annotations

from django.contrib import admin

from lobby.models import PoolEntry, Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin[Seek]):
    list_display = ("id", "kind", "status", "rated", "user", "bot", "game", "created", "last_seen")
    list_filter = ("status", "kind", "rated", "bot")
    readonly_fields = [f.name for f in Seek._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(PoolEntry)
class PoolEntryAdmin(admin.ModelAdmin[PoolEntry]):
    list_display = ("id", "pool", "user", "rating", "since", "last_seen", "game")
    readonly_fields = [f.name for f in PoolEntry._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False

from typing import Any

from django import forms
from django.contrib import admin
from django.utils.translation import gettext as _

from games.services.base import ServiceError
from lobby.services import clean_clock, clean_game
from tournaments.models import Entry, Pairing, Schedule, Tournament
from tournaments.services import real_time_needed


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """The admin's checks are the API's: a known game and options, a real-time clock,
    minutes for an arena and rounds for a Swiss event."""

    class Meta:
        model = Tournament
        fields = (
            "name", "kind", "game", "options", "clock", "rated", "minutes", "rounds", "round",
            "starts_at", "ends_at", "status", "schedule",
        )  # fmt: skip

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        try:
            data["game"], data["options"] = clean_game(data.get("game"), data.get("options"))
            control = clean_clock(data.get("clock"))
        except ServiceError as exc:
            field = exc.field if exc.field in ("game", "options", "clock") else None
            raise forms.ValidationError({field: exc.message} if field else exc.message) from exc
        if not control.realtime:
            raise forms.ValidationError({"clock": real_time_needed()})
        data["clock"] = control.to_json()
        arena = data.get("kind") == Tournament.Kind.ARENA
        if arena and not data.get("minutes"):
            raise forms.ValidationError({"minutes": _("An arena lasts some minutes.")})
        if not arena and not data.get("rounds"):
            raise forms.ValidationError({"rounds": _("A Swiss event has some rounds.")})
        return data


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    fields = ("user", "rating", "score", "streak", "sheet", "withdrawn", "game", "rank")
    readonly_fields = ("user", "rating", "score", "streak", "sheet", "game", "rank")
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Staff make tournaments here: any number, any time (accounts have a limit)."""

    form = TournamentForm
    list_display = ("name", "kind", "game", "status", "starts_at", "ends_at", "rated")
    list_filter = ("kind", "status", "game", "rated")
    search_fields = ("name",)
    readonly_fields = ("round", "created", "created_by")
    inlines = [EntryInline]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "kind", "game", "every_minutes", "first_at", "active")


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("tournament", "round", "game", "done", "first_points", "second_points")
    list_filter = ("done",)
    raw_id_fields = ("tournament", "first", "second", "game")

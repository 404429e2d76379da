from __future__ import annotations

from typing import Any

from django import forms

from . import ai
from .engine import GAMES


class NewGameForm(forms.Form):
    """The common new-game choices; each game's own options come as extra fields."""

    kind = forms.ChoiceField(choices=[(k, r.title) for k, r in GAMES.items()], widget=forms.HiddenInput)
    opponent = forms.ChoiceField(
        choices=[("ai", "the computer"), ("human", "a friend (invite link)")], required=False
    )
    level = forms.CharField(required=False)
    seat = forms.ChoiceField(
        choices=[("random", "toss a coin"), ("first", "I start"), ("second", "the opponent starts")],
        required=False,
        label="Who starts",
    )
    allow_hints = forms.BooleanField(required=False, initial=True, label="Allow hints")

    def game_options(self, data: Any) -> dict[str, Any]:
        """The game's own options: every posted field that is not a common choice."""
        common = set(self.fields) | {"csrfmiddlewaretoken"}
        return {key: data.get(key) for key in data if key not in common}


def level_choices(kind: str) -> list[tuple[str, str]]:
    return [(name, name) for name in ai.levels(kind)]

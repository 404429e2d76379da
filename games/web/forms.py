from __future__ import annotations

from typing import Any

from django import forms

from games import catalog


class NewGameForm(forms.Form):
    """The common new-game choices; each game's own options come as extra fields."""

    kind = forms.ChoiceField(choices=lambda: game_choices(), widget=forms.HiddenInput)
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
    allow_takebacks = forms.BooleanField(required=False, initial=True, label="Allow takebacks")
    rated = forms.BooleanField(required=False, label="Rated")
    # The time control (newgame.clock_choice reads them: a refusal is said beside the field).
    clock = forms.CharField(required=False)
    clock_minutes = forms.CharField(required=False)
    clock_increment = forms.CharField(required=False)

    def game_options(self, data: Any) -> dict[str, Any]:
        """The game's own options: every posted field that is not a common choice."""
        common = set(self.fields) | {"csrfmiddlewaretoken"}
        return {key: data.get(key) for key in data if key not in common}


def game_choices() -> list[tuple[str, str]]:
    """Every game in the catalog, asked when a form is made (a game added later is listed)."""
    return [(spec.kind, spec.title) for spec in catalog.CATALOG.values()]

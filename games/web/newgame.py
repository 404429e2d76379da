"""The home page's new-game cards: each game's choices and options as form fields, and,
when a posted form was refused, that card again with what was typed and the error beside
its field (a plain page: it needs no JavaScript)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from games import catalog
from games.services.moves import ServiceError

INPUT_TYPES = {"int": "number", "bool": "checkbox"}


def option_fields(spec: catalog.GameSpec, posted: QueryDict | None) -> list[dict[str, Any]]:
    """The game's new-game options as form fields, from the option specs its rules declare."""
    fields = []
    for o in spec.options:
        field: dict[str, Any] = {
            "name": o.name,
            "label": o.label,
            "input_type": INPUT_TYPES[o.type],
            "default": o.default,
            "min": o.min,
            "max": o.max,
            "checked": o.type == "bool" and bool(o.default),
        }
        if posted is not None and o.name in posted:
            field["default"] = posted[o.name]  # the last value: a ticked box after its hidden "off"
            field["checked"] = posted[o.name] == "on"
        fields.append(field)
    return fields


def game_cards(posted: QueryDict | None = None, error: ServiceError | None = None) -> list[dict[str, Any]]:
    """One card per game; the posted game's card keeps the posted values and shows ``error``."""
    cards = []
    for spec in catalog.CATALOG.values():
        mine = posted if posted is not None and posted.get("kind") == spec.kind else None
        fields = option_fields(spec, mine)
        names = {f["name"] for f in fields}
        for f in fields:
            f["error"] = error.message if mine is not None and error and error.field == f["name"] else ""
        card_error = ""
        if mine is not None and error and error.field not in names:
            card_error = error.message
        cards.append(
            {
                "kind": spec.kind,
                "title": spec.title,
                "levels": spec.levels,
                "level": (mine.get("level") if mine else None) or spec.default_level,
                "opponent": _chosen(mine, "opponent", "ai"),
                "seat": _chosen(mine, "seat", "random"),
                "allow_hints": mine is None or "allow_hints" in mine,
                "allow_takebacks": mine is None or "allow_takebacks" in mine,
                "error": card_error,
                "template": spec.template,
                "numbers": [f for f in fields if f["input_type"] == "number"],
                "flags": [f for f in fields if f["input_type"] == "checkbox"],
            }
        )
    return cards


def _chosen(posted: QueryDict | None, name: str, default: str) -> dict[str, bool]:
    """Which option of a select is selected, as ``{value: True}`` (templates compare no strings)."""
    return {(posted.get(name) if posted else None) or default: True}

"""The home page's new-game cards: each game's choices and options as form fields, and,
when a posted form was refused, that card again with what was typed and the error beside
its field (a plain page: it needs no JavaScript)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext, pgettext_lazy

from games import catalog, clocks
from games.presenting import front
from games.services.moves import ServiceError

INPUT_TYPES = {"int": "number", "bool": "checkbox"}
CUSTOM = "custom"
# The custom real-time clock's fields as a new form shows them (3+2).
CUSTOM_MINUTES, CUSTOM_INCREMENT = "3", "2"


# The words the game packages (pure: no Django) give in English, for the catalogs: the
# computer's levels (in a context of their own: "casual" is a mode too), the speeds of the
# clocks and the labels of the games' options.
PACKAGE_WORDS = [
    pgettext_lazy("computer level", "beginner"),
    pgettext_lazy("computer level", "casual"),
    pgettext_lazy("computer level", "club"),
    pgettext_lazy("computer level", "expert"),
    pgettext_lazy("computer level", "perfect"),
    pgettext_lazy("computer level", "master"),
    pgettext_lazy("computer level", "strong"),
    gettext_noop("bullet"),
    gettext_noop("blitz"),
    gettext_noop("rapid"),
    gettext_noop("classical"),
    gettext_noop("Width"),
    gettext_noop("Height"),
    gettext_noop("In a row"),
    gettext_noop("Players"),
    gettext_noop("Gravity (stones fall, as in Connect Four)"),
    gettext_noop("Advanced rule: a 2x2 square also wins"),
]


def clock_options() -> list[dict[str, str]]:
    """The time control's choices: unlimited, the presets, a custom real-time clock, days per move."""
    choices = [{"value": "unlimited", "label": _("Unlimited")}]
    choices += [{"value": c.label, "label": f"{c.label} ({_(c.speed)})"} for c in clocks.presets()]
    choices.append({"value": CUSTOM, "label": _("Custom (minutes + seconds per move)")})
    choices += [
        {
            "value": f"{d}d",
            "label": ngettext("%(count)s day per move", "%(count)s days per move", d) % {"count": d},
        }
        for d in clocks.DAYS
    ]
    return choices


def level_label(spec: catalog.GameSpec, level: str) -> str:
    """ "club, about 1450" once the level's rating is established, else "club"."""
    rating = spec.level_rating(level)
    if rating is None or not rating.established:
        return pgettext("computer level", level)
    said = pgettext("computer level", level)
    return _("%(level)s, about %(rating)s") % {"level": said, "rating": f"{round(rating.rating, -1):.0f}"}


def clock_choice(posted: QueryDict) -> dict[str, int] | None:
    """The posted time control in create_game's form ({"initial", "increment"} or {"days"}),
    None for unlimited; a ServiceError naming the ``clock`` field when it cannot be played."""
    choice = posted.get("clock", "").strip()
    if choice != CUSTOM:
        valid = {c["value"] for c in clock_options()} - {CUSTOM}
        if choice and choice not in valid:
            raise ServiceError("bad_clock", _("Choose a time control from the list."), field="clock")
        control = clocks.parse_label(choice)
        return control.to_json() or None
    try:
        control = clocks.real_time(
            posted.get("clock_minutes", ""),
            posted.get("clock_increment", "").strip() or "0",
            gettext_noop("Give the custom clock's minutes (0.25 to 180) and seconds per move (0 to 60)."),
        )
    except clocks.ClockError as exc:
        raise ServiceError(exc.code, exc.said(_), field="clock") from None
    return control.to_json()


def option_fields(spec: catalog.GameSpec, posted: QueryDict | None) -> list[dict[str, Any]]:
    """The game's new-game options as form fields, from the option specs its rules declare."""
    fields = []
    for o in spec.options:
        field: dict[str, Any] = {
            "name": o.name,
            "label": _(o.label),
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
        if mine is not None and error and error.field not in names | {"clock", "level", "rated"}:
            card_error = error.message

        def beside(field: str, mine: QueryDict | None = mine) -> str:
            return error.message if mine is not None and error and error.field == field else ""

        cards.append(
            {
                "kind": spec.kind,
                "title": spec.title,
                "levels": [(level, level_label(spec, level)) for level in spec.levels],
                "level": (mine.get("level") if mine else None) or spec.default_level,
                "opponent": _chosen(mine, "opponent", "ai"),
                "seat": _chosen(mine, "seat", "random"),
                "allow_hints": mine is None or "allow_hints" in mine,
                "allow_takebacks": mine is None or "allow_takebacks" in mine,
                "error": card_error,
                "template": spec.template,
                "links": front.game_links(spec.kind),
                "clocks": clock_options(),
                "clock": (mine.get("clock") if mine else None) or "unlimited",
                "clock_minutes": mine.get("clock_minutes", CUSTOM_MINUTES) if mine else CUSTOM_MINUTES,
                "clock_increment": mine.get("clock_increment", CUSTOM_INCREMENT)
                if mine
                else CUSTOM_INCREMENT,
                "clock_error": beside("clock"),
                "level_error": beside("level"),
                "rated": mine is not None and "rated" in mine,
                "rated_error": beside("rated"),
                "numbers": [f for f in fields if f["input_type"] == "number"],
                "flags": [f for f in fields if f["input_type"] == "checkbox"],
            }
        )
    return cards


def _chosen(posted: QueryDict | None, name: str, default: str) -> dict[str, bool]:
    """Which option of a select is selected, as ``{value: True}`` (templates compare no strings)."""
    return {(posted.get(name) if posted else None) or default: True}

"""The logged-in account's page preferences, for the templates that honour them.

The game's parts are rendered once per audience and pushed to every page of it, so a
preference never changes them: the full page (rendered per request) carries the viewer's
choices as classes on its ``<main>``, and the stylesheet shows or hides what they name.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.services import account_of


def _classes(request: HttpRequest) -> str:
    account = account_of(request.user)
    if account is None:
        return ""
    classes = []
    if not account.show_coordinates:
        classes.append("no-coordinates")
    if not account.confirm_resign:
        classes.append("resign-at-once")
    if account.sound:
        classes.append("sound-on")
    return " ".join(classes)


# The game page's sounds (static/sounds/<name>.wav, made by scripts/make_sounds.py).
SOUNDS = ("move", "win", "end", "start", "low", "chat")


def preferences(request: HttpRequest) -> dict[str, Any]:
    """``preference_classes``: read from the database only by a page that shows it."""
    return {"preference_classes": SimpleLazyObject(lambda: _classes(request)), "sound_names": SOUNDS}

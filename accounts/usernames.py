"""The username rules: 3-20 letters, digits, '-' or '_'; unique whatever the case; a few
names kept for the site itself, and none that passes for the site or a seat (the display
names' check, :func:`games.services.names.is_reserved`: "Player1", "Moderator_",
"deleted-player"). A username keeps the casing it was given."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.services import names

PATTERN = re.compile(r"[A-Za-z0-9_-]{3,20}")
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "anonymous",
        "api",
        "computer",
        "deleted",
        "moderator",
        "nobody",
        "root",
        "site",
        "staff",
        "support",
        "system",
        "quarto",
    }
)


def check(username: str) -> str:
    """``username`` if it keeps the rules, else a ValidationError that says what is wrong."""
    if not PATTERN.fullmatch(username):
        raise ValidationError(_("A username is 3 to 20 letters, digits, '-' or '_'."), code="bad_username")
    if names.skeleton(username) in RESERVED or names.is_reserved(username):
        raise ValidationError(
            _("The name %(name)r is kept for the site; pick another.") % {"name": username}, code="reserved"
        )
    return username

"""The username rules: 3-20 letters, digits, '-' or '_'; unique whatever the case; a few
names kept for the site itself. A username keeps the casing it was given."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

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
        raise ValidationError("A username is 3 to 20 letters, digits, '-' or '_'.", code="bad_username")
    if username.lower() in RESERVED:
        raise ValidationError(f"The name {username!r} is kept for the site; pick another.", code="reserved")
    return username

"""Display names: what a player may call their seat, on the page or in an imported record.

A name is shown beside the site's own words (the players panel, the chat's lines of the
site: "Player 2 declined the draw offer."), so it may not pass for the site, a moderator
or a seat as the pages name them ("Player 1", "Your opponent", "computer (casual)").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence


class BadName(ValueError):
    """A name refused: the sentence says why."""


NAME_MAX_LENGTH = 24
# Letters and digits of any script (Python's \w), apostrophes (' and U+2019), dots,
# underscores, hyphens and spaces; the name field's pattern (games/game.html) says the same.
_NAME_RE = re.compile("[\\w .'\u2019\\-]+")
_SPACES = re.compile(r"\s+")
_PUNCTUATION = re.compile("[ ._'\u2019\\-]+")
# Words the pages use for seats and for the site itself, compared without case,
# punctuation or spacing; a name may not be one of them.
RESERVED_NAMES = {
    "you",
    "person",
    "open seat",
    "site",
    "the site",
    "moderator",
    "moderators",
    "admin",
    "administrator",
    "opponent",
    "your opponent",
    "spectator",
}
# "Player 2", "player2"; "computer", "computer casual" (the page says "computer (casual)").
_RESERVED_PATTERNS = re.compile(r"player ?\d+|(the )?computer( .*)?")


def clean(name: object) -> str:
    """A display name: 1 to 24 letters, digits, spaces, apostrophes, dots, underscores
    or hyphens (letters of any script: "Zoë", "O'Neil", "Søren"), not one the site uses."""
    if not isinstance(name, str):
        raise BadName("Send the name as text.")
    # Composed, so that an accent typed as a separate mark counts as part of its letter.
    name = _SPACES.sub(" ", unicodedata.normalize("NFC", name)).strip()
    if not name:
        raise BadName("A name needs at least one character.")
    if len(name) > NAME_MAX_LENGTH:
        raise BadName(f"A name is at most {NAME_MAX_LENGTH} characters.")
    if not _NAME_RE.fullmatch(name):
        raise BadName(
            "A name may hold letters, digits, spaces, apostrophes, dots, underscores and hyphens.",
        )
    if is_reserved(name):
        raise BadName(
            f"“{name}” would pass for the site, a moderator or a seat: the site uses it for others. "
            "Choose another name.",
        )
    return name


def is_reserved(name: str) -> bool:
    # NFKC folds full-width and other look-alike forms of letters and digits to plain ones.
    folded = _PUNCTUATION.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()
    return folded in RESERVED_NAMES or _RESERVED_PATTERNS.fullmatch(folded) is not None


# What the site's own records say of a seat without a name (``Seat.label``).
_UNNAMED_LABEL = re.compile(r"person|open seat|computer \([\w ]+\)")


def record_names(names: Sequence[str]) -> list[str]:
    """The seats' names in an imported record, checked like names typed on the page. An
    empty one, or the site's own word for a seat without a name ("person", "computer
    (casual)": the records the site exports say so), gives a seat without a name."""
    cleaned = []
    for index, name in enumerate(names):
        if not name.strip() or _UNNAMED_LABEL.fullmatch(name.strip()):
            cleaned.append("")
            continue
        try:
            cleaned.append(clean(name))
        except BadName as exc:
            raise BadName(f"the name of player {index + 1}: {exc}") from None
    return cleaned

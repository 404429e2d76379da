"""Display names: what a player may call their seat, on the page or in an imported record.

A name is shown beside the site's own words (the players panel, the chat's lines of the
site: "Player 2 declined the draw offer."), so it may not pass for the site, a moderator
or a seat as the pages name them ("Player 1", "Your opponent", "computer (casual)").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from confusable_homoglyphs import confusables
from django.utils.translation import gettext as _


class BadName(ValueError):
    """A name refused: the sentence says why."""


NAME_MAX_LENGTH = 24
# Letters and digits of any script (Python's \w), apostrophes (' and U+2019), dots,
# underscores, hyphens and spaces; the name field's pattern (games/game.html) says the same.
_NAME_RE = re.compile("[\\w .'\u2019\\-]+")
_SPACES = re.compile(r"\s+")
# Words the pages use for seats and for the site itself, compared by their skeletons
# (:func:`skeleton`: no separators, no case, look-alike letters folded); a name may not
# be one of them. Usernames share the check (``accounts.usernames``).
RESERVED_NAMES = frozenset(
    {
        "you",
        "person",
        "openseat",
        "site",
        "thesite",
        "moderator",
        "moderators",
        "admin",
        "administrator",
        "opponent",
        "youropponent",
        "spectator",
        "deleted",
        "deletedplayer",
    }
)
# "Player 2", "player2", "Player II" (Roman; a skeleton reads I as l), "Player Two";
# "computer", "computer casual" (the page says "computer (casual)").
_RESERVED_PATTERNS = re.compile(r"(the)?player(\d+|[ivxl]+|one|two|three|four)|(the)?computer.*")
_SEPARATORS = re.compile(r"[\W_]+")


def _prototype(char: str) -> str:
    """The ASCII letter or digit ``char`` passes for (Cyrillic Em -> "M", Greek omicron
    -> "o"), from the Unicode confusables data; ``char`` itself when it has none."""
    if char.isascii():
        return char
    found = confusables.is_confusable(char, preferred_aliases=["latin", "common"])
    if found:
        for glyph in found[0]["homoglyphs"]:
            if glyph["c"].isascii() and glyph["c"].isalnum():
                return str(glyph["c"])
    return char


def skeleton(name: str) -> str:
    """What ``name`` looks like, to compare with the site's words: compatibility forms
    folded (full-width letters, the Roman numeral signs), each look-alike letter of another
    script taken for the letter it passes for, separators (spaces, dots, '-', '_') gone,
    case folded. "Mod erator", or "Moderator" with a Cyrillic Em, -> "moderator"."""
    folded = "".join(_prototype(char) for char in unicodedata.normalize("NFKC", name))
    return _SEPARATORS.sub("", folded).casefold()


# ASCII letters and digits that pass for others, as Unicode's confusables data has them
# (capital I and the digit 1 for a small l, 0 for an O, "rn" for "m"): "PIayer1".
_ASCII_LOOK_ALIKES = (("I", "l"), ("1", "l"), ("0", "o"), ("rn", "m"))
# Digits written for letters ("Adm1n", "Pl4yer", "M0d3rator"): a third reading.
_DIGITS_FOR_LETTERS = str.maketrans({"1": "i", "0": "o", "4": "a", "3": "e", "5": "s", "7": "t"})


def is_reserved(name: str) -> bool:
    """Whether ``name`` (a display name or a username) would pass for the site, a
    moderator or a seat as the pages name them: as typed, or read with ASCII look-alikes
    taken for what they pass for, or digits for the letters they stand for ("Adm1n"):
    further readings, so that "Player 10" stays a seat."""
    read_as = name
    for alike, letter in _ASCII_LOOK_ALIKES:
        read_as = read_as.replace(alike, letter)
    readings = {skeleton(name), skeleton(read_as), skeleton(name.translate(_DIGITS_FOR_LETTERS))}
    return any(
        folded in RESERVED_NAMES or _RESERVED_PATTERNS.fullmatch(folded) is not None for folded in readings
    )


def clean(name: object) -> str:
    """A display name: 1 to 24 letters, digits, spaces, apostrophes, dots, underscores
    or hyphens (letters of any script: "Zoë", "O'Neil", "Søren"), not one the site uses."""
    if not isinstance(name, str):
        raise BadName(_("Send the name as text."))
    # Composed, so that an accent typed as a separate mark counts as part of its letter.
    name = _SPACES.sub(" ", unicodedata.normalize("NFC", name)).strip()
    if not name:
        raise BadName(_("A name needs at least one character."))
    if len(name) > NAME_MAX_LENGTH:
        raise BadName(_("A name is at most %(most)s characters.") % {"most": NAME_MAX_LENGTH})
    if not _NAME_RE.fullmatch(name):
        raise BadName(
            _("A name may hold letters, digits, spaces, apostrophes, dots, underscores and hyphens."),
        )
    if is_reserved(name):
        raise BadName(
            _(
                "“%(name)s” would pass for the site, a moderator or a seat: the site uses it for others. "
                "Choose another name."
            )
            % {"name": name},
        )
    return name


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
            raise BadName(
                _("the name of player %(number)s: %(reason)s") % {"number": index + 1, "reason": exc}
            ) from None
    return cleaned

"""The site's own lines in a game's chat ("Player 2 declined the draw offer."), said in
each reader's language: a line keeps what was done (``ChatLine.said``), and the page
says it again, "You ..." to the player who did it. ``ChatLine.text`` keeps the English
sentence for the admin and the API."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, override
from django.utils.translation import gettext_lazy as _

# (act, offer): (said to the player who did it, said to the others).
SENTENCES: dict[tuple[str, str], tuple[Promise, Promise]] = {
    ("declined", "draw"): (_("You declined the draw offer."), _("%(who)s declined the draw offer.")),
    ("withdrew", "draw"): (_("You withdrew the draw offer."), _("%(who)s withdrew the draw offer.")),
    ("declined", "takeback"): (
        _("You declined the takeback request."),
        _("%(who)s declined the takeback request."),
    ),
    ("withdrew", "takeback"): (
        _("You withdrew the takeback request."),
        _("%(who)s withdrew the takeback request."),
    ),
    ("declined", "rematch"): (_("You declined the rematch offer."), _("%(who)s declined the rematch offer.")),
    ("withdrew", "rematch"): (_("You withdrew the rematch offer."), _("%(who)s withdrew the rematch offer.")),
}


def said(act: str, offer: str, seat: int, name: str) -> dict[str, Any]:
    """What a line of the site keeps: ``name`` is the seat's chosen name, or "" to call
    it by its number (no name, or a muted player)."""
    return {"act": act, "offer": offer, "seat": seat, "name": name}


def sentence(said: dict[str, Any], mine: list[int] | tuple[int, ...] = ()) -> str:
    """The line in the active language, for a reader holding the seats ``mine``."""
    yours, theirs = SENTENCES[said["act"], said["offer"]]
    if said["seat"] in mine:
        return str(yours)
    who = said["name"] or gettext("Player %(number)s") % {"number": said["seat"] + 1}
    return str(theirs) % {"who": who}


def english(said: dict[str, Any]) -> str:
    with override("en"):
        return sentence(said)

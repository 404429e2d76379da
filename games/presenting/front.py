"""Parts other apps add to the site's pages, registered in their ``AppConfig.ready()``:
games knows nothing of them.

- the top of the home page (the lobby's quick pairing): a provider takes the request and
  returns HTML, or "" when it has nothing to show;
- a game's page (the tournament a game belongs to): a provider takes the request and the
  game and returns HTML, or "";
- links from a game's position (the study app's analysis board, beside the replay and
  the review): a provider takes the game and a ply and returns ``(label, address)``, or
  None;
- links about a game of the catalog (its rules, a guided first game), on the home
  page's cards, the game page and the lobby: a provider takes the game's kind and returns
  ``(label, address)``, or None.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe

log = logging.getLogger(__name__)

Provider = Callable[[HttpRequest], str]
_providers: list[Provider] = []


def add_section(provider: Provider) -> None:
    if provider not in _providers:
        _providers.append(provider)


def sections(request: HttpRequest) -> list[SafeString]:
    """Each provider's part, in the order they registered; a failing one is left out."""
    found = []
    for provider in tuple(_providers):
        try:
            html = provider(request)
        except Exception:  # the home page never fails for want of a part
            log.exception("home page part %r", provider)
            continue
        if html:
            found.append(mark_safe(html))
    return found


GamePart = Callable[[HttpRequest, Any], str]
_game_parts: list[GamePart] = []


def add_game_part(provider: GamePart) -> None:
    if provider not in _game_parts:
        _game_parts.append(provider)


def game_parts(request: HttpRequest, game: Any) -> list[SafeString]:
    """Each game-page provider's part for ``game``; a failing one is left out."""
    found = []
    for provider in tuple(_game_parts):
        try:
            html = provider(request, game)
        except Exception:  # the game page never fails for want of a part
            log.exception("game page part %r", provider)
            continue
        if html:
            found.append(mark_safe(html))
    return found


PositionLink = Callable[[Any, int], tuple[str, str] | None]
_position_links: list[PositionLink] = []


def add_position_link(provider: PositionLink) -> None:
    if provider not in _position_links:
        _position_links.append(provider)


def position_links(game: Any, ply: int) -> list[dict[str, str]]:
    """Each provider's link for ``game`` at ``ply``; a failing one is left out."""
    return _links(_position_links, game, ply)


def _links(providers: list[Callable[..., tuple[str, str] | None]], *args: Any) -> list[dict[str, str]]:
    found = []
    for provider in tuple(providers):
        try:
            link = provider(*args)
        except Exception:  # a page never fails for want of a link
            log.exception("link %r", provider)
            continue
        if link:
            found.append({"label": link[0], "href": link[1]})
    return found


GameLink = Callable[[str], tuple[str, str] | None]
_game_links: list[GameLink] = []


def add_game_link(provider: GameLink) -> None:
    if provider not in _game_links:
        _game_links.append(provider)


def game_links(kind: str) -> list[dict[str, str]]:
    """Each provider's link about the game ``kind``; a failing one is left out."""
    return _links(_game_links, kind)

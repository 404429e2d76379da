"""Who is asking, for every door: the one identity function's hooks.

A browser is its session's player id (:func:`games.services.players.player_id`, asked by
the pages and the socket); an API client is its bearer token. Games knows nothing of the
apps above it: an app that adds identities (accounts) registers here at start-up

- a *session check*: given a session's player id, the id still to use, or None when it
  no longer stands (an account closed or banned: its browsers lose its seats);
- a *token reader*: given a bearer token, who holds it (:class:`Holder`: the player id it
  acts as and the language its account reads), or None (a personal API token acts as its
  account's player id in every game it holds a seat in).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Holder:
    """Who a personal token acts for: a player id, and the language its account chose ("")."""

    player_id: str
    language: str = ""


SessionCheck = Callable[[Any, str], "str | None"]
TokenReader = Callable[[str], "Holder | None"]

_session_checks: list[SessionCheck] = []
_token_readers: list[TokenReader] = []


def add_session_check(check: SessionCheck) -> None:
    if check not in _session_checks:
        _session_checks.append(check)


def add_token_reader(reader: TokenReader) -> None:
    if reader not in _token_readers:
        _token_readers.append(reader)


def checked_player(session: Any, player_id: str) -> str | None:
    """``player_id`` as the registered checks let it stand, or None."""
    value: str | None = player_id
    for check in _session_checks:
        if value is None:
            break
        value = check(session, value)
    return value


def token_holder(token: str | None) -> Holder | None:
    """Who a bearer token acts for (a personal token), or None (a seat's token, or unknown)."""
    if not token:
        return None
    for reader in _token_readers:
        if found := reader(token):
            return found
    return None

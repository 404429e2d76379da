"""What the analysis board is asked about: a game, its options, and a position given as
actions from the start or in the game's notation. Nothing here touches a stored game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import catalog
from games.engine import MoveError, OptionError
from games.formats.record_model import MAX_MOVE_LENGTH
from games.services.base import ServiceError

MAX_MOVES = 200  # far beyond any game of the catalog's boards


@dataclass(frozen=True)
class Position:
    kind: str
    options: dict[str, Any]
    moves: list[str]  # canonical actions from the start
    state: Any

    @property
    def spec(self) -> catalog.GameSpec:
        return catalog.get(self.kind)

    @property
    def notation(self) -> str | None:
        notation = self.spec.notation
        return notation.format(self.state) if notation else None


def refused_action(index: int, text: str, exc: MoveError) -> str:
    """An action the rules refuse, by its number and text, in the reader's language."""
    return _("Action %(number)d (%(text)s): %(reason)s") % {
        "number": index + 1,
        "text": text[:20],
        "reason": exc.said(_),
    }


def spec_of(kind: str) -> catalog.GameSpec:
    if kind not in catalog.CATALOG:
        words = _("There is no game %(kind)s; known: %(known)s.")
        raise ServiceError(
            "unknown_game", words % {"kind": repr(str(kind)[:40]), "known": ", ".join(catalog.CATALOG)}
        )
    return catalog.get(kind)


def resolve(
    kind: str,
    options: Mapping[str, Any] | None,
    moves: Sequence[str] | None = None,
    position: str | None = None,
) -> Position:
    """The position asked about, checked by the rules; 400s with a code and a sentence."""
    spec = spec_of(kind)
    try:
        clean = spec.rules.clean_options(options or {})
    except OptionError as exc:
        raise ServiceError(exc.code, exc.said(_)) from None
    if moves is not None and position is not None:
        words = _("Send the actions from the start or a position, not both.")
        raise ServiceError("moves_or_position", words)
    if position is not None:
        if spec.notation is None:
            words = _("%(title)s has no position notation: send the actions.") % {"title": spec.title}
            raise ServiceError("no_notation", words)
        try:
            moves = spec.notation.moves(spec.rules, position, clean)
        except MoveError as exc:
            raise ServiceError(exc.code, exc.said(_)) from None
    moves = list(moves or [])
    if len(moves) > MAX_MOVES:
        words = ngettext(
            "A position is at most %(count)d action from the start.",
            "A position is at most %(count)d actions from the start.",
            MAX_MOVES,
        )
        raise ServiceError("too_many_moves", words % {"count": MAX_MOVES})
    state = spec.rules.new_state(clean)
    canonical = []
    for index, text in enumerate(moves):
        if not isinstance(text, str) or len(text) > MAX_MOVE_LENGTH:
            words = _("Action %(number)d is not an action's text.") % {"number": index + 1}
            raise ServiceError("bad_notation", words)
        try:
            move = spec.rules.parse_move(text)
            state = state.play(move)
        except MoveError as exc:
            raise ServiceError(exc.code, refused_action(index, text, exc)) from None
        canonical.append(str(move))
    return Position(kind, clean, canonical, state)

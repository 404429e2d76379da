"""What the analysis board is asked about: a game, its options, and a position given as
actions from the start or in the game's notation. Nothing here touches a stored game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

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
    return gettext("Action %(number)s (%(action)s): %(reason)s") % {
        "number": index + 1,
        "action": text[:20],
        "reason": exc.said(gettext),
    }


def spec_of(kind: str) -> catalog.GameSpec:
    if kind not in catalog.CATALOG:
        raise ServiceError(
            "unknown_game", f"There is no game {str(kind)[:40]!r}; known: {', '.join(catalog.CATALOG)}."
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
        raise ServiceError(exc.code, exc.said(gettext)) from None
    if moves is not None and position is not None:
        raise ServiceError("moves_or_position", "Send the actions from the start or a position, not both.")
    if position is not None:
        if spec.notation is None:
            raise ServiceError("no_notation", f"{spec.title} has no position notation: send the actions.")
        try:
            moves = spec.notation.moves(spec.rules, position, clean)
        except MoveError as exc:
            raise ServiceError(exc.code, exc.said(gettext)) from None
    moves = list(moves or [])
    if len(moves) > MAX_MOVES:
        raise ServiceError("too_many_moves", f"A position is at most {MAX_MOVES} actions from the start.")
    state = spec.rules.new_state(clean)
    canonical = []
    for index, text in enumerate(moves):
        if not isinstance(text, str) or len(text) > MAX_MOVE_LENGTH:
            raise ServiceError("bad_notation", f"Action {index + 1} is not an action's text.")
        try:
            move = spec.rules.parse_move(text)
            state = state.play(move)
        except MoveError as exc:
            raise ServiceError(exc.code, refused_action(index, text, exc)) from None
        canonical.append(str(move))
    return Position(kind, clean, canonical, state)

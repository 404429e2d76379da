"""How Quixo's pushes are said: "pushed a1 in at e1"."""

from __future__ import annotations

from games.formats.action_words import ActionWords, TurnWords

from .rules import State, parse_move


def said(text: str) -> str:
    move = parse_move(text)
    take, end = str(move).split("-")
    return f"{take} in at {end}"


def review(before: State, text: str) -> str:
    return f"pushed {said(text)}"


def last(after: State, text: str, where: str) -> str:
    return f"pushed {said(text)}"


def turn(state: State) -> TurnWords:
    return TurnWords(
        yours="take a blank cube or one of yours from the edge, then the end to push it in from",
        thinking="which cube to push",
        others="push a cube",
    )


def terminal(text: str) -> str:
    return f"pushes {said(text)}"


def named(before: State, text: str) -> str:
    return said(text)


WORDS = ActionWords(review=review, last=last, turn=turn, terminal=terminal, named=named)

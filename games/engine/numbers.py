"""Whole numbers read from text a visitor wrote (an address, a form, a socket's query)."""

from __future__ import annotations


def whole_number(text: str, digits: int, signed: bool = False) -> int | None:
    """``text`` as an int when it is ASCII digits (after one "-" when ``signed``), at most
    ``digits`` of them; else None. Not ``str.isdigit()`` alone: "²" passes it and int()
    refuses it, and int() refuses more than 4,300 digits."""
    body = text[1:] if signed and text.startswith("-") else text
    if body.isascii() and body.isdigit() and len(body) <= digits:
        return int(text)
    return None

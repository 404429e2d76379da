"""Whole numbers from a visitor's text: ASCII digits only, and not too many."""

from __future__ import annotations

import pytest

from games.engine.numbers import whole_number


@pytest.mark.parametrize(
    ("text", "digits", "signed", "expected"),
    [
        ("7", 2, False, 7),
        ("007", 3, False, 7),
        ("-7", 2, True, -7),
        ("-7", 2, False, None),
        ("--7", 2, True, None),
        ("\u00b2", 2, False, None),  # str.isdigit() says yes, int() says no
        ("\u0667", 2, False, None),  # an Arabic-Indic seven: int() would take it
        ("", 2, False, None),
        ("-", 2, True, None),
        ("1e3", 4, False, None),
        ("NaN", 4, False, None),
        ("9" * 5000, 18, False, None),  # int() refuses over 4,300 digits
        ("123", 2, False, None),
    ],
)
def test_whole_number(text: str, digits: int, signed: bool, expected: int | None) -> None:
    assert whole_number(text, digits, signed) == expected

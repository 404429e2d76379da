"""A record may start from a position (the ``Position`` tag, JSON ``position``): reading it
puts the actions that reach that position before the record's own."""

from __future__ import annotations

import pytest

from games.formats import records

QUARTO_TEXT = """[Game "quarto"]
[Position "0a../..3./..../.... 5 1"]

1. b1 2. 7
"""


def test_a_text_record_from_a_position() -> None:
    record, state = records.load(QUARTO_TEXT)
    assert record.position == ""
    assert record.moves == ("3", "c3", "0", "a4", "10", "b4", "5", "b1", "7")
    assert state.in_hand == 7 and state.board[1] == 5
    # written again, it is a plain record from the start, read back the same
    assert records.load(records.format_text(record))[0].moves == record.moves


def test_a_json_record_from_a_position() -> None:
    record, state = records.load(
        '{"game": "tictactoe", "position": "x.o/.x./... o", "moves": ["a1", "c1"], "result": "1-0"}'
    )
    assert record.moves[-2:] == ("a1", "c1") and len(record.moves) == 5
    assert state.outcome is not None and state.outcome.winner == 0


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ('[Game "quarto"]\n[Position "nonsense"]\n\n1. b1\n', "line 2", "Cannot read"),
        ('[Game "quarto"]\n[Position "..../..../..../.... - 2"]\n', "line 2", "player 1 acts"),
        ('[Game "connect"]\n[Position "..."]\n', "line 2", "no position notation"),
        ('[Game "quarto"]\n[Position "0.../..../..../.... 5 1"]\n\n1. a4\n', "line 4", "already taken"),
        ('{"game": "quarto", "position": 5}', "position", "must be a text"),
    ],
)
def test_bad_positions_in_records(text: str, where: str, words: str) -> None:
    with pytest.raises(records.RecordError) as caught:
        records.load(text)
    assert caught.value.where == where and words in caught.value.reason

"""Game records as text and JSON: writing, reading, and refusing bad ones with a reason."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import Outcome
from games.formats import records
from games.formats.records import Record, RecordError

SECOND_WINS = ("8", "a1", "0", "a4", "9", "b1", "1", "b4", "10", "c1", "2", "c4", "11", "d1")
WON = Record(
    kind="quarto",
    options={"advanced": False},
    moves=SECOND_WINS,
    players=("Ann", "computer (casual)"),
    date="2026-11-22",
    result="0-1",
)


@pytest.mark.parametrize(
    ("outcome", "players", "text"),
    [
        (None, 2, "*"),
        (Outcome(winner=0), 2, "1-0"),
        (Outcome(winner=1), 2, "0-1"),
        (Outcome(winner=None), 2, "1/2-1/2"),
        (Outcome(winner=2), 3, "0-0-1"),
        (Outcome(winner=None), 3, "1/3-1/3-1/3"),
        (Outcome(winner=None), 4, "1/4-1/4-1/4-1/4"),
    ],
)
def test_result_gives_every_seat_its_score(outcome: Outcome | None, players: int, text: str) -> None:
    assert records.result_text(outcome, players) == text


def test_text_record_has_tags_then_numbered_actions() -> None:
    text = records.format_text(WON)
    assert text.splitlines()[:6] == [
        '[Game "quarto"]',
        '[Options "{\\"advanced\\": false}"]',
        '[Players "Ann; computer (casual)"]',
        '[Date "2026-11-22"]',
        '[Result "0-1"]',
        "",
    ]
    assert text.splitlines()[6:8] == ["1. 8", "2. a1"] and text.endswith("14. d1\n")


def test_text_and_json_round_trip() -> None:
    assert records.load(records.format_text(WON))[0] == WON
    assert records.load(json.dumps(records.to_json(WON)))[0] == WON
    assert records.to_json(WON)["format"] == records.FORMAT


def test_reading_is_lenient_about_layout_and_canonical_about_actions() -> None:
    text = '[Game "quarto"]\n[Site "a club"]\n\n; a comment\n1. 8 A1 0\n a4 ; note\n'
    record, state = records.load(text)
    assert record.moves == ("8", "a1", "0", "a4") and record.result == "*"
    assert record.options == {"advanced": False} and state.in_hand is None


DRAWN_TICTACTOE = "b2 a1 c1 a3 a2 c2 b1 b3 c3"


@pytest.mark.parametrize("tag", ["", '[Result "*"]\n', '[Result ""]\n'])
def test_a_missing_or_open_result_is_filled_in_from_the_actions(tag: str) -> None:
    record, state = records.load(f'[Game "tictactoe"]\n{tag}\n{DRAWN_TICTACTOE}\n')
    assert record.result == "1/2-1/2" and state.outcome.winner is None
    won, _ = records.load(record_with(result="*"))
    assert won.result == "0-1"


@pytest.mark.parametrize("result", [None, "*"])
def test_a_json_record_without_its_result_gets_it_from_the_actions(result: str | None) -> None:
    data = {k: v for k, v in records.to_json(WON).items() if k != "result"}
    if result is not None:
        data["result"] = result
    record, _ = records.load(json.dumps(data))
    assert record.result == "0-1"


@pytest.mark.parametrize("result", ["1-0", "0-1"])
def test_a_result_that_contradicts_the_actions_is_still_refused(result: str) -> None:
    text = f'[Game "tictactoe"]\n[Result "{result}"]\n\n{DRAWN_TICTACTOE}\n'
    message = f"line 2: the record says {result} but its actions end with 1/2-1/2"
    with pytest.raises(RecordError, match=message):
        records.load(text)


def test_names_cannot_break_the_players_tag() -> None:
    odd = Record("quarto", {}, (), players=('A "quoted"; name', "B"))
    record, _ = records.load(records.format_text(odd))
    assert record.players == ('A "quoted", name', "B")


def record_with(**changes: Any) -> str:
    return records.format_text(Record(**{**WON.__dict__, **changes}))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (record_with(moves=(*SECOND_WINS[:3], "a1")), "line 10: a1: a1 is already taken."),
        (record_with(moves=("8", "zz")), "line 8: zz: Cannot read 'zz'"),
        (record_with(moves=(*SECOND_WINS, "12")), "line 21: 12: The game is over"),
        (record_with(result="1-0"), "line 5: the record says 1-0 but its actions end with 0-1."),
        (record_with(moves=SECOND_WINS[:4]), "line 5: the record says 0-1 but its actions end with *."),
        (record_with(kind="chess"), "line 1: Unknown game 'chess'"),
        (record_with(options={"advanced": 5}), "line 2: advanced must be true or false."),
        (record_with(players=("a", "b", "c")), "line 3: 3 names for 2 seats."),
        ('[Game "quarto"]\n[Options "[1]"]\n', "line 2: the Options tag is not a JSON object."),
        ('[Game "quarto"]\n[Options "{nope"]\n', "line 2: the Options tag is not a JSON object."),
        ('[Game "quarto"]\n[Game "quarto"]\n', "line 2: the Game tag appears twice."),
        ('[Game "quarto"]\n1. 8\n[Result "*"]\n', "line 3: tags must come before the actions."),
        ("[Game quarto]\n", "line 1: a tag must look like"),
        ('[Game "quarto"]\n1. 8 3. a1\n', "line 2: the number 3. does not match: this is action 2."),
        ('[Game "quarto"]\n1. ' + "x" * 40 + "\n", "line 2: 'xxxxxxxxxxxxxxxxxxxx'... is too long"),
        ("1. 8\n", "line 1: the record has no [Game"),
        ("", "line 1: the record has no [Game"),
    ],
)
def test_bad_text_records_name_the_line_and_the_reason(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        records.load(text)
    assert str(caught.value).startswith(message), str(caught.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**records.to_json(WON), "moves": ["8", "a1", "0", "a1"]}, "move 4: a1: a1 is already taken."),
        ({**records.to_json(WON), "extra": 1}, "extra: unknown field"),
        ({**records.to_json(WON), "moves": "8 a1"}, "moves: must be a list of texts."),
        ({**records.to_json(WON), "moves": [8]}, "moves: must be a list of texts."),
        ({**records.to_json(WON), "options": []}, "options: must be an object."),
        ({**records.to_json(WON), "format": "pgn"}, "format: expected"),
        ({**records.to_json(WON), "result": 1}, "result: must be a text."),
        ({"moves": []}, "game: the record must name its game."),
        ({**records.to_json(WON), "result": "1-0"}, "result: the record says 1-0"),
    ],
)
def test_bad_json_records_name_the_field_or_move(data: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError) as caught:
        records.load(json.dumps(data))
    assert str(caught.value).startswith(message), str(caught.value)


def test_json_that_does_not_parse_is_refused() -> None:
    with pytest.raises(RecordError, match="record: not valid JSON"):
        records.load("{nope")
    with pytest.raises(RecordError, match="record: a JSON record is an object"):
        records.parse_json([])


DEEP = "[" * 3000 + "]" * 3000


@pytest.mark.parametrize(
    "text",
    [
        '{"game": "quarto", "options": ' + DEEP + "}",
        '{"game": "quarto", "moves": [], "x": ' + "{" * 3000 + "}" * 3000 + "}",
        '[Game "quarto"]\n[Options "' + DEEP + '"]\n\n1. 8\n',
        '[Game "quarto"]\n[Options "{\\"a\\": ' + DEEP + '}"]\n',
    ],
    ids=["json-options", "json-extra-field", "options-tag", "options-tag-in-object"],
)
def test_json_nested_thousands_deep_is_a_record_error_not_a_crash(text: str) -> None:
    with pytest.raises(RecordError) as caught:
        records.load(text)
    assert "nests deeper than" in str(caught.value) and "\n" not in str(caught.value)


def test_json_depth_skips_brackets_inside_strings() -> None:
    assert records.json_depth('{"a": "[[[[{{{{\\"[["}') == 1
    assert records.json_depth('{"a": [[1], {"b": []}]}') == 4
    assert records.loads_json('{"a": "' + "[" * 5000 + '"}', "record") == {"a": "[" * 5000}


def test_a_result_with_a_line_break_is_quoted_on_one_line() -> None:
    data = {"format": records.FORMAT, "game": "tictactoe", "result": "1-0\n", "moves": ["a1"]}
    with pytest.raises(records.RecordError) as refused:
        records.load(json.dumps(data))
    assert str(refused.value) == 'result: the record says "1-0\\n" but its actions end with *.'

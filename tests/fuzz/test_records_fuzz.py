"""hypothesis against the record reader: whatever the text or JSON, ``records.load``
returns a record or raises ``RecordError`` (a 400 from the API, a one-line command
error), never anything else; and every valid record survives a round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import catalog
from games.formats import records
from games.formats.records import Record, RecordError

from ..kinds import KINDS, option_variants
from .conftest import fuzz

pytestmark = pytest.mark.fuzz

OPTIONS = {kind: option_variants(kind) for kind in KINDS}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)


@st.composite
def valid_records(draw: st.DrawFn) -> Record:
    """A game played by random legal actions, stopped anywhere (finished or not)."""
    kind = draw(st.sampled_from(KINDS))
    rules = catalog.get(kind).rules
    options = rules.clean_options(draw(st.sampled_from(OPTIONS[kind])))
    state = rules.new_state(options)
    moves: list[str] = []
    length = draw(st.integers(0, 60))
    while len(moves) < length and not state.is_over():
        move = draw(st.sampled_from(list(state.legal_moves())))
        moves.append(str(move))
        state = state.play(move)
    names = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=12)
    players = draw(st.lists(names, max_size=state.num_players))
    return Record(
        kind=kind,
        options=options,
        moves=tuple(moves),
        players=tuple(" ".join(p.replace(";", ",").split()) for p in players),
        date=draw(st.sampled_from(["", "2026-11-22"])),
        result=records.result_text(state.outcome, state.num_players),
    )


def load_or_refuse(text: str) -> None:
    try:
        record, _ = records.load(text)
    except RecordError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    # What load accepts, it can write and read back unchanged.
    assert records.load(records.format_text(record))[0] == record
    assert records.load(json.dumps(records.to_json(record)))[0] == record


@fuzz(150)
@given(valid_records(), st.booleans())
def test_a_valid_record_round_trips_as_text_and_json(record: Record, as_json: bool) -> None:
    text = json.dumps(records.to_json(record)) if as_json else records.format_text(record)
    loaded, state = records.load(text)
    assert (loaded.kind, loaded.options, loaded.moves, loaded.date, loaded.result) == (
        record.kind,
        record.options,
        record.moves,
        record.date,
        record.result,
    )
    assert [p for p in loaded.players if p] == [p for p in record.players if p]
    assert records.result_text(state.outcome, state.num_players) == record.result
    # Read back, written again in either form, read again: the same record.
    assert records.load(records.format_text(loaded))[0] == loaded
    assert records.load(json.dumps(records.to_json(loaded)))[0] == loaded


@fuzz(300)
@given(st.text(max_size=400))
def test_arbitrary_text_is_read_or_refused(text: str) -> None:
    load_or_refuse(text)


@fuzz(200)
@given(json_values)
def test_arbitrary_json_is_read_or_refused(value: Any) -> None:
    load_or_refuse(json.dumps(value))
    load_or_refuse(json.dumps({"format": records.FORMAT, "game": "quarto", "options": value}))


@fuzz(150)
@given(st.sampled_from(KINDS), st.dictionaries(st.text(max_size=8), json_values, max_size=4))
def test_arbitrary_options_are_read_or_refused(kind: str, options: dict[str, Any]) -> None:
    load_or_refuse(json.dumps({"game": kind, "options": options}))
    quoted = json.dumps(options).replace("\\", "\\\\").replace('"', '\\"')
    load_or_refuse(f'[Game "{kind}"]\n[Options "{quoted}"]\n')


@st.composite
def mutated_text(draw: st.DrawFn) -> str:
    """A valid text record with a few random edits: characters and lines cut, copied,
    swapped or inserted."""
    text = records.format_text(draw(valid_records()))
    for _ in range(draw(st.integers(1, 4))):
        lines = text.splitlines(keepends=True)
        edit = draw(st.sampled_from(["insert", "delete", "replace", "line copy", "line swap", "line drop"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        if edit == "insert":
            text = text[:at] + draw(st.text(max_size=8)) + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 10)) :]
        elif edit == "replace":
            text = text[:at] + draw(st.sampled_from('[]"\\;{}. 0123456789abcdx\n')) + text[at + 1 :]
        elif lines:
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if edit == "line copy":
                lines.insert(j, lines[i])
            elif edit == "line swap":
                lines[i], lines[j] = lines[j], lines[i]
            else:
                del lines[i]
            text = "".join(lines)
    return text


@fuzz(250)
@given(mutated_text())
def test_a_mutated_text_record_is_read_or_refused(text: str) -> None:
    load_or_refuse(text)


@st.composite
def mutated_json(draw: st.DrawFn) -> str:
    """A valid JSON record with fields dropped, added, or given other values."""
    data: dict[str, Any] = records.to_json(draw(valid_records()))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from([*records.to_json(Record("x", {}, ())), "extra"]))
        edit = draw(st.sampled_from(["drop", "value", "moves"]))
        if edit == "drop":
            data.pop(key, None)
        elif edit == "value":
            data[key] = draw(json_values)
        elif data.get("moves") and isinstance(data["moves"], list):
            moves = data["moves"]
            i = draw(st.integers(0, len(moves) - 1))
            other = draw(st.text(max_size=20))
            moves[i] = draw(st.sampled_from([moves[0], moves[-1], "", "a9", "99", other]))
    text = json.dumps(data)
    if draw(st.booleans()):  # cut short
        text = text[: draw(st.integers(0, len(text)))]
    return text


@fuzz(250)
@given(mutated_json())
def test_a_mutated_json_record_is_read_or_refused(text: str) -> None:
    load_or_refuse(text)


@fuzz(30)
@given(st.integers(1, 5000), st.sampled_from(["[", '{"a":']), st.booleans())
def test_nesting_at_any_depth_is_read_or_refused(depth: int, opener: str, in_text: bool) -> None:
    closer = "]" if opener == "[" else "}"
    nested = opener * depth + "1" + closer * depth
    if in_text:
        load_or_refuse('[Game "quarto"]\n[Options "{\\"x\\": ' + nested.replace('"', '\\"') + '}"]\n')
    else:
        load_or_refuse('{"game": "quarto", "options": {"x": ' + nested + "}}")


# -- what the fuzzing found, kept as plain tests --------------------------------------


@pytest.mark.parametrize("record", [{"game": "quarto", "\n": 1}, {"game": "quarto", "moves": ["a\n1"]}])
def test_an_error_stays_on_one_line_whatever_the_record_holds(record: dict[str, Any]) -> None:
    with pytest.raises(RecordError) as caught:
        records.load(json.dumps(record))
    assert "\n" not in str(caught.value) and '"' in str(caught.value)


@pytest.mark.parametrize(("names", "read"), [([""], ()), (["a;b", " x  y "], ("a,b", "x y"))])
def test_player_names_read_from_json_are_as_the_writers_put_them(names: list[str], read: tuple[str]) -> None:
    loaded, _ = records.load(json.dumps({"game": "tictactoe", "players": names, "moves": ["b2"]}))
    assert loaded.players == read
    assert records.load(records.format_text(loaded))[0] == loaded

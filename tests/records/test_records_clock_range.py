"""A record's times left must fit what the site stores (each action's ``clock_ms``, a
32-bit integer on PostgreSQL): a time past ``clocks.MAX_LEFT_MS`` (500 hours) is a
400 ``bad_record`` with a sentence, or a one-line command error, and nothing is stored,
on SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client

from games import clocks
from games.formats import records
from games.models import Game, Move
from games.services import moves as services

pytestmark = pytest.mark.django_db

HEAD = '[Game "tictactoe"]\n[TimeControl "180+2"]\n\n'
TOO_LONG_TEXT = ["597:00:00", "500:00:00.1", "9999:59:59", "0:00:" + "9" * 400]
TOO_LONG_JSON = [2_147_483_648, 99_999_999_999_999_999_999, clocks.MAX_LEFT_MS + 1, 10**400]


def text_record(clk: str) -> str:
    return HEAD + f"1. b2 {{[%clk {clk}]}} 2. a1 {{[%clk 0:03:00]}}\n"


def json_record(times: list[int]) -> str:
    body = {"game": "tictactoe", "clock": {"initial": 180, "increment": 2}, "moves": ["b2", "a1"]}
    return json.dumps({**body, "clocks": times})


def import_api(client: Client, record: str, as_text: bool) -> tuple[int, dict[str, str]]:
    body = json.dumps(record) if as_text else record
    response = client.post("/api/v1/records", body, content_type="application/json")
    return response.status_code, response.json()


@pytest.mark.parametrize("clk", TOO_LONG_TEXT)
def test_a_clock_comment_past_the_limit_is_a_bad_record(client: Client, clk: str) -> None:
    status, answer = import_api(client, text_record(clk), as_text=True)
    assert status == 400 and answer["error"] == "bad_record", answer
    assert answer["detail"].startswith("line 4: ") and answer["detail"].endswith("."), answer
    assert not Game.objects.exists()


@pytest.mark.parametrize("first", TOO_LONG_JSON)
def test_json_clocks_past_the_limit_are_a_bad_record(client: Client, first: int) -> None:
    status, answer = import_api(client, json_record([first, 1]), as_text=False)
    assert status == 400 and answer == {
        "error": "bad_record",
        "detail": "clocks: must be a list of times left in ms (whole numbers from 0 to 1800000000, or null).",
    }
    assert not Game.objects.exists()


def test_the_limit_itself_is_kept(client: Client) -> None:
    status, answer = import_api(client, text_record("500:00:00"), as_text=True)
    assert status == 201, answer
    kept = Move.objects.values_list("clock_ms", flat=True).order_by("ply")
    assert list(kept) == [clocks.MAX_LEFT_MS, 180_000]


def test_the_import_service_refuses_a_time_past_the_limit_from_any_caller() -> None:
    record = records.Record(
        kind="tictactoe", options={}, moves=("b2",), clock={"initial": 180}, move_clocks=(2**31,)
    )
    with pytest.raises(services.ServiceError) as refused:
        services.import_record(record)
    assert refused.value.code == "bad_record" and "500 hours" in refused.value.message
    assert not Game.objects.exists()


@pytest.mark.parametrize("record", [text_record("597:00:00"), json_record([99_999_999_999_999_999_999, 1])])
def test_the_import_command_says_so_in_one_line(tmp_path: Path, record: str) -> None:
    path = tmp_path / "long.txt"
    path.write_text(record)
    with pytest.raises(CommandError) as refused:
        call_command("import_record", str(path))
    message = str(refused.value)
    assert "\n" not in message and message.startswith(f"{path}: ") and "Traceback" not in message
    assert not Game.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_long_clocks_are_a_bad_record_on_postgresql(client: Client) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL pointing at PostgreSQL")
    for record, as_text in ((text_record("597:00:00"), True), (json_record([2_147_483_648, 1]), False)):
        status, answer = import_api(client, record, as_text)
        assert status == 400 and answer["error"] == "bad_record", answer
    status, answer = import_api(client, text_record("500:00:00"), as_text=True)
    assert status == 201, answer
    assert Game.objects.count() == 1


@pytest.mark.parametrize("clk", ["\u0663:00:00", "0:\u0660\u0663:00", "0:03:\uff10\uff10", "0:03:00.\u0665"])
def test_a_clock_comment_in_other_digits_is_a_bad_record(client: Client, clk: str) -> None:
    """Digits of other scripts ("\u0663", Arabic-Indic three), which int() and float() read,
    are refused as the pages' clock fields refuse them: a clock reads h:mm:ss in ASCII."""
    status, answer = import_api(client, text_record(clk), as_text=True)
    assert status == 400 and answer["error"] == "bad_record", answer
    assert "a clock must read h:mm:ss" in answer["detail"], answer
    assert not Game.objects.exists()

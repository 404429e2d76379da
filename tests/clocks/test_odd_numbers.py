"""Odd numbers where a clock or a rating goes: NaN, infinities (Python's json reads
``NaN``, ``Infinity`` and ``1e400`` as floats), numbers past any limit, booleans and texts.
Every door refuses them with a 400 and its code (a sentence beside the field on the
pages, the input kept) and creates nothing; none is a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import services as accounts
from games import clocks
from games.models import Game
from lobby.models import PoolEntry, Seek

pytestmark = pytest.mark.django_db

# Raw JSON texts: json.dumps cannot write most of them the way an attacker sends them.
ODD = [
    '{"initial": NaN}',
    '{"initial": Infinity}',
    '{"initial": -Infinity}',
    '{"initial": 1e400}',
    '{"initial": -1e400}',
    '{"initial": ' + "1" + "0" * 400 + "}",
    '{"initial": -180}',
    '{"initial": true}',
    '{"initial": "180"}',
    '{"initial": 180.5}',
    '{"initial": 180, "increment": NaN}',
    '{"initial": 180, "increment": Infinity}',
    '{"initial": 180, "increment": 1e400}',
    '{"initial": 180, "increment": ' + "9" * 400 + "}",
    '{"days": NaN}',
    '{"days": Infinity}',
    '{"days": 1e400}',
    '{"days": ' + "9" * 400 + "}",
    '{"days": true}',
    '{"days": "3"}',
    '{"days": [3]}',
]

# Each door: its path and body (the clock goes in place of CLOCK), the code it answers.
DOORS = {
    "games": ("/api/v1/games", '{"game": "quarto", "opponent": "human", "clock": CLOCK}', "bad_clock"),
    "seeks": ("/api/v1/seeks", '{"game": "tictactoe", "clock": CLOCK}', "bad_clock"),
    "pairing": ("/api/v1/pairing", '{"game": "tictactoe", "clock": CLOCK}', "bad_clock"),
    "records": ("/api/v1/records", '{"game": "tictactoe", "moves": ["b2"], "clock": CLOCK}', "bad_record"),
}


def personal_token() -> str:
    account = accounts.account_of(User.objects.create_user("numbers", password="a-long-pass-phrase"))
    assert account is not None
    return accounts.create_token(account, "odd numbers")


def nothing_made() -> bool:
    return not (Game.objects.exists() or Seek.objects.exists() or PoolEntry.objects.exists())


@pytest.mark.parametrize("door", list(DOORS))
@pytest.mark.parametrize("clock", ODD)
def test_an_odd_clock_is_a_400_with_its_code_at_every_api_door(client: Client, door: str, clock: str) -> None:
    path, body, code = DOORS[door]
    headers = {"Authorization": f"Bearer {personal_token()}"} if door == "pairing" else {}
    response = client.post(
        path, body.replace("CLOCK", clock), content_type="application/json", headers=headers
    )
    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["error"] == code and answer["detail"].endswith("."), answer
    assert nothing_made()


@pytest.mark.parametrize(
    "value", [float("nan"), float("inf"), float("-inf"), 10**400, -(10**400), True, "180", None, [180]]
)
def test_the_one_clock_parser_refuses_odd_numbers_with_a_clock_error(value: Any) -> None:
    for clock in ({"initial": value}, {"initial": 180, "increment": value}, {"days": value}):
        with pytest.raises(clocks.ClockError) as refused:
            clocks.parse(clock)
        assert refused.value.code == "bad_clock" and refused.value.message.endswith(".")


@pytest.mark.parametrize(
    "label",
    ["inf+0", "nan+0", "-inf+0", "1e400+0", "infinity+2", "3+nan", "3+²", "²d", "1e400d", "9" * 5000 + "d"],
)
def test_a_clock_label_with_odd_numbers_is_a_clock_error(label: str) -> None:
    with pytest.raises(clocks.ClockError) as refused:
        clocks.parse_label(label)
    assert refused.value.code == "bad_clock"


# -- the pages ------------------------------------------------------------------


def home_form(**fields: str) -> dict[str, str]:
    return {"kind": "quarto", "opponent": "human", "seat": "first", "clock": "custom", **fields}


@pytest.mark.parametrize("minutes", ["inf", "-inf", "nan", "1e400", "infinity", "²", "9" * 400])
def test_the_new_game_form_refuses_odd_minutes_beside_the_clock(client: Client, minutes: str) -> None:
    response = client.post("/games/new", home_form(clock_minutes=minutes, clock_increment="2"))
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="quarto-clock-error"' in page and 'aria-invalid="true"' in page
    assert f'name="clock_minutes" value="{minutes}"' in page
    assert nothing_made()


@pytest.mark.parametrize("increment", ["inf", "nan", "²", "1e400", "9" * 400])
def test_the_new_game_form_refuses_odd_seconds_beside_the_clock(client: Client, increment: str) -> None:
    response = client.post("/games/new", home_form(clock_minutes="3", clock_increment=increment))
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="quarto-clock-error"' in page and f'name="clock_increment" value="{increment}"' in page
    assert nothing_made()


def seek_form(**fields: str) -> dict[str, str]:
    return {"game": "tictactoe", "clock": "3+2", "mode": "casual", "seat": "first", **fields}


@pytest.mark.parametrize("clock", ["inf+0", "nan+0", "1e400+0", "-inf+0", "3+inf", "²+0"])
def test_the_seek_form_refuses_an_odd_clock_beside_its_field(client: Client, clock: str) -> None:
    response = client.post("/lobby/seeks", seek_form(clock=clock))
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="seek-clock-error"' in page and 'name="clock" aria-invalid="true"' in page
    assert nothing_made()


@pytest.mark.parametrize("field", ["rating_min", "rating_max"])
@pytest.mark.parametrize("value", ["²", "١٢٠٠", "1e3", "-5", "4001", "9" * 5000, "nan"])
def test_the_seek_form_refuses_an_odd_rating_beside_it_with_the_input_kept(
    client: Client, field: str, value: str
) -> None:
    response = client.post("/lobby/seeks", seek_form(**{field: value}))
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="seek-rating-error"' in page
    assert f'name="{field}" min="0" max="4000" value="{value}" aria-invalid="true"' in page
    assert nothing_made()


@pytest.mark.parametrize("clock", ["inf+0", "nan+0", "1e400+0"])
def test_quick_pairing_refuses_an_odd_clock_with_a_message(client: Client, clock: str) -> None:
    response = client.post("/lobby/pairing", {"game": "tictactoe", "clock": clock}, follow=True)
    assert response.status_code == 200 and clocks.LABEL_HELP in response.content.decode()
    assert nothing_made()

"""The new-game form's time control: unlimited by default, a preset, a custom real-time
clock, days per move; a clock that cannot be played comes back beside the field with what
was typed, and starts no game."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db

FORM = {"kind": "tictactoe", "opponent": "human", "seat": "first", "allow_hints": "on"}


def card(html: str, kind: str) -> str:
    return html.split(f'class="card game-card game-card--{kind}"', 1)[1].split("</section>", 1)[0]


def created(client: Client, **fields: str) -> Game:
    response = client.post("/games/new", {**FORM, **fields})
    assert response.status_code in (302, 303), response.content.decode()[:500]
    return Game.objects.get()


def test_the_form_offers_unlimited_first_the_presets_custom_and_days(client: Client) -> None:
    form = card(client.get("/").content.decode(), "quarto")
    values = re.findall(r'<option value="([^"]*)"', form.split('name="clock"', 1)[1].split("</select>", 1)[0])
    assert values == [
        "unlimited",
        "1+0",
        "3+2",
        "5+3",
        "10+5",
        "15+10",
        "custom",
        *(f"{d}d" for d in (1, 2, 3, 5, 7, 14)),
    ]
    assert '<option value="unlimited" selected>Unlimited</option>' in form
    assert '<option value="3+2">3+2 (blitz)</option>' in form


@pytest.mark.parametrize(
    ("fields", "clock"),
    [
        ({}, {}),
        ({"clock": "unlimited"}, {}),
        ({"clock": "3+2"}, {"initial": 180, "increment": 2}),
        (
            {"clock": "custom", "clock_minutes": "0.25", "clock_increment": "0"},
            {"initial": 15, "increment": 0},
        ),
        (
            {"clock": "custom", "clock_minutes": "90", "clock_increment": "60"},
            {"initial": 5400, "increment": 60},
        ),
        ({"clock": "14d"}, {"days": 14}),
    ],
)
def test_the_chosen_time_control_is_the_games(
    client: Client, fields: dict[str, str], clock: dict[str, int]
) -> None:
    assert created(client, **fields).clock == clock


def test_against_the_computer_unlimited_is_the_default(client: Client) -> None:
    assert created(client, opponent="ai").clock == {}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"clock": "custom", "clock_minutes": "0.1", "clock_increment": "2"},
            "The initial time must be from 15 s to 3 hours (15 to 10800).",
        ),
        (
            {"clock": "custom", "clock_minutes": "5", "clock_increment": "61"},
            "The increment must be from 0 to 60 seconds.",
        ),
        (
            {"clock": "custom", "clock_minutes": "five", "clock_increment": "2"},
            "Give the custom clock's minutes (0.25 to 180) and seconds per move (0 to 60).",
        ),
        ({"clock": "4d"}, "Choose a time control from the list."),
        ({"clock": "2+1"}, "Choose a time control from the list."),
    ],
)
def test_a_clock_that_cannot_be_played_is_said_beside_the_field(
    client: Client, fields: dict[str, str], message: str
) -> None:
    response = client.post("/games/new", {**FORM, **fields})
    assert response.status_code == 400
    assert Game.objects.count() == 0
    form = card(response.content.decode(), "tictactoe")
    error = re.search(
        r'<span id="tictactoe-clock-error" class="new-game__error" role="alert">([^<]*)</span>', form
    )
    assert error and error.group(1) == message.replace("'", "&#x27;")
    assert re.search(r'name="clock" aria-invalid="true" aria-describedby="tictactoe-clock-error"', form)
    if "clock_minutes" in fields:
        assert '<option value="custom" selected>' in form
        assert f'name="clock_minutes" value="{fields["clock_minutes"]}"' in form
        assert f'name="clock_increment" value="{fields["clock_increment"]}"' in form
    assert "new-game__error" not in card(response.content.decode(), "quarto")

"""Records keep the clock: the time control as a TimeControl tag (or the JSON "clock"),
each action's time left as a [%clk] comment (or "clocks"), read back on import."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.formats import records
from games.models import Game
from games.services import clocks, timeouts
from games.services import moves as services
from games.services.moves import Actor, play_move

CROSS, NOUGHT = Actor(player_id="r-x"), Actor(player_id="r-o")

TIMED = """[Game "tictactoe"]
[Result "*"]
[TimeControl "180+2"]

1. b2 {[%clk 0:03:00]} 2. a1 {[%clk 0:03:00]}
3. c3 {[%clk 0:02:50.5]} 4. a3 ; no clock here
"""


# -- the format alone ------------------------------------------------------------


def test_a_text_record_reads_the_time_control_and_each_clock() -> None:
    record, _ = records.load(TIMED)
    assert record.clock == {"initial": 180, "increment": 2}
    assert record.move_clocks == (180_000, 180_000, 170_500, None)


def test_written_and_read_back_the_clocks_are_the_same() -> None:
    record, _ = records.load(TIMED)
    text = records.format_text(record)
    assert '[TimeControl "180+2"]' in text
    assert "3. c3 {[%clk 0:02:50.5]}" in text and "4. a3\n" in text
    assert records.load(text)[0] == record
    data = records.to_json(record)
    assert data["clock"] == {"initial": 180, "increment": 2}
    assert data["clocks"] == [180_000, 180_000, 170_500, None]
    assert records.load(json.dumps(data))[0] == record


@pytest.mark.parametrize(
    ("tag", "clock"),
    [("1/259200", {"days": 3}), ("3d", {"days": 3}), ("-", None), ("300", {"initial": 300, "increment": 0})],
)
def test_time_control_forms(tag: str, clock: dict[str, int] | None) -> None:
    record, _ = records.load(f'[Game "tictactoe"]\n[TimeControl "{tag}"]\n1. b2\n')
    assert record.clock == clock
    if clock is not None:
        assert records.load(records.format_text(record))[0].clock == clock


def test_correspondence_is_written_as_seconds_per_move() -> None:
    record = records.Record(kind="tictactoe", options={}, moves=("b2",), clock={"days": 3})
    assert '[TimeControl "1/259200"]' in records.format_text(record)


def test_an_untimed_record_has_no_clock_tag() -> None:
    record = records.Record(kind="tictactoe", options={}, moves=("b2",))
    assert "TimeControl" not in records.format_text(record) and "clock" not in records.to_json(record)


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ('[TimeControl "3+2+1"]\n1. b2', "line 2", "TimeControl must read like"),
        ('[TimeControl "fast"]\n1. b2', "line 2", "TimeControl must read like"),
        ('[TimeControl "10+2"]\n1. b2', "line 2", "initial time must be from 15 s"),
        ('[TimeControl "180+90"]\n1. b2', "line 2", "increment must be from 0 to 60"),
        ('[TimeControl "1/1000"]\n1. b2', "line 2", "whole days"),
        ('[TimeControl "4d"]\n1. b2', "line 2", "Days per move must be one of"),
        ("1. b2 {[%clk 1:2]}", "line 2", "a clock must read h:mm:ss"),
        ("1. b2 {[%clk 0:61:00]}", "line 2", "a clock must read h:mm:ss"),
        ("{[%clk 0:01:00]} 1. b2", "line 2", "must follow an action"),
        ("1. b2 {[%clk 0:01:00]} {[%clk 0:01:00]}", "line 2", "two clock comments"),
        ("1. b2 {[%clk 0:01:00]\n2. a1 }", "line 2", "must end with }"),
    ],
)
def test_a_bad_clock_in_a_text_record_is_refused_where_it_is(text: str, where: str, words: str) -> None:
    with pytest.raises(records.RecordError) as caught:
        records.load(f'[Game "tictactoe"]\n{text}\n')
    assert caught.value.where == where and words in caught.value.reason
    assert caught.value.reason.endswith(".")


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"clock": "3+2"}, "clock"),
        ({"clock": {"days": 4}}, "clock"),
        ({"clock": {"initial": 180}, "clocks": ["0:03:00"]}, "clocks"),
        ({"clock": {"initial": 180}, "clocks": [-1]}, "clocks"),
        ({"clock": {"initial": 180}, "clocks": [1, 2]}, "clocks"),
    ],
)
def test_a_bad_clock_in_a_json_record_is_refused(extra: dict[str, Any], where: str) -> None:
    with pytest.raises(records.RecordError) as caught:
        records.load(json.dumps({"game": "tictactoe", "moves": ["b2"], **extra}))
    assert caught.value.where == where and caught.value.reason


# -- through the site --------------------------------------------------------------


def timed_game(clock: dict[str, int]) -> Game:
    game = services.create_game(
        "tictactoe", {}, opponent="human", seat="first", player_id="r-x", clock=clock
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id="r-o")
    return Game.objects.get(pk=game.pk)


def play(game: Game, actor: Actor, text: str, think: float, fake_clock: Any) -> None:
    fake_clock.advance(think)
    play_move(game.pk, actor, text, Game.objects.get(pk=game.pk).ply)


def round_trip(client: Client, game: Game, fmt: str) -> Game:
    download = client.get(f"/api/v1/games/{game.pk}/record?format={fmt}").content.decode()
    body = download if fmt == "json" else json.dumps(download)
    response = client.post("/api/v1/records", body, content_type="application/json")
    assert response.status_code == 201, response.content
    return Game.objects.get(pk=response.json()["id"])


def clocks_of(game: Game) -> list[int | None]:
    return list(game.moves.order_by("ply").values_list("clock_ms", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_timed_game_exported_and_imported_keeps_its_clocks(
    client: Client, fake_clock: Any, fmt: str
) -> None:
    game = timed_game({"initial": 60, "increment": 2})
    for actor, text, think in [(CROSS, "b2", 3), (NOUGHT, "a1", 4), (CROSS, "c3", 7.3), (NOUGHT, "a3", 11)]:
        play(game, actor, text, think, fake_clock)
    assert clocks_of(game) == [60_000, 60_000, 54_700, 51_000]
    download = client.get(f"/api/v1/games/{game.pk}/record?format=text").content.decode()
    assert '[TimeControl "60+2"]' in download and "3. c3 {[%clk 0:00:54.7]}" in download
    imported = round_trip(client, game, fmt)
    assert imported.time_control.initial == 60 and imported.time_control.increment == 2
    assert clocks_of(imported) == clocks_of(game)
    assert imported.remaining == [54_700, 51_000]
    # Paused, as every import: played on untimed, never flagged.
    assert imported.time_control.paused and not clocks.running(imported) and imported.deadline is None
    state = client.get(f"/api/v1/games/{imported.pk}").json()
    assert state["clock"] == {"initial": 60, "increment": 2, "paused": True} and state["ticking"] is False


@pytest.mark.django_db
def test_a_correspondence_game_round_trips(client: Client, fake_clock: Any) -> None:
    game = timed_game({"days": 3})
    play(game, CROSS, "b2", 3600, fake_clock)
    play(game, NOUGHT, "a1", 7200, fake_clock)
    play(game, CROSS, "c3", 86_400, fake_clock)
    imported = round_trip(client, game, "text")
    assert imported.time_control.days == 3 and clocks_of(imported) == clocks_of(game)
    assert clocks_of(game)[2] == 2 * 86_400_000


@pytest.mark.django_db
def test_a_game_lost_on_time_is_imported_lost_on_time(client: Client, fake_clock: Any) -> None:
    game = timed_game({"initial": 15})
    play(game, CROSS, "b2", 1, fake_clock)
    play(game, NOUGHT, "a1", 1, fake_clock)
    fake_clock.advance(16)
    assert timeouts.sweep() == [game.pk]
    game.refresh_from_db()
    download = client.get(f"/api/v1/games/{game.pk}/record?format=text").content.decode()
    assert '[Termination "timeout"]' in download and '[Result "0-1"]' in download
    imported = round_trip(client, game, "text")
    assert imported.reason == Game.Reason.TIMEOUT and imported.winner == 1
    assert imported.result is not None and imported.result["timeout"] == 0
    assert imported.remaining[0] == 0


@pytest.mark.django_db
def test_a_game_aborted_for_no_first_move_is_imported_aborted(client: Client, fake_clock: Any) -> None:
    game = timed_game({"initial": 180, "increment": 2})
    play(game, CROSS, "b2", 1, fake_clock)
    fake_clock.advance(31)
    assert timeouts.sweep() == [game.pk]
    imported = round_trip(client, Game.objects.get(pk=game.pk), "json")
    assert imported.status == Game.Status.ABORTED and imported.reason == Game.Reason.NO_START
    assert imported.result is not None and imported.result["no_start"] == 1


@pytest.mark.django_db
def test_the_api_refuses_a_bad_clock_comment_and_imports_nothing(client: Client) -> None:
    before = Game.objects.count()
    text = '[Game "tictactoe"]\n1. b2 {[%clk 9:99:99]}\n'
    response = client.post("/api/v1/records", json.dumps(text), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_record" and "line 2" in response.json()["detail"]
    assert Game.objects.count() == before

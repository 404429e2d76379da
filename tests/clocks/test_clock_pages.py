"""The clocks on the game page: both seats' times, the side to move, the label, low time,
the first-move countdown, the endings' words, the no-JS refresh, and the partials that are
cached and pushed carrying only what does not change with the moment they were rendered."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.admin.sites import site
from django.test import Client

from games import clocks as clock_rules
from games.admin import GameAdmin
from games.models import Game
from games.presenting import clockface, downloads, presenters
from games.services import clocks, timeouts
from games.services import moves as services
from games.services.moves import Actor, play_move

pytestmark = pytest.mark.django_db

ONE, TWO = Actor(player_id="p-x"), Actor(player_id="p-o")


def people(clock: dict[str, Any] | None) -> Game:
    game = services.create_game(
        "tictactoe", {}, opponent="human", seat="first", player_id="p-x", clock=clock
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id="p-o")
    return Game.objects.get(pk=game.pk)


def move(game: Game, actor: Actor, text: str) -> Game:
    game.refresh_from_db()
    return play_move(game.pk, actor, text, game.ply)


def page(player_id: str | None, game: Game) -> str:
    client = Client()
    if player_id:
        session = client.session
        session["player_id"] = player_id
        session.save()
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def clocks_part(html: str) -> str:
    return html.split('id="clocks"', 1)[1].split('id="clock-alert"', 1)[0]


def faces(html: str) -> list[tuple[str, str, str]]:
    """Each clock face: (its classes, its who, its time)."""
    return re.findall(
        r'<li class="(clock[^"]*)"[^>]*><span class="clock__who">([^<]*)</span> '
        r'<span class="clock__time" role="timer">([^<]*)</span>',
        clocks_part(html),
    )


def test_a_game_without_a_clock_shows_none() -> None:
    html = page("p-x", people(None))
    assert "clock__time" not in html and 'class="clocks"' not in html


def test_before_a_first_move_the_clock_waits_and_the_page_says_how_long_is_left(fake_clock: Any) -> None:
    game = people({"initial": 180, "increment": 2})
    fake_clock.advance(12)
    html = page("p-x", game)
    part = clocks_part(html)
    assert '<p class="clocks__label">3+2 · casual</p>' in part
    assert faces(html) == [("clock is-to-move", "You (X)", "3:00"), ("clock", "Player 2 (O)", "3:00")]
    assert "data-ticking" not in part, "a first turn is not charged"
    assert ">18 s</span> to make a first move, or the game is aborted." in part
    assert "You have <span" in part
    assert "Player 1 (X) has <span" in page(None, game), "a spectator reads whose first move it is"


def test_the_full_page_shows_the_times_left_and_the_mover_ticking(fake_clock: Any) -> None:
    game = people({"initial": 180, "increment": 2})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    fake_clock.advance(10.5)
    game = move(game, ONE, "c3")  # 180 - 10.5 + 2
    fake_clock.advance(20)
    html = page("p-o", game)
    assert faces(html) == [("clock", "Player 1 (X)", "2:51"), ("clock is-to-move", "You (O)", "2:40")]
    part = clocks_part(html)
    assert re.search(r'data-seat="1" data-ms="180000" data-ticking', part)
    assert f'data-since="{clocks.ms(game.clock_since)}"' in part  # type: ignore[arg-type]
    assert f'data-server-now="{clocks.ms(fake_clock.now())}"' in html
    assert 'data-say-low="You have {} left."' in part


def test_the_pushed_partials_do_not_depend_on_when_they_are_rendered(fake_clock: Any) -> None:
    game = people({"initial": 60})
    move(game, ONE, "b2")
    game = move(game, TWO, "a1")
    before = presenters.render_partials(game, TWO)
    fake_clock.advance(25)
    assert presenters.render_partials(game, TWO) == before, "a cached rendering stays true"
    assert "data-server-now" not in before, "the server's moment comes only with the page"
    assert re.search(r'data-seat="0" data-ms="60000" data-ticking', before)


def test_low_time_is_marked(fake_clock: Any) -> None:
    game = people({"initial": 60})  # low under 10 s
    move(game, ONE, "b2")
    game = move(game, TWO, "a1")
    fake_clock.advance(50.5)
    assert faces(page("p-x", game))[0] == ("clock is-to-move is-low", "You (X)", "0:09.5")
    assert clockface.low_ms(game.time_control) == 10_000


@pytest.mark.parametrize(
    ("clock", "low"),
    [
        ({"initial": 60}, 10_000),
        ({"initial": 180, "increment": 2}, 18_000),
        ({"initial": 900, "increment": 10}, 60_000),
        ({"days": 1}, 6 * 3_600_000),
        ({"days": 3}, 12 * 3_600_000),
    ],
)
def test_what_low_time_is(clock: dict[str, int], low: int) -> None:
    assert clockface.low_ms(clock_rules.parse(clock)) == low


def test_correspondence_clocks_show_days_and_hours(fake_clock: Any) -> None:
    game = people({"days": 3})
    move(game, ONE, "b2")
    game = move(game, TWO, "a1")
    fake_clock.advance(5 * 3600)
    html = page(None, game)
    assert '<p class="clocks__label">3 days · casual</p>' in clocks_part(html)
    assert faces(html)[0] == ("clock is-to-move", "Player 1 (X)", "2d 19h")
    assert '<meta http-equiv="refresh" content="60">' in html


def test_without_javascript_the_page_reloads_while_a_clock_runs(fake_clock: Any) -> None:
    game = people({"initial": 60})
    assert '<meta http-equiv="refresh" content="10">' in page("p-x", game)
    fake_clock.advance(26.2)  # 3.8 s to the first move's deadline
    assert '<meta http-equiv="refresh" content="5">' in page("p-x", game)
    assert 'http-equiv="refresh"' not in page("p-x", people(None))


def test_a_timeout_is_said_from_each_side(fake_clock: Any) -> None:
    game = people({"initial": 60})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    fake_clock.advance(61)
    assert timeouts.sweep() == [game.pk]
    game.refresh_from_db()
    said = {who: re.search(r'status__text">([^<]*)<', page(who, game)) for who in ("p-x", "p-o", None)}
    assert {who: m.group(1) if m else "" for who, m in said.items()} == {
        "p-x": "You ran out of time: Player 2 (O) wins.",
        "p-o": "Player 1 (X) ran out of time: you win.",
        None: "Player 1 (X) ran out of time: Player 2 (O) wins.",
    }
    html = page("p-x", game)
    assert faces(html)[0] == ("clock is-low", "You (X)", "0:00.0")
    assert "data-ticking" not in clocks_part(html) and 'http-equiv="refresh"' not in html


def test_a_missed_first_move_aborts_and_is_said_so(fake_clock: Any) -> None:
    game = people({"initial": 60})
    fake_clock.advance(31)
    assert timeouts.sweep() == [game.pk]
    game.refresh_from_db()
    html = page("p-o", game)
    assert re.search(r'status__text">Aborted: Player 1 \(X\) made no first move\.<', html)
    assert "Reason:" not in html, "not a moderator's abort"
    assert re.search(r'status__text">Aborted: you made no first move\.<', page("p-x", game))


def test_a_shared_win_on_time_with_three_seats(fake_clock: Any) -> None:
    game = services.create_game(
        "connect",
        {"width": 5, "height": 4, "n": 3, "players": 3},
        opponent="human",
        seat="first",
        player_id="p-x",
        clock={"initial": 60},
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id="p-o")
    services.join_game(game.pk, invite=game.invite_code, player_id="p-z")
    for actor, column in ((ONE, "a"), (TWO, "b"), (Actor(player_id="p-z"), "c")):
        move(game, actor, column)
    fake_clock.advance(61)
    assert timeouts.sweep() == [game.pk]
    game.refresh_from_db()
    assert GameAdmin(Game, site).result_summary(game) == "seats 2, 3 share the win on time"
    texts = [re.search(r'status__text">([^<]*)<', page(who, game)) for who in ("p-x", "p-o")]
    assert [m.group(1) if m else "" for m in texts] == [
        "You ran out of time: the others share the win.",
        "Player 1 (X) ran out of time: you share the win.",
    ]


def ended_by_the_clock(fake_clock: Any) -> tuple[Game, Game]:
    """Two games a minute's clock ends: one lost on time after two moves, one with no first
    move (aborted); both refreshed."""
    lost = people({"initial": 60})
    move(lost, ONE, "b2")
    move(lost, TWO, "a1")
    unstarted = people({"initial": 60})
    fake_clock.advance(61)
    assert sorted(timeouts.sweep()) == [lost.pk, unstarted.pk]
    lost.refresh_from_db()
    unstarted.refresh_from_db()
    return lost, unstarted


def test_the_history_says_how_the_clock_ended_a_game(fake_clock: Any) -> None:
    ended_by_the_clock(fake_clock)
    client = Client()
    session = client.session
    session["player_id"] = "p-x"
    session.save()
    html = client.get("/games/history").content.decode()
    statuses = re.findall(r'data-label="Status">([^<]*)<', html)
    assert statuses[:2] == ["aborted: no first move", "you lost on time"]


def test_the_json_state_and_the_record_say_how_the_clock_ended_a_game(fake_clock: Any) -> None:
    lost, unstarted = ended_by_the_clock(fake_clock)
    data = downloads.game_json(lost)
    assert (data["status"], data["to_move"], data["legal_moves"], data["reason"]) == (
        "finished",
        None,
        [],
        "timeout",
    )
    assert data["result"] == {"winner": 1, "lines": [], "winners": [1], "timeout": 0}
    assert downloads.record_result(lost) == ("0-1", "timeout")
    assert downloads.game_json(unstarted)["result"]["no_start"] == 0
    assert downloads.record_result(unstarted) == ("*", "no_start")


def test_the_admin_list_says_a_game_was_won_on_time(fake_clock: Any) -> None:
    lost, unstarted = ended_by_the_clock(fake_clock)
    summary = GameAdmin(Game, site).result_summary
    assert summary(Game.objects.get(pk=lost.pk)) == "seat 2 won on time"
    assert summary(Game.objects.get(pk=unstarted.pk)) == "aborted: no first move"

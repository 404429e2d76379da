"""The server is the clock: every rule, with an injected clock (no test sleeps)."""

from __future__ import annotations

from typing import Any

import pytest

from games.clocks import DAY_MS
from games.models import Game, Move
from games.services import actions, clocks, timeouts
from games.services import moves as services
from games.services.moves import Actor, ServiceError, play_move

pytestmark = [pytest.mark.django_db, pytest.mark.backends]

ONE, TWO, THREE = Actor(player_id="p-x"), Actor(player_id="p-o"), Actor(player_id="p-z")


def people(clock: dict[str, Any], kind: str = "tictactoe", options: dict[str, Any] | None = None) -> Game:
    game = services.create_game(
        kind, options or {}, opponent="human", seat="first", player_id="p-x", clock=clock
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id="p-o")
    if game.seats.count() > 2:
        services.join_game(game.pk, invite=game.invite_code, player_id="p-z")
    return Game.objects.get(pk=game.pk)


def move(game: Game, actor: Actor, text: str) -> Game:
    game.refresh_from_db()
    return play_move(game.pk, actor, text, game.ply)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_the_clock_starts_when_every_seat_is_taken(fake_clock: Any) -> None:
    game = services.create_game(
        "tictactoe", {}, opponent="human", player_id="p-x", seat="first", clock={"initial": 60}
    ).game
    assert game.deadline is None and game.remaining == [], "waiting for a player: no clock yet"
    fake_clock.advance(500)
    services.join_game(game.pk, invite=game.invite_code, player_id="p-o")
    game = fresh(game)
    assert game.remaining == [60_000, 60_000]
    assert game.clock_since == fake_clock.now()
    assert (game.deadline - fake_clock.now()).total_seconds() == 30, "the first move's limit"


def test_increment_and_the_mover_charged_from_commit_times(fake_clock: Any) -> None:
    game = people({"initial": 60, "increment": 2})
    fake_clock.advance(20)
    move(game, ONE, "b2")  # first moves are not charged
    fake_clock.advance(25)
    move(game, TWO, "a1")
    assert fresh(game).remaining == [60_000, 60_000]
    fake_clock.advance(10.5)
    move(game, ONE, "c3")
    game = fresh(game)
    assert game.remaining == [51_500, 60_000], "60 - 10.5 + 2"
    assert Move.objects.get(game=game, ply=3).clock_ms == 51_500
    assert (game.deadline - fake_clock.now()).total_seconds() == 60, "O's whole time from now"
    fake_clock.advance(4)
    assert clocks.remaining_now(game) == [51_500, 56_000]


def test_a_move_after_the_flag_loses_on_time(fake_clock: Any) -> None:
    game = people({"initial": 60})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    fake_clock.advance(60.001)
    with pytest.raises(ServiceError) as refused:
        move(game, ONE, "c3")
    assert (refused.value.code, refused.value.status) == ("timeout", 409)
    game = fresh(game)
    assert (game.status, game.reason, game.winner) == (Game.Status.WON, Game.Reason.TIMEOUT, 1)
    assert (game.result or {})["timeout"] == 0 and game.remaining[0] == 0
    assert game.ply == 2 and game.deadline is None, "the late move is not played"


def test_a_move_on_the_last_millisecond_counts(fake_clock: Any) -> None:
    game = people({"initial": 60})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    fake_clock.advance(60)
    assert move(game, ONE, "c3").ply == 3
    assert fresh(game).remaining[0] == 0


def test_the_sweeper_flags_whoever_sends_nothing(fake_clock: Any) -> None:
    game = people({"initial": 60, "increment": 1})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    fake_clock.advance(30)
    move(game, ONE, "c3")
    fake_clock.advance(60)
    assert timeouts.sweep() == [], "O has exactly 60 s: not yet"
    fake_clock.advance(0.01)
    assert timeouts.sweep() == [game.pk]
    game = fresh(game)
    assert (game.status, game.reason, game.winner) == (Game.Status.WON, Game.Reason.TIMEOUT, 0)
    assert timeouts.sweep(fake_clock.advance(5)) == [], "once"
    with pytest.raises(ServiceError) as refused:
        move(game, TWO, "c1")
    assert refused.value.code == "game_over"


def test_no_first_move_aborts_instead_of_losing(fake_clock: Any, settings: Any) -> None:
    settings.CLOCK_FIRST_MOVE = 20
    game = people({"initial": 180, "increment": 2})
    fake_clock.advance(20.5)
    assert timeouts.sweep() == [game.pk]
    game = fresh(game)
    assert (game.status, game.reason, game.winner) == (Game.Status.ABORTED, Game.Reason.NO_START, None)
    assert (game.result or {})["no_start"] == 0
    second = people({"initial": 180})
    move(second, ONE, "b2")
    fake_clock.advance(21)
    with pytest.raises(ServiceError) as refused:
        move(second, TWO, "a1")
    assert refused.value.code == "timeout" and "aborted" in refused.value.message
    assert fresh(second).status == Game.Status.ABORTED


def test_correspondence_gives_days_per_move(fake_clock: Any) -> None:
    game = people({"days": 2})
    assert (fresh(game).deadline - fake_clock.now()).total_seconds() == 2 * 86_400
    move(game, ONE, "b2")
    fake_clock.advance(47 * 3600)
    move(game, TWO, "a1")
    fake_clock.advance(47 * 3600)
    move(game, ONE, "c3")
    game = fresh(game)
    assert game.remaining == [2 * DAY_MS - 47 * 3_600_000, 2 * DAY_MS], "O's turn starts with 2 days again"
    fake_clock.advance(48 * 3600)
    assert timeouts.sweep() == []
    fake_clock.advance(1)
    assert timeouts.sweep() == [game.pk]
    assert fresh(game).reason == Game.Reason.TIMEOUT and fresh(game).winner == 0


def test_a_quarto_turn_runs_from_receiving_a_piece_to_giving_one(fake_clock: Any) -> None:
    game = people({"initial": 60, "increment": 5}, kind="quarto")
    move(game, ONE, "8")  # seat 0's first turn: a give
    move(game, TWO, "a1")
    move(game, TWO, "0")  # seat 1's first turn: place and give
    fake_clock.advance(4)
    move(game, ONE, "a4")
    assert fresh(game).remaining == [56_000, 60_000], "no increment between placing and giving"
    fake_clock.advance(3)
    move(game, ONE, "9")
    assert fresh(game).remaining == [58_000, 60_000], "charged 7 s for the turn, then +5"


def test_takeback_charges_the_seat_to_move_and_restarts_the_turn(fake_clock: Any) -> None:
    game = people({"initial": 60})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    move(game, ONE, "c3")
    fake_clock.advance(10)
    game = actions.takeback(game.pk, ONE, True, 3)
    game = actions.takeback(game.pk, TWO, True, 3)
    game = fresh(game)
    assert game.ply == 2 and game.remaining[1] == 50_000
    assert game.clock_since == fake_clock.now()


def test_resigning_stops_the_clock(fake_clock: Any) -> None:
    game = people({"initial": 60})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    fake_clock.advance(12)
    actions.resign(game.pk, ONE, 2)
    game = fresh(game)
    assert game.remaining == [48_000, 60_000] and game.deadline is None
    assert timeouts.sweep(fake_clock.advance(100)) == []


def test_no_offer_once_time_has_run_out(fake_clock: Any) -> None:
    game = people({"initial": 60})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    fake_clock.advance(61)
    with pytest.raises(ServiceError) as refused:
        actions.resign(game.pk, TWO, 2)
    assert refused.value.code == "timeout"
    assert timeouts.sweep() == [game.pk] and fresh(game).winner == 1


def test_three_players_the_flagged_seat_loses_and_the_others_share(fake_clock: Any) -> None:
    game = people({"initial": 60}, kind="connect", options={"players": 3, "width": 5, "height": 5, "n": 4})
    move(game, ONE, "a1")
    move(game, TWO, "b1")
    move(game, THREE, "c1")
    fake_clock.advance(61)
    assert timeouts.sweep() == [game.pk]
    game = fresh(game)
    assert game.reason == Game.Reason.TIMEOUT and game.winner is None
    assert (game.result or {})["winners"] == [1, 2]


def test_unlimited_and_refused_clocks() -> None:
    game = people({})
    assert game.clock == {} and game.deadline is None
    for bad in ({"initial": 5}, {"days": 4}, {"initial": 60, "paused": True}):
        with pytest.raises(ServiceError) as refused:
            services.create_game("tictactoe", {}, opponent="human", player_id="p", clock=bad)
        assert (refused.value.code, refused.value.field) == ("bad_clock", "clock")
    assert Game.objects.count() == 1


def test_a_rematch_keeps_the_time_control(fake_clock: Any) -> None:
    game = people({"initial": 180, "increment": 2})
    move(game, ONE, "b2")
    move(game, TWO, "a1")
    actions.resign(game.pk, ONE, 2)
    actions.rematch(game.pk, ONE, True, 2)
    game = actions.rematch(game.pk, TWO, True, 2)
    rematch = fresh(game).rematch
    assert rematch is not None
    assert rematch.clock == {"initial": 180, "increment": 2} and rematch.remaining == [180_000, 180_000]
    assert rematch.deadline is not None


def test_the_computer_budget_comes_from_its_time(fake_clock: Any) -> None:
    game = services.create_game(
        "tictactoe", {}, opponent="ai", level="casual", seat="second", player_id="p", clock={"initial": 15}
    ).game
    game = fresh(game)
    assert clocks.think_time(game, 0.1, 0.2) == (0.1, 0.2), "15 s left: within its share"
    game.remaining = [3_000, 15_000]
    delay, budget = clocks.think_time(game, 1.0, 1.0)
    assert delay + budget <= 3.0 / 30 + 1e-9

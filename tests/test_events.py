"""The game-event stream: delivered after commit, to every subscriber, failures contained."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games import events
from games.events import GameEvent
from games.live import push
from games.runner import turns as ai_runner
from games.services import moves as services


@pytest.fixture
def seen() -> Iterator[list[GameEvent]]:
    got: list[GameEvent] = []
    events.subscribe(got.append)
    yield got
    events.unsubscribe(got.append)


def test_the_live_push_and_the_runner_are_subscribed_by_the_app() -> None:
    assert events.subscribers()[:2] == (push.on_game_event, ai_runner.on_game_event)


def test_a_failing_subscriber_is_logged_and_the_others_still_run(
    seen: list[GameEvent], caplog: pytest.LogCaptureFixture
) -> None:
    def broken(event: GameEvent) -> None:
        raise RuntimeError("down")

    events.subscribe(broken)
    try:
        events.deliver(GameEvent(1, 3, "moved"))
    finally:
        events.unsubscribe(broken)
    assert seen == [GameEvent(1, 3, "moved")]
    assert "subscriber" in caplog.text and "down" in caplog.text


def test_subscribing_twice_delivers_once(seen: list[GameEvent]) -> None:
    events.subscribe(seen.append)
    events.deliver(GameEvent(2, 0, "created"))
    assert seen == [GameEvent(2, 0, "created")]


@pytest.mark.django_db(transaction=True)
def test_a_move_is_published_once_after_commit(seen: list[GameEvent]) -> None:
    created = services.create_game("tictactoe", opponent="human", player_id="a")
    game = created.game
    services.join_game(game.pk, invite=game.invite_code, player_id="b")
    services.play_move(game.pk, services.Actor(player_id="a" if created.seat == 0 else "b"), "b2", 0)
    assert [(e.kind, e.ply) for e in seen] == [("created", 0), ("joined", 0), ("moved", 1)]

"""The single move path: seats, turns, plies, outcomes and the computer's reply."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from games.kinds.quarto import rules as quarto
from games.models import Game, Move
from games.services import moves as services
from games.services.moves import AI, Actor, ServiceError, play_move

from .helpers import ONE, SECOND_WINS, TWO, human_first_vs_ai, two_humans

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.backends]


def play_record(game: Game, texts: list[str]) -> Game:
    for text in texts:
        game.refresh_from_db()
        actor = ONE if game.state.to_move == 0 else TWO
        game = play_move(game.pk, actor, text, game.ply)
    return game


def test_create_game_seats_and_coin_toss() -> None:
    seen = set()
    for seed in range(20):
        created = services.create_game(
            "quarto", {}, opponent="ai", level="beginner", player_id="k", rng=random.Random(seed)
        )
        seats = created.game.seat_list
        assert [s.kind for s in seats].count("ai") == 1
        assert created.seat is not None and seats[created.seat].player_id == "k"
        seen.add(created.seat)
    assert seen == {0, 1}, "the coin toss gives either seat"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"kind": "chess"}, "bad_option"),
        ({"options": {"advanced": "perhaps"}}, "bad_option"),
        ({"options": {"colour": 1}}, "bad_option"),
        ({"level": "grandmaster"}, "bad_option"),
        ({"opponent": "dog"}, "bad_option"),
        ({"seat": "middle"}, "bad_option"),
    ],
)
def test_create_game_rejects_bad_choices(kwargs: dict[str, object], code: str) -> None:
    args: dict[str, object] = {
        "kind": "quarto",
        "options": {},
        "opponent": "ai",
        "level": "casual",
        "seat": "first",
    }
    args.update(kwargs)
    kind = args.pop("kind")
    options = args.pop("options")
    with pytest.raises(ServiceError) as info:
        services.create_game(kind, options, **args)  # type: ignore[arg-type]
    assert info.value.code == code
    assert Game.objects.count() == 0


def test_human_move_then_the_computer_replies() -> None:
    game = human_first_vs_ai()
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)
    game.refresh_from_db()
    # The computer placed piece 5 and gave a piece back: the human is to place.
    texts = list(game.moves.values_list("text", flat=True))
    assert texts[0] == "5" and len(texts) == 3
    assert game.ply == 3
    assert game.ai_due_at is None
    state = game.state
    assert isinstance(state, quarto.State)
    assert state.to_move == 0 and state.phase == "place"
    assert list(game.moves.values_list("seat", flat=True)) == [0, 1, 1]


def test_computer_starts_when_it_wins_the_toss() -> None:
    game = services.create_game(
        "quarto", {}, opponent="ai", level="casual", seat="second", player_id="h"
    ).game
    game.refresh_from_db()
    state = game.state
    assert isinstance(state, quarto.State)
    assert game.ply == 1 and state.to_move == 1 and state.phase == "place"


def test_seat_and_turn_checks() -> None:
    game = two_humans()
    with pytest.raises(ServiceError) as info:
        play_move(game.pk, TWO, "3", 0)
    assert (info.value.code, info.value.status) == ("not_your_turn", 403)
    with pytest.raises(ServiceError) as info:
        play_move(game.pk, Actor(player_id="stranger"), "3", 0)
    assert (info.value.code, info.value.status) == ("not_your_seat", 403)
    with pytest.raises(ServiceError) as info:
        play_move(game.pk, AI, "3", 0)
    assert info.value.code == "not_your_seat"
    with pytest.raises(ServiceError) as info:
        play_move(game.pk + 100, ONE, "3", 0)
    assert (info.value.code, info.value.status) == ("not_found", 404)
    assert Move.objects.count() == 0


@pytest.mark.parametrize(
    ("text", "code"),
    [("a1", "wrong_phase"), ("zz", "bad_notation"), ("99", "out_of_bounds"), ("", "bad_notation")],
)
def test_rule_errors_change_nothing(text: str, code: str) -> None:
    game = two_humans()
    with pytest.raises(ServiceError) as info:
        play_move(game.pk, ONE, text, 0)
    assert info.value.code == code and info.value.status == 400
    game.refresh_from_db()
    assert game.ply == 0 and Move.objects.count() == 0


def test_stale_and_repeated_submissions_apply_once() -> None:
    game = two_humans()
    play_move(game.pk, ONE, "3", 0)
    with pytest.raises(ServiceError) as info:
        play_move(game.pk, ONE, "3", 0)
    assert (info.value.code, info.value.status) == ("stale", 409)
    assert list(Move.objects.values_list("ply", "text")) == [(1, "3")]


def test_a_won_game_is_finished_and_refuses_moves() -> None:
    game = play_record(two_humans(), SECOND_WINS)
    game.refresh_from_db()
    assert game.status == Game.Status.WON and game.is_finished
    assert game.winner == 1
    assert game.result == {"winner": 1, "lines": [[0, 1, 2, 3]], "shared": ["short", "round"]}
    with pytest.raises(ServiceError) as info:
        play_move(game.pk, ONE, "12", game.ply)
    assert info.value.code == "game_over"


def test_waiting_game_refuses_moves_until_joined() -> None:
    game = services.create_game("quarto", {}, opponent="human", seat="first", player_id="s-one").game
    with pytest.raises(ServiceError) as info:
        play_move(game.pk, ONE, "3", 0)
    assert info.value.code == "waiting"
    seat, _ = services.join_game(game.pk, invite=game.invite_code, player_id="s-two")
    assert seat == 1
    with pytest.raises(ServiceError) as info:
        services.join_game(game.pk, invite=game.invite_code, player_id="s-three")
    assert info.value.code == "no_open_seat"
    play_move(game.pk, ONE, "3", 0)


def test_joining_needs_the_invite_code_and_a_wrong_one_changes_nothing() -> None:
    game = services.create_game("quarto", {}, opponent="human", seat="first", player_id="s-one").game
    for invite in (None, "", "wrong", game.invite_code[:-1], game.invite_code + "x"):
        with pytest.raises(ServiceError) as info:
            services.join_game(game.pk, invite=invite, player_id="s-two")
        assert (info.value.code, info.value.status) == ("bad_invite", 403)
    game.refresh_from_db()
    assert game.status == Game.Status.WAITING and game.seat_list[1].is_open


def test_token_holder_acts_for_its_seat() -> None:
    created = services.create_game("quarto", {}, opponent="human", seat="first", with_token=True)
    _, token = services.join_game(created.game.pk, invite=created.game.invite_code, with_token=True)
    assert created.token and token
    play_move(created.game.pk, Actor(token=created.token), "3", 0)
    with pytest.raises(ServiceError):
        play_move(created.game.pk, Actor(token="forged"), "a1", 1)
    play_move(created.game.pk, Actor(token=token), "a1", 1)


def test_concurrent_submissions_of_one_turn_apply_once() -> None:
    """Several threads send the same turn at once: exactly one is applied."""
    game = two_humans()
    results: list[str] = []
    barrier = threading.Barrier(4)

    def submit(text: str) -> None:
        barrier.wait()
        try:
            play_move(game.pk, ONE, text, 0)
            results.append("ok")
        except ServiceError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(t,)) for t in ("3", "4", "5", "6")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok", "stale", "stale", "stale"]
    assert Move.objects.filter(game=game).count() == 1

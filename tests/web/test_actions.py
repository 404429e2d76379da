"""Resign, draw offers, takebacks and rematches through the services, and their refusals."""

from __future__ import annotations

import pytest

from games.formats import records
from games.models import Game, Seat
from games.presenting import downloads
from games.services import actions, chat
from games.services import moves as services
from games.services.moves import Actor, ServiceError, play_move

from .helpers import ONE, TWO, two_humans

pytestmark = pytest.mark.django_db(transaction=True)

ME = Actor(player_id="me")
NOBODY = Actor(player_id="nobody")


def vs_computer(kind: str = "tictactoe", **options: object) -> Game:
    return services.create_game(
        kind, options, opponent="ai", level="beginner", seat="first", player_id="me"
    ).game


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def refused(code: str, action: object, *args: object) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        action(*args)  # type: ignore[operator]
    assert caught.value.code == code
    return caught.value


def unchanged(game: Game) -> tuple[object, ...]:
    game = fresh(game)
    return (game.status, game.ply, game.offers, game.reason, game.takebacks, game.rematch_id, game.move_texts)


# -- resign -------------------------------------------------------------------------


def test_resign_gives_the_opponent_the_win_and_says_why() -> None:
    game = two_humans()
    play_move(game.pk, ONE, "8", 0)
    game = actions.resign(game.pk, TWO, 1)
    game = fresh(game)
    assert (game.status, game.winner, game.reason) == (Game.Status.WON, 0, "resigned")
    assert game.result is not None and game.result["resigned"] == 1
    assert downloads.game_json(game)["reason"] == "resigned"
    record = downloads.game_record(game)
    assert (record.result, record.termination) == ("1-0", "resigned")
    assert '[Termination "resigned"]' in records.format_text(record)


def test_resign_refusals_change_nothing() -> None:
    game = two_humans()
    before = unchanged(game)
    refused("not_your_seat", actions.resign, game.pk, NOBODY, 0)
    refused("stale", actions.resign, game.pk, ONE, 3)
    assert unchanged(game) == before
    actions.resign(game.pk, ONE, 0)
    refused("game_over", actions.resign, game.pk, TWO, 0)  # a repeat applies once


def test_resign_with_three_players_lets_the_others_share() -> None:
    game = services.create_game(
        "connect", {"players": 3}, opponent="human", seat="first", player_id="s-one"
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id="s-two")
    services.join_game(game.pk, invite=game.invite_code, player_id="s-three")
    game = fresh(actions.resign(game.pk, TWO, 0))
    assert game.winner is None and game.result is not None and game.result["winners"] == [0, 2]
    assert downloads.game_record(game).result == "1/2-0-1/2"


def test_waiting_game_takes_no_action() -> None:
    game = services.create_game("quarto", {}, opponent="human", seat="first", player_id="s-one").game
    refused("waiting", actions.resign, game.pk, ONE, 0)


# -- draw -------------------------------------------------------------------------


def test_draw_offered_then_accepted() -> None:
    game = two_humans()
    game = actions.draw(game.pk, ONE, True, 0)
    assert fresh(game).offers["draw"]["seats"] == [0]
    refused("already_offered", actions.draw, game.pk, ONE, True, 0)
    game = fresh(actions.draw(game.pk, TWO, True, 0))
    assert (game.status, game.reason, game.winner, game.offers) == (Game.Status.DRAWN, "agreed", None, {})
    assert downloads.game_record(game).result == "1/2-1/2"
    refused("game_over", actions.draw, game.pk, TWO, True, 0)


def test_draw_declined_and_no_offer() -> None:
    game = two_humans()
    refused("no_offer", actions.draw, game.pk, TWO, False, 0)
    actions.draw(game.pk, ONE, True, 0)
    actions.draw(game.pk, TWO, False, 0)
    game = fresh(game)
    assert game.offers == {} and game.status == Game.Status.PLAYING
    # The offerer's "waiting for an answer" goes away: the chat says why, as the site.
    chat.set_name(game.pk, ONE, "Ann")
    actions.draw(game.pk, TWO, True, 0)
    actions.draw(game.pk, ONE, False, 0)
    said = [(line.seat, line.text) for line in fresh(game).chat_lines.all()]
    assert said == [(None, "Player 2 declined the draw offer."), (None, "Ann declined the draw offer.")]


def test_a_withdrawn_takeback_request_is_said_in_the_chat() -> None:
    game = two_humans()
    play_move(game.pk, ONE, "8", 0)
    actions.takeback(game.pk, ONE, True, 1)
    actions.takeback(game.pk, ONE, False, 1)
    assert [line.text for line in fresh(game).chat_lines.all()] == ["Player 1 withdrew the takeback request."]


def test_draw_offer_lapses_when_the_offerer_moves_again() -> None:
    game = two_humans()
    actions.draw(game.pk, ONE, True, 0)  # offered in seat 0's own turn: stands for seat 1's
    play_move(game.pk, ONE, "8", 0)
    assert "draw" in fresh(game).offers
    play_move(game.pk, TWO, "a1", 1)
    play_move(game.pk, TWO, "0", 2)
    assert "draw" in fresh(game).offers
    play_move(game.pk, ONE, "a4", 3)
    assert "draw" not in fresh(game).offers


def test_the_computer_declines_a_draw() -> None:
    game = vs_computer()
    error = refused("declined", actions.draw, game.pk, ME, True, 0)
    assert "computer" in error.message
    assert fresh(game).offers == {}


# -- takeback ---------------------------------------------------------------------


def test_takeback_against_the_computer_undoes_my_turn_and_its_reply() -> None:
    game = vs_computer()
    play_move(game.pk, ME, "a1", 0)  # the computer replies at once (inline runner)
    game = fresh(game)
    assert game.ply == 2
    game = fresh(actions.takeback(game.pk, ME, True, 2))
    assert (game.ply, game.move_texts, game.takebacks, game.ai_due_at) == (0, [], 1, None)
    refused("stale", actions.takeback, game.pk, ME, True, 2)  # a repeat applies once
    refused("not_allowed", actions.takeback, game.pk, ME, True, 0)  # nothing left to take back
    assert fresh(game).takebacks == 1


def test_takeback_in_quarto_undoes_the_whole_turn(no_ai_reply: None) -> None:
    game = vs_computer("quarto")
    play_move(game.pk, ME, "8", 0)
    play_move(game.pk, services.AI, "a1", 1)
    play_move(game.pk, services.AI, "0", 2)
    play_move(game.pk, ME, "b1", 3)
    play_move(game.pk, ME, "1", 4)
    play_move(game.pk, services.AI, "c1", 5)
    play_move(game.pk, services.AI, "2", 6)
    game = fresh(actions.takeback(game.pk, ME, True, 7))
    assert game.move_texts == ["8", "a1", "0"]


def test_takeback_refusals_against_the_computer(no_ai_reply: None) -> None:
    game = vs_computer()
    refused("not_allowed", actions.takeback, game.pk, ME, True, 0)
    play_move(game.pk, ME, "a1", 0)
    refused("not_your_turn", actions.takeback, game.pk, ME, True, 1)  # the computer is thinking
    refused("not_your_seat", actions.takeback, game.pk, NOBODY, True, 1)
    off = services.create_game(
        "tictactoe", {}, opponent="ai", seat="first", player_id="me", allow_takebacks=False
    ).game
    play_move(off.pk, ME, "a1", 0)
    play_move(off.pk, services.AI, "b2", 1)
    refused("not_allowed", actions.takeback, off.pk, ME, True, 2)


def test_takeback_between_people_needs_the_opponents_yes() -> None:
    game = two_humans()
    play_move(game.pk, ONE, "8", 0)
    play_move(game.pk, TWO, "a1", 1)
    actions.takeback(game.pk, ONE, True, 2)  # seat 0 asks while seat 1 is to give
    assert fresh(game).offers["takeback"]["seats"] == [0]
    actions.takeback(game.pk, TWO, False, 2)
    assert fresh(game).offers == {}
    actions.takeback(game.pk, ONE, True, 2)
    game = fresh(actions.takeback(game.pk, TWO, True, 2))
    assert (game.move_texts, game.takebacks, game.offers) == ([], 1, {})


def test_a_move_ends_a_takeback_request() -> None:
    game = two_humans()
    play_move(game.pk, ONE, "8", 0)
    actions.takeback(game.pk, ONE, True, 1)
    play_move(game.pk, TWO, "a1", 1)
    assert "takeback" not in fresh(game).offers
    refused("no_offer", actions.takeback, game.pk, TWO, False, 2)


# -- rematch -----------------------------------------------------------------------


def test_rematch_against_the_computer_at_once_with_seats_swapped() -> None:
    game = vs_computer()
    refused("not_over", actions.rematch, game.pk, ME, True, 0)
    actions.resign(game.pk, ME, 0)
    old = fresh(actions.rematch(game.pk, ME, True, 0))
    assert old.rematch is not None
    new = old.rematch
    assert [s.kind for s in new.seat_list] == [Seat.Kind.AI, Seat.Kind.HUMAN]
    assert new.seat_list[1].player_id == "me"
    assert (new.kind, new.options, new.ai_level, new.allow_hints) == (old.kind, old.options, "beginner", True)
    assert fresh(new).ply == 1  # the computer starts now, and has moved
    assert downloads.game_json(old)["rematch"] == new.pk
    refused("rematch_exists", actions.rematch, game.pk, ME, True, 0)


def test_rematch_between_people_keeps_tokens_and_swaps() -> None:
    created = services.create_game("quarto", {}, opponent="human", seat="first", with_token=True)
    game = created.game
    _, token_two = services.join_game(game.pk, invite=game.invite_code, with_token=True)
    one, two = Actor(token=created.token), Actor(token=token_two)
    actions.resign(game.pk, one, 0)
    refused("no_offer", actions.rematch, game.pk, two, False, 0)
    actions.rematch(game.pk, two, True, 0)
    assert fresh(game).offers["rematch"]["seats"] == [1]
    refused("not_your_seat", actions.rematch, game.pk, NOBODY, True, 0)
    new = fresh(actions.rematch(game.pk, one, True, 0)).rematch
    assert new is not None and new.status == Game.Status.PLAYING
    assert one.holds(new.seat_list[1]) and two.holds(new.seat_list[0])
    play_move(new.pk, two, "8", 0)


def test_rematch_declined() -> None:
    game = two_humans()
    actions.resign(game.pk, ONE, 0)
    actions.rematch(game.pk, ONE, True, 0)
    actions.rematch(game.pk, TWO, False, 0)
    game = fresh(game)
    assert game.offers == {} and game.rematch_id is None
    assert [line.text for line in game.chat_lines.all()] == ["Player 2 declined the rematch offer."]


# -- the revision every rendering carries -------------------------------------------


def test_every_change_a_page_shows_raises_the_revision_even_when_the_ply_goes_back() -> None:
    game = two_humans()
    seen = [fresh(game).revision]
    play_move(game.pk, ONE, "8", 0)
    seen.append(fresh(game).revision)
    play_move(game.pk, TWO, "a1", 1)
    seen.append(fresh(game).revision)
    actions.draw(game.pk, TWO, True, 2)  # an offer: same ply, another rendering
    seen.append(fresh(game).revision)
    actions.takeback(game.pk, ONE, True, 2)
    actions.takeback(game.pk, TWO, True, 2)  # the ply goes back
    after = fresh(game)
    seen.append(after.revision)
    assert after.ply < 2
    assert seen == sorted(set(seen)), f"revisions must only grow: {seen}"
    # A save of fields no page shows leaves it alone.
    after.ai_due_at = None
    after.save(update_fields=["ai_due_at"])
    assert fresh(game).revision == seen[-1]

"""Tournaments made, joined, withdrawn from, paired, scored and finished (service level)."""

from __future__ import annotations

import math
import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Game
from games.services import moves
from games.services.base import Actor, ServiceError
from tests.tournaments.helpers import BLITZ, draw, entry, later, seat_player, tournament, user, win
from tournaments import pairing, services
from tournaments.berserk import berserk
from tournaments.models import Entry, Pairing, Schedule, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"kind": "league"}, "bad_kind"),
        ({"game": "chess"}, "unknown_game"),
        ({"clock": None}, "bad_clock"),
        ({"clock": {"days": 3}}, "bad_clock"),
        ({"clock": {"initial": math.nan}}, "bad_clock"),
        ({"minutes": math.nan}, "bad_number"),
        ({"minutes": math.inf}, "bad_number"),
        ({"minutes": 10**30}, "out_of_range"),
        ({"minutes": 0}, "out_of_range"),
        ({"minutes": True}, "bad_number"),
        ({"minutes": "30"}, "bad_number"),
        ({"minutes": 2.5}, "bad_number"),
        ({"rounds": 3}, "bad_option"),
        ({"starts_in": -1}, "out_of_range"),
        ({"starts_in": 1e308}, "out_of_range"),
        ({"starts_in": 10, "starts_at": "2030-01-01T00:00:00Z"}, "bad_start"),
        ({"starts_at": "tomorrow"}, "bad_start"),
        ({"starts_at": "2030-01-01T00:00:00"}, "bad_start"),
        ({"starts_at": "2020-01-01T00:00:00Z"}, "bad_start"),
        ({"rated": "yes"}, "bad_option"),
        ({"name": "x" * 81}, "bad_name"),
    ],
)
def test_bad_input_is_refused_with_a_code_and_makes_nothing(fields: dict[str, Any], code: str) -> None:
    creator = user("maker")
    with pytest.raises(ServiceError) as refused:
        tournament(creator=creator, **fields)
    assert refused.value.code == code and refused.value.message
    assert not Tournament.objects.exists()


def test_a_swiss_needs_rounds_and_no_minutes() -> None:
    with pytest.raises(ServiceError) as refused:
        tournament("swiss", creator=user("maker"), minutes=30)
    assert refused.value.code == "bad_option"
    assert tournament("swiss", creator=user("other"), rounds=5).rounds == 5


def test_an_account_has_a_limit_and_staff_has_none(settings: object) -> None:
    maker = user("maker")
    for _ in range(3):
        tournament(creator=maker, starts_in=600)
    with pytest.raises(ServiceError) as refused:
        tournament(creator=maker, starts_in=600)
    assert refused.value.code == "too_many_tournaments" and refused.value.status == 409
    staff = User.objects.create_user("boss", is_staff=True)
    for _ in range(4):
        tournament(creator=staff)


def test_joining_twice_counts_once_and_withdrawal_then_join_comes_back() -> None:
    t = tournament()
    alice = user("alice")
    first = services.join(t.pk, alice)
    assert services.join(t.pk, alice).pk == first.pk
    assert t.entries.count() == 1
    assert services.withdraw(t.pk, alice).withdrawn
    assert not services.join(t.pk, alice).withdrawn
    assert t.entries.count() == 1


def test_anonymous_cannot_join() -> None:
    from django.contrib.auth.models import AnonymousUser

    t = tournament()
    with pytest.raises(ServiceError) as refused:
        services.join(t.pk, AnonymousUser())
    assert refused.value.code == "needs_account"


def test_an_arena_starts_pairs_free_players_scores_and_frees_them_at_once() -> None:
    t = tournament(rated=False)
    players = [user(name) for name in ("ann", "bob", "cid", "dan")]
    for p in players:
        services.join(t.pk, p)
    assert pairing.tick() == 2
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.ends_at is not None
    games = list(Pairing.objects.filter(tournament=t))
    assert len({g.game_id for g in games}) == 2
    for g in games:
        game = Game.objects.get(pk=g.game_id or 0)
        assert game.status == Game.Status.PLAYING and all(s.player_id for s in game.seat_list)
    first = games[0]
    win(first.game_id or 0, 0)
    winner, loser = Entry.objects.get(pk=first.first_id), Entry.objects.get(pk=first.second_id or 0)
    assert (winner.score, winner.streak, winner.game_id) == (2, 1, None)
    assert (loser.score, loser.game_id) == (0, None)
    draw(games[1].game_id or 0)
    assert sorted(Entry.objects.filter(tournament=t).values_list("score", flat=True)) == [0, 1, 1, 2]
    # All four are free again: the next wave pairs them, and nobody meets its last opponent.
    assert pairing.tick() == 2
    for p in Pairing.objects.filter(tournament=t, done=False):
        assert {p.first_id, p.second_id} not in ({first.first_id, first.second_id},)


def test_streaks_double_wins_and_the_sheet_keeps_each_game() -> None:
    t = tournament(rated=False)
    ann, bob = user("ann"), user("bob")
    services.join(t.pk, ann)
    services.join(t.pk, bob)
    for _ in range(4):
        assert pairing.tick() == 1  # two players alone may meet again
        game = entry(t, ann).game_id
        assert game is not None
        seat = next(
            s.index for s in Game.objects.get(pk=game).seat_list if s.player_id == entry(t, ann).player_id
        )
        win(game, seat)
    mine = entry(t, ann)
    assert mine.sheet == "2 2 4 4" and mine.score == 12 and mine.on_fire
    assert entry(t, bob).score == 0


def test_a_withdrawn_player_is_not_paired_and_an_arena_finishes_with_ranks() -> None:
    t = tournament(rated=False, minutes=1)
    ann, bob, cid = user("ann"), user("bob"), user("cid")
    for p in (ann, bob, cid):
        services.join(t.pk, p)
    services.withdraw(t.pk, cid)
    assert pairing.tick() == 1
    assert entry(t, cid).game_id is None
    game = entry(t, ann).game_id or 0
    seat = next(
        s.index for s in Game.objects.get(pk=game).seat_list if s.player_id == entry(t, ann).player_id
    )
    win(game, seat)
    assert pairing.tick(timezone.now() + timedelta(minutes=2)) == 0
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert [e.user.username for e in services.standings(t)] == ["ann", "bob", "cid"]
    assert entry(t, ann).rank == 1
    with pytest.raises(ServiceError) as refused:
        services.join(t.pk, user("late"))
    assert refused.value.code == "tournament_over"


def test_a_game_ending_after_the_arena_does_not_count() -> None:
    t = tournament(rated=False, minutes=1)
    ann, bob = user("ann"), user("bob")
    services.join(t.pk, ann)
    services.join(t.pk, bob)
    pairing.tick()
    pairing.tick(timezone.now() + timedelta(minutes=2))
    win(entry(t, ann).game_id or 0, 0)
    assert entry(t, ann).score == entry(t, bob).score == 0
    assert entry(t, ann).game_id is None


def test_a_rated_arena_game_is_rated_through_the_ratings() -> None:
    from ratings.models import Rating

    t = tournament(rated=True)
    ann, bob = user("ann"), user("bob")
    services.join(t.pk, ann)
    services.join(t.pk, bob)
    pairing.tick()
    game = Game.objects.get(pk=entry(t, ann).game_id or 0)
    assert game.rated
    # Both seats move once (a rated resignation before that is an abort), then one resigns.
    state = game.state
    for _ in range(2):
        mover = next(s.player_id for s in game.seat_list if s.index == state.to_move)
        move = sorted(state.legal_moves(), key=str)[0]
        game = moves.play_move(game.pk, Actor(player_id=mover), str(move), game.ply)
        state = game.state
    win(game.pk, 0)
    assert Rating.objects.filter(user__in=[ann, bob]).count() == 2
    assert entry(t, ann).score + entry(t, bob).score == 2


def test_an_upcoming_tournament_waits_for_its_start() -> None:
    t = tournament(starts_in=600)
    for name in ("ann", "bob"):
        services.join(t.pk, user(name))
    assert pairing.tick() == 0
    assert pairing.tick(later(601)) == 1


def test_a_swiss_of_five_over_three_rounds_with_a_bye() -> None:
    t = tournament("swiss", rounds=3, rated=False)
    players = [user(f"p{n}") for n in range(5)]
    for p in players:
        services.join(t.pk, p)
    rng = random.Random(5)
    for round_number in range(1, 4):
        assert pairing.tick() == 2
        t.refresh_from_db()
        assert t.round == round_number
        byes = Pairing.objects.filter(tournament=t, round=round_number, second__isnull=True)
        assert byes.count() == 1
        assert pairing.tick() == 0  # the round is not over: no new pairing
        for p in Pairing.objects.filter(tournament=t, round=round_number, second__isnull=False):
            if rng.random() < 0.3:
                draw(p.game_id or 0)
            else:
                win(p.game_id or 0, rng.randrange(2))
    assert pairing.tick() == 0
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    played = Pairing.objects.filter(tournament=t)
    met = [frozenset((p.first_id, p.second_id)) for p in played if p.second_id]
    assert len(met) == len(set(met)) == 6
    bye_players = [p.first_id for p in played if p.second_id is None]
    assert len(set(bye_players)) == 3
    total = sum(Entry.objects.filter(tournament=t).values_list("score", flat=True))
    assert total == 9 * 2  # six games and three byes, a point each (half points stored)
    ranks = sorted(rank or 0 for rank in Entry.objects.filter(tournament=t).values_list("rank", flat=True))
    assert ranks == [1, 2, 3, 4, 5]
    top = services.standings(t)[0]
    assert top.buchholz >= 0 and top.sheet


def test_a_schedule_makes_its_next_tournaments_once() -> None:
    now = timezone.now()
    Schedule.objects.create(
        name="Hourly Quarto 3+2 arena",
        game="quarto",
        clock=BLITZ,
        minutes=27,
        first_at=now - timedelta(hours=5),
        every_minutes=60,
        ahead_minutes=150,
    )
    pairing.from_schedules(now)
    pairing.from_schedules(now)
    made = Tournament.objects.order_by("starts_at")
    assert made.count() == 2
    assert all(t.starts_at > now and t.name == "Hourly Quarto 3+2 arena" for t in made)


def test_berserk_halves_the_clock_before_the_first_move_and_adds_a_point_to_a_win() -> None:
    t = tournament(rated=False)
    ann, bob = user("ann"), user("bob")
    services.join(t.pk, ann)
    services.join(t.pk, bob)
    with pytest.raises(ServiceError) as refused:
        berserk(t.pk, ann)
    assert refused.value.code == "not_playing"
    pairing.tick()
    mine = entry(t, ann)
    game = Game.objects.get(pk=mine.game_id or 0)
    seat = next(s.index for s in game.seat_list if s.player_id == mine.player_id)
    full = game.remaining[seat]
    berserk(t.pk, ann)
    berserk(t.pk, ann)  # once only
    game.refresh_from_db()
    assert game.remaining[seat] == full // 2 and game.remaining[1 - seat] == full
    win(game.pk, seat)
    assert entry(t, ann).score == 3 and entry(t, ann).sheet == "3"


def test_berserk_is_refused_after_ones_first_move() -> None:
    t = tournament(rated=False)
    ann, bob = user("ann"), user("bob")
    services.join(t.pk, ann)
    services.join(t.pk, bob)
    pairing.tick()
    game = Game.objects.get(pk=entry(t, ann).game_id or 0)
    first = next(u for u in (ann, bob) if entry(t, u).player_id == seat_player(game, 0))
    move = sorted(game.state.legal_moves(), key=str)[0]
    moves.play_move(game.pk, Actor(player_id=seat_player(game, 0)), str(move), game.ply)
    with pytest.raises(ServiceError) as refused:
        berserk(t.pk, first)
    assert refused.value.code == "too_late"

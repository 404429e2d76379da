"""The arena's pure rules: scoring with streaks and berserk, and the pairing wave."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.rules import arena
from tournaments.rules.arena import Free, score, wave


def test_a_win_a_draw_and_a_loss_score_two_one_and_nothing() -> None:
    assert score(0, "win") == arena.Scored(2, 1)
    assert score(0, "draw") == arena.Scored(1, 0)
    assert score(0, "loss") == arena.Scored(0, 0)


def test_after_two_wins_in_a_row_wins_count_double_until_a_game_is_not_won() -> None:
    streak, points = 0, []
    played: list[arena.Outcome] = ["win", "win", "win", "win", "draw", "win", "win", "win", "loss", "win"]
    for outcome in played:
        scored = score(streak, outcome)
        points.append(scored.points)
        streak = scored.streak
    assert points == [2, 2, 4, 4, 1, 2, 2, 4, 0, 2]
    assert arena.on_fire(2) and not arena.on_fire(1)


def test_berserk_adds_a_point_to_a_win_only() -> None:
    assert score(0, "win", berserk=True).points == 3
    assert score(2, "win", berserk=True).points == 5
    assert score(2, "draw", berserk=True).points == 1
    assert score(0, "loss", berserk=True).points == 0


def test_the_wave_pairs_nearest_score_then_rating() -> None:
    free = [Free(1, 10, 1500), Free(2, 0, 1500), Free(3, 9, 1400), Free(4, 0, 1900)]
    assert wave(free) == [(1, 3), (4, 2)]


def test_no_immediate_rematch_unless_allowed() -> None:
    free = [Free(1, 4, 1500, last_opponent=2), Free(2, 4, 1500, last_opponent=1)]
    assert wave(free) == []
    assert wave(free, allow_rematch=True) == [(1, 2)]
    three = [*free, Free(3, 0, 1200)]
    assert wave(three) == [(1, 3)]


def test_an_odd_player_waits() -> None:
    assert len(wave([Free(i, 0, 1500) for i in range(5)])) == 2


frees = st.lists(
    st.builds(
        Free,
        id=st.integers(0, 40),
        score=st.integers(0, 60),
        rating=st.floats(600, 2800),
        last_opponent=st.none() | st.integers(0, 40),
    ),
    max_size=40,
)


@given(frees)
def test_no_player_is_paired_twice_in_a_wave_nor_with_itself(free: list[Free]) -> None:
    pairs = wave(free)
    seen = [player for pair in pairs for player in pair]
    assert len(seen) == len(set(seen))
    assert all(a != b for a, b in pairs)
    last = {p.id: p.last_opponent for p in free}
    for a, b in pairs:
        assert (
            last[a] != b
            or last[b] != a
            or not any(  # a rematch only between players whose
                p.id == a and p.last_opponent == b
                for p in free  # record says otherwise elsewhere
            )
        )


@given(frees)
def test_the_wave_leaves_at_most_one_player_who_could_have_met_another(free: list[Free]) -> None:
    """With rematches allowed, everyone but an odd one out is paired."""
    distinct = {p.id: p for p in free}
    pairs = wave(list(distinct.values()), allow_rematch=True)
    assert len(pairs) == len(distinct) // 2

"""The Swiss pairing (a small Dutch system) and its tie-breaks, against published examples."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.rules.swiss import Game, Player, pair_round, scores, tie_breaks


def fresh(count: int) -> list[Player]:
    return [Player(id=n, number=n) for n in range(1, count + 1)]


def test_round_one_of_eight_is_top_half_against_bottom_half_seats_alternating() -> None:
    # FIDE C.04.3 round 1 with the first seat drawn for player 1: 1-5, 6-2, 3-7, 8-4.
    assert pair_round(fresh(8)).pairs == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_one_of_five_gives_the_bye_to_the_lowest() -> None:
    played = pair_round(fresh(5))
    assert played.bye == 5
    assert played.pairs == [(1, 3), (4, 2)]


def after(players: list[Player], games: list[Game]) -> list[Player]:
    """The players with the scores, opponents and seats the games give them."""
    total = scores(games)
    out = []
    for p in players:
        firsts = sum(1 for g in games if g.first == p.id and g.second is not None)
        seconds = sum(1 for g in games if g.second == p.id)
        opponents = {g.second for g in games if g.first == p.id and g.second is not None}
        opponents |= {g.first for g in games if g.second == p.id}
        last = None
        for g in games:
            if g.second is not None and p.id in (g.first, g.second):
                last = 0 if g.first == p.id else 1
        out.append(
            Player(
                id=p.id,
                number=p.number,
                score=total.get(p.id, 0),
                opponents=frozenset(o for o in opponents if o is not None),
                firsts=firsts,
                seconds=seconds,
                last_seat=last,
                had_bye=any(g.first == p.id and g.second is None for g in games),
            )
        )
    return out


def test_round_two_pairs_within_score_groups_and_alternates_seats() -> None:
    # Round 1 (1-5, 6-2, 3-7, 8-4), the higher ranked won every game: the winners
    # {1, 2, 3, 4} meet 1-3 and 2-4, the others 5-7 and 6-8. 1 and 3 both sat first: the
    # higher ranked alternates (3-1); 2 and 4 both sat second: 2 alternates (2-4).
    games = [Game(1, 5, 2), Game(6, 2, 0), Game(3, 7, 2), Game(8, 4, 0)]
    pairs = pair_round(after(fresh(8), games)).pairs
    assert {frozenset(p) for p in pairs} == {frozenset(p) for p in [(1, 3), (2, 4), (5, 7), (6, 8)]}
    assert pairs == [(3, 1), (2, 4), (5, 7), (8, 6)]


def test_a_pair_that_met_is_transposed_away() -> None:
    # All drawn: one group, S1 {1, 2} against S2 {3, 4}; 1-3 met, so S2 is transposed
    # to {4, 3}: 1-4 and 2-3, before any exchange between the halves.
    players = after(fresh(4), [Game(1, 3, 1), Game(4, 2, 1)])
    pairs = pair_round(players).pairs
    assert {frozenset(p) for p in pairs} == {frozenset((1, 4)), frozenset((2, 3))}


def test_a_swiss_of_five_over_three_rounds_gives_three_byes_and_no_rematch() -> None:
    players, games = fresh(5), list[Game]()
    byes = []
    for _ in range(3):
        current = pair_round(after(players, games))
        assert current.bye is not None
        byes.append(current.bye)
        games.append(Game(current.bye, None, 0))
        for first, second in current.pairs:
            games.append(Game(first, second, 2 if first < second else 0))  # the stronger wins
    assert len(set(byes)) == 3
    met = [frozenset((g.first, g.second)) for g in games if g.second is not None]
    assert len(met) == len(set(met)) == 6
    assert sum(scores(games).values()) == 9 * 2  # six games and three byes, a win each


def test_buchholz_and_sonneborn_berger() -> None:
    # 1 beat 2, drew 3; 2 beat 3; 3 had a bye.
    games = [Game(1, 2, 2), Game(3, 1, 1), Game(2, 3, 2), Game(3, None, 0)]
    assert scores(games) == {1: 3, 2: 2, 3: 3}
    breaks = tie_breaks(games)
    assert breaks[1] == (2 + 3, 2 * 2 + 3 * 1)  # Buchholz 2.5; SB 2 + 1.5 = 3.5 (x4: 14)
    assert breaks[3] == (3 + 2, 3 * 1)
    assert breaks[2] == (3 + 3, 3 * 2)


outcomes = st.lists(st.sampled_from([0, 1, 2]), min_size=40, max_size=40)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 11), st.integers(1, 5), outcomes)
def test_rounds_never_pair_twice_nor_pair_anyone_twice(count: int, rounds: int, results: list[int]) -> None:
    players, games = fresh(count), list[Game]()
    draw = iter(results * 10)
    for _ in range(min(rounds, count - 1)):
        current = pair_round(after(players, games))
        seated = [p for pair in current.pairs for p in pair] + ([current.bye] if current.bye else [])
        assert len(seated) == len(set(seated))
        if current.pairs:
            assert sorted(seated) == list(range(1, count + 1))
        if current.bye:
            games.append(Game(current.bye, None, 0))
        games += [Game(a, b, next(draw)) for a, b in current.pairs]
    met = [frozenset((g.first, g.second)) for g in games if g.second is not None]
    assert len(met) == len(set(met))
    for p in after(players, games):
        assert abs(p.firsts - p.seconds) <= 2

"""Glicko-2 against Glickman's worked example and against the ``glicko2`` library."""

from __future__ import annotations

import random

import pytest
from glicko2 import glicko2 as library

from ratings.glicko2 import Rating, Result, game, rate


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system", section 3: 1500/200/0.06 against three opponents, tau 0.5.
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    after = rate(player, results, tau=0.5, clamp=False)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def _library(player: Rating, results: list[Result], tau: float) -> tuple[float, float]:
    library.Player._tau = tau
    theirs = library.Player(player.rating, player.rd, player.volatility)
    theirs.update_player(
        [r.opponent.rating for r in results], [r.opponent.rd for r in results], [r.score for r in results]
    )
    return theirs.rating, theirs.rd


@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_the_library(seed: int) -> None:
    rng = random.Random(seed)
    player = Rating(rng.uniform(900, 2300), rng.uniform(45, 350), 0.06)
    results = [
        Result(Rating(rng.uniform(900, 2300), rng.uniform(45, 350)), rng.choice((0, 0.5, 1)))
        for _ in range(rng.randint(1, 5))
    ]
    mine = rate(player, results, tau=0.5, clamp=False)
    rating, rd = _library(player, results, 0.5)
    # The library's volatility step uses the rating where the paper has the deviation
    # (glicko2 2.1.0, ``_f``); the volatility barely moves, so ratings agree closely.
    assert mine.rating == pytest.approx(rating, abs=0.5)
    assert mine.rd == pytest.approx(rd, abs=0.5)


def test_a_game_moves_both_players_and_new_players_move_most() -> None:
    new, settled = Rating(), Rating(1500, 60)
    winner, loser = game(new, settled, 1)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 > 1500 - loser.rating, "the provisional player moves more"
    assert new.provisional and not settled.provisional
    drawn, _ = game(Rating(1500, 60), Rating(1500, 60), 0.5)
    assert drawn.rating == pytest.approx(1500, abs=0.01)


def test_deviation_grows_without_games_and_stays_in_bounds() -> None:
    idle = rate(Rating(1500, 100, 0.06), [])
    assert idle.rating == 1500 and idle.rd > 100
    assert rate(Rating(1500, 500), []).rd == 500
    after_many = Rating(1500, 500)
    for _ in range(200):
        after_many = rate(after_many, [Result(Rating(1500, 45), 0.5)])
    assert 45 <= after_many.rd < 110 and not after_many.provisional

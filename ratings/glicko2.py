"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): pure arithmetic.

Each rated game is a rating period of one game for each player, as lichess rates: the
player's rating, deviation (RD) and volatility move after every game. Ratings are on the
Glicko scale (1500 ± 173.7178 per unit of the Glicko-2 scale). New players start at
1500, RD 500 (lichess); a rating is provisional while its RD is above 110.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178
START_RATING = 1500.0
START_RD = 500.0
START_VOLATILITY = 0.06
PROVISIONAL_RD = 110.0
MAX_CHANGE = 700.0  # lichess's bound on what one game may move a rating (Glicko.maxRatingDelta)
MIN_RD, MAX_RD = 45.0, 500.0  # lichess keeps the deviation within these
TAU = 0.75  # how fast volatility may change (lichess's choice; the paper suggests 0.3-1.2)
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


@dataclass(frozen=True)
class Result:
    """One game against ``opponent``: ``score`` 1 for a win, 0.5 for a draw, 0 for a loss."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, results: Iterable[Result], tau: float = TAU, clamp: bool = True) -> Rating:
    """The player's rating after one rating period with ``results`` (none: only the RD
    grows). ``clamp`` keeps the RD within lichess's bounds and the rating within
    ``MAX_CHANGE`` of where it was; the paper's example has neither."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    games = [(((r.opponent.rating - START_RATING) / SCALE), r.opponent.rd / SCALE, r.score) for r in results]
    if not games:
        new_phi = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, _bounded(new_phi * SCALE, clamp), sigma)
    v = 1 / sum(_g(phi_j) ** 2 * (e := _expected(mu, mu_j, phi_j)) * (1 - e) for mu_j, phi_j, _ in games)
    improvement = sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in games)
    new_sigma = _volatility(phi, sigma, v * improvement, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * improvement
    new_rating = new_mu * SCALE + START_RATING
    if clamp:  # as lichess bounds one game: the rating moves at most MAX_CHANGE either way
        new_rating = min(player.rating + MAX_CHANGE, max(player.rating - MAX_CHANGE, new_rating))
    return Rating(new_rating, _bounded(new_phi * SCALE, clamp), new_sigma)


def _bounded(rd: float, clamp: bool) -> float:
    return min(MAX_RD, max(MIN_RD, rd)) if clamp else rd


def game(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players after one game between them (``score`` is the first player's)."""
    return rate(first, [Result(second, score)]), rate(second, [Result(first, 1 - score)])


def points(value: float) -> int:
    """A rating as shown, in whole points, halves rounded up: the one rounding every page,
    chart and API answer uses (a change is ``points(after) - points(before)``)."""
    return math.floor(value + 0.5)

"""Swiss rules: a round's pairings by a small Dutch system, and the tie-breaks.

Scores are counted in half points (a win 2, a draw 1, a loss 0) so they stay integers;
the pages show them halved. Players carry a pairing number (their rank by rating when the
event started: 1 is the strongest).

A round, as FIDE's Dutch system (C.04.3) in its main lines:

* Players are ranked by score, then pairing number, and split into score groups.
* With an odd count, the lowest-ranked player who has had no bye gets it (and a win),
  provided the others can still all be paired.
* Each group (with the players floated down from the group above first) is cut in two
  halves, S1 and S2, and S1's first meets S2's first, and so on; when a pair has met
  before, S2 is transposed (in lexicographic order, as the Dutch system tries them) until
  no pair has. A group that cannot be paired so sends its last players down to the next
  group; a pairing is kept only if everyone below can still be paired.
* Seats: the player who has had the first seat less often gets it; when even, the one
  whose last game was in the second seat; when still even, the higher ranked alternates
  from their own last seat (board by board in the first round).

* Seat balance is also a rule: two players who both must have the same seat (two games
  more in the other) do not meet, unless no round can be paired otherwise.

Not covered (a small pairing): float histories across rounds, the
absolute colour limits and the later-round quality criteria of the full FIDE rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

WIN, DRAW, LOSS = 2, 1, 0
BYE = WIN


@dataclass(frozen=True)
class Player:
    id: int
    number: int  # pairing number: 1 is the highest rated
    score: int = 0  # half points
    opponents: frozenset[int] = frozenset()
    firsts: int = 0  # games in the first seat
    seconds: int = 0  # games in the second seat
    last_seat: int | None = None
    had_bye: bool = False


@dataclass(frozen=True)
class Round:
    pairs: list[tuple[int, int]]  # (first seat, second seat)
    bye: int | None = None


@dataclass
class _Search:
    """Backtracking state: the pairs met before, by id."""

    met: dict[int, frozenset[int]] = field(default_factory=dict)
    # Seat balance as an absolute rule: two players who both must have the same seat (two
    # games more in the other one) do not meet. Relaxed only when no round pairs with it.
    strict: bool = True

    def may_meet(self, a: Player, b: Player) -> bool:
        if a.id == b.id or b.id in self.met.get(a.id, frozenset()):
            return False
        return not (self.strict and must_sit(a) is not None and must_sit(a) == must_sit(b))

    def pairable(self, players: Sequence[Player]) -> bool:
        """Whether ``players`` can all be paired with no pair twice (a perfect matching)."""
        return self._pairable(tuple(sorted(players, key=lambda p: p.id)), {})

    def _pairable(self, rest: tuple[Player, ...], memo: dict[tuple[int, ...], bool]) -> bool:
        if not rest:
            return True
        if len(rest) % 2:
            return False
        key = tuple(p.id for p in rest)
        if key not in memo:
            first, others = rest[0], rest[1:]
            memo[key] = any(
                self.may_meet(first, other)
                and self._pairable(tuple(p for p in others if p is not other), memo)
                for other in others
            )
        return memo[key]


def must_sit(player: Player) -> int | None:
    """The seat a player must have next (0 or 1) after two games more in the other, else None."""
    balance = player.firsts - player.seconds
    return 0 if balance <= -2 else 1 if balance >= 2 else None


def ranked(players: Iterable[Player]) -> list[Player]:
    return sorted(players, key=lambda p: (-p.score, p.number))


def choose_bye(players: Sequence[Player], search: _Search) -> Player | None:
    """The lowest-ranked player with no bye yet whose absence leaves the rest pairable."""
    order = ranked(players)
    for player in reversed(order):
        if not player.had_bye and search.pairable([p for p in order if p is not player]):
            return player
    for player in reversed(order):  # everyone had one: the lowest that leaves a pairing
        if search.pairable([p for p in order if p is not player]):
            return player
    return None


def pair_bracket(
    bracket: list[Player], below: list[Player], search: _Search
) -> tuple[list[tuple[Player, Player]], list[Player]] | None:
    """Pairs for a bracket (S1 against S2, transposed as needed) and the players it floats
    down, or None when no pairing of it leaves ``below`` and the floaters pairable."""
    half = len(bracket) // 2
    # Fewer pairs when needed: the last players float down.
    for pairs_wanted in range(half, -1, -1):
        s1, s2 = bracket[:pairs_wanted], bracket[pairs_wanted:]
        found = _transpose(s1, s2, [], search, below)
        if found is not None:
            return found
    return None


def _transpose(
    s1: list[Player],
    s2: list[Player],
    done: list[tuple[Player, Player]],
    search: _Search,
    below: list[Player],
) -> tuple[list[tuple[Player, Player]], list[Player]] | None:
    """S1's players in order, each taking the first S2 player allowed (lexicographic
    transpositions of S2, lazily); the rest of S2 floats down if the remainder pairs."""
    if not s1:
        if search.pairable([*s2, *below]):
            return done, s2
        return None
    top, rest = s1[0], s1[1:]
    for partner in s2:
        if search.may_meet(top, partner):
            found = _transpose(
                rest, [p for p in s2 if p is not partner], [*done, (top, partner)], search, below
            )
            if found is not None:
                return found
    return None


def matching(players: Sequence[Player], search: _Search) -> list[tuple[Player, Player]]:
    """Pairs for ``players`` (ranked order, each its first allowed partner), or [] if none."""
    if not players:
        return []
    top, rest = players[0], list(players[1:])
    for partner in rest:
        others = [p for p in rest if p is not partner]
        if search.may_meet(top, partner) and search.pairable(others):
            return [(top, partner), *matching(others, search)]
    return []


def seats(a: Player, b: Player, board: int) -> tuple[int, int]:
    """(first seat, second seat) for a pair, ``a`` ranked above ``b``; ``board`` counts from 0."""
    balance_a, balance_b = a.firsts - a.seconds, b.firsts - b.seconds
    if must_sit(a) is not None or must_sit(b) is not None:
        return (a.id, b.id) if must_sit(a) == 0 or must_sit(b) == 1 else (b.id, a.id)
    if balance_a != balance_b:
        return (a.id, b.id) if balance_a < balance_b else (b.id, a.id)
    if a.last_seat != b.last_seat and a.last_seat is not None and b.last_seat is not None:
        return (a.id, b.id) if a.last_seat == 1 else (b.id, a.id)
    if a.last_seat is not None:
        return (a.id, b.id) if a.last_seat == 1 else (b.id, a.id)
    return (a.id, b.id) if board % 2 == 0 else (b.id, a.id)


def pair_round(players: Sequence[Player]) -> Round:
    """The next round's pairings for the players still in the event."""
    met = {p.id: p.opponents for p in players}
    found = _pair_round(players, _Search(met))
    if found.pairs or len(players) < 2:
        return found
    return _pair_round(players, _Search(met, strict=False))


def _pair_round(players: Sequence[Player], search: _Search) -> Round:
    order = ranked(players)
    bye = None
    if len(order) % 2:
        chosen = choose_bye(order, search)
        if chosen is None:
            return Round([], None)
        bye = chosen.id
        order = [p for p in order if p is not chosen]
    if not search.pairable(order):
        # Everyone has met everyone they could: no round can be paired without a rematch.
        return Round([], bye)
    groups: list[list[Player]] = []
    for player in order:
        if groups and groups[-1][0].score == player.score:
            groups[-1].append(player)
        else:
            groups.append([player])
    pairs: list[tuple[Player, Player]] = []
    floaters: list[Player] = []
    for index, group in enumerate(groups):
        bracket = [*floaters, *group]
        below = [p for later in groups[index + 1 :] for p in later]
        found = pair_bracket(bracket, below, search)
        if found is None:  # cannot happen when the whole is pairable; kept as a guard
            floaters = bracket
            continue
        made, floaters = found
        pairs += made
    pairs += matching(floaters, search)  # the last group's leftovers, pairable by construction
    ordered = sorted(
        pairs, key=lambda pair: (-max(pair[0].score, pair[1].score), min(pair[0].number, pair[1].number))
    )
    return Round([seats(a, b, board) for board, (a, b) in enumerate(ordered)], bye)


@dataclass(frozen=True)
class Game:
    """A game played: who sat first and second and the first seat's result in half points
    (2 won, 1 drawn, 0 lost). A bye has ``second`` None."""

    first: int
    second: int | None
    first_points: int


def scores(games: Iterable[Game]) -> dict[int, int]:
    total: dict[int, int] = {}
    for game in games:
        total[game.first] = total.get(game.first, 0) + (BYE if game.second is None else game.first_points)
        if game.second is not None:
            total[game.second] = total.get(game.second, 0) + WIN - game.first_points
    return total


def tie_breaks(games: Sequence[Game]) -> dict[int, tuple[int, int]]:
    """(Buchholz, Sonneborn-Berger) per player, in half points (Sonneborn-Berger in quarter
    points: a draw adds half the opponent's score). A bye adds nothing to either."""
    total = scores(games)
    found: dict[int, list[int]] = {player: [0, 0] for player in total}
    for game in games:
        if game.second is None:
            continue
        for me, them, mine in (
            (game.first, game.second, game.first_points),
            (game.second, game.first, WIN - game.first_points),
        ):
            found[me][0] += total[them]
            found[me][1] += total[them] * mine  # a win counts the score twice, a draw once
    return {player: (values[0], values[1]) for player, values in found.items()}

"""Races: many joins at once, withdrawals during waves, waves run by several threads (and,
on PostgreSQL, by two processes) at once. Whatever the order: one entry per account, every
game has both seats taken, and no player is ever in two games of the tournament."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.db import close_old_connections, connection

from games.models import Game
from games.services.base import ServiceError
from tests.tournaments.helpers import tournament, user, win
from tournaments import pairing, services
from tournaments.models import Entry, Pairing, Tournament

ROOT = Path(__file__).resolve().parents[2]


def at_once(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run the jobs on threads released together; each one's result or refusal."""
    start = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(index: int, job: Callable[[], Any]) -> None:
        start.wait()
        try:
            results[index] = job()
        except ServiceError as exc:
            results[index] = exc.code
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def check_games(t: Tournament) -> None:
    """Every game has both seats taken; nobody is in two games in play; each entry's game is
    its one game in play."""
    playing: dict[int, int] = {}
    for p in Pairing.objects.filter(tournament=t, game__isnull=False):
        game = Game.objects.get(pk=p.game_id or 0)
        assert all(seat.player_id for seat in game.seat_list), "a one-seat game"
        if not p.done:
            for seated in (p.first_id, p.second_id):
                assert seated not in playing, f"entry {seated} in two games"
                playing[seated or 0] = p.game_id or 0
    for row in Entry.objects.filter(tournament=t):
        assert row.game_id == playing.get(row.pk), (row.pk, row.game_id, playing.get(row.pk))


def join_pk(tournament_id: int, player: Any) -> int:
    return services.join(tournament_id, player).pk


def withdraw_pk(tournament_id: int, player: Any) -> int:
    return services.withdraw(tournament_id, player).pk


def joins_at_once(count: int) -> None:
    t = tournament()
    players = [user(f"p{n}") for n in range(count)]
    jobs: list[Callable[[], Any]] = [partial(join_pk, t.pk, p) for p in players]
    jobs += [partial(join_pk, t.pk, p) for p in players[: count // 2]]  # joins twice
    results = at_once(jobs)
    assert all(isinstance(r, int) for r in results), results
    assert Entry.objects.filter(tournament=t).count() == count
    assert len(set(results)) == count


def waves_and_withdrawals(count: int, rounds: int) -> None:
    t = tournament(rated=False)
    players = [user(f"p{n}") for n in range(count)]
    for p in players:
        services.join(t.pk, p)
    for _ in range(rounds):
        jobs: list[Callable[[], Any]] = [partial(pairing.pair, t.pk) for _ in range(3)]
        jobs += [partial(withdraw_pk, t.pk, p) for p in players[: count // 3]]
        jobs += [partial(join_pk, t.pk, p) for p in players[count // 3 : count // 2]]
        at_once(jobs)
        check_games(t)
        for p in Pairing.objects.filter(tournament=t, done=False):  # end every game, rejoin all
            win(p.game_id or 0, 0)
        for p in players:
            services.join(t.pk, p)
        check_games(t)


@pytest.mark.django_db(transaction=True)
def test_many_joins_at_once_make_one_entry_each() -> None:
    joins_at_once(16)


@pytest.mark.django_db(transaction=True)
def test_waves_during_withdrawals_never_seat_one_player_nor_pair_anyone_twice() -> None:
    waves_and_withdrawals(12, 3)


def on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL)")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_many_joins_at_once_on_postgresql() -> None:
    on_postgresql()
    joins_at_once(24)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_waves_and_withdrawals_on_postgresql() -> None:
    on_postgresql()
    waves_and_withdrawals(16, 3)


PAIRER = """
import os, sys, django
django.setup()
from tournaments import pairing
sys.stdin.readline()  # released together
made = sum(pairing.pair(int(sys.argv[1])) for _ in range(30))
print(made)
"""


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_processes_pairing_one_arena_never_pair_a_player_twice() -> None:
    on_postgresql()
    t = tournament(rated=False)
    players = [user(f"p{n}") for n in range(20)]
    for p in players:
        services.join(t.pk, p)
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "quarto_site.settings"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", PAIRER, str(t.pk)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    withdrawn = at_once([partial(withdraw_pk, t.pk, p) for p in players[:4]])
    made = [int(proc.communicate(timeout=120)[0].strip().splitlines()[-1]) for proc in procs]
    assert all(isinstance(w, int) for w in withdrawn)
    check_games(t)
    assert sum(made) == Pairing.objects.filter(tournament=t).count() <= 10

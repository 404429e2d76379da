"""A Swiss event in real browsers: five accounts, each in a browser context of its own,
join from the tournament's page; three rounds are played on the game pages (two games a
round, a bye for the fifth), and a visitor watching the tournament's page sees each round,
the scores and the tie-breaks arrive live (a round is paired, and its bye scored, as soon
as the last game of the round before ends). Nobody meets the same opponent twice and nobody
gets two byes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ROOT, Processes, embedded_env
from .pages import TIMEOUT, one_move_then_resign, watch_for_errors
from .test_tournament_arena import PASSWORD, logged_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]
NAMES = ("eve", "fay", "gus", "hal", "ida")

SEED = f"""
from django.contrib.auth.models import User
from accounts.services import account_of
from tournaments import services
staff = User.objects.create_user("boss", is_staff=True)
for name in {NAMES!r}:
    account_of(User.objects.create_user(name, password={PASSWORD!r}))
services.create(staff, kind="swiss", game="tictactoe", clock={{"initial": 180, "increment": 2}}, rounds=3,
                starts_in=3600, name="Browser Swiss")
"""
START = """
from django.utils import timezone
from tournaments.models import Tournament
Tournament.objects.filter(name="Browser Swiss").update(starts_at=timezone.now())
"""
PAIRINGS = """
import json
from tournaments.models import Pairing
print(json.dumps([
    [p.round, p.first.user.username, p.second.user.username if p.second else None, p.game_id]
    for p in Pairing.objects.filter(tournament__name="Browser Swiss").order_by("round", "pk")
]))
"""


@pytest.fixture(scope="module")
def swiss_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Processes]]:
    folder = tmp_path_factory.mktemp("swiss")
    processes = Processes(folder, embedded_env(folder, {"TOURNAMENT_TICK": "0.5"}))
    processes.migrate()
    processes.manage("shell", "-c", SEED)
    url = processes.daphne("daphne")
    try:
        yield url, processes
    finally:
        processes.stop()


def pairings(processes: Processes, round_: int) -> list[list[Any]]:
    shell = [sys.executable, "manage.py", "shell", "-c", PAIRINGS]
    done = subprocess.run(shell, cwd=ROOT, env=processes.env, capture_output=True, text=True, check=True)
    printed = done.stdout.strip().splitlines()[-1]
    return [row for row in json.loads(printed) if row[0] == round_]


def test_five_accounts_play_three_swiss_rounds_with_a_bye(
    swiss_server: tuple[str, Processes], browser: Any
) -> None:
    server, processes = swiss_server
    players = {name: logged_in(browser, server, name) for name in NAMES}
    watcher = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    errors = watch_for_errors({**players, "watcher": watcher})
    watcher.goto(server + "/tournaments/")
    watcher.locator("a", has_text="Browser Swiss").click()
    watcher.wait_for_url("**/tournaments/*/", timeout=TIMEOUT)
    tournament = watcher.url
    for name, page in players.items():
        page.goto(tournament)
        page.get_by_role("button", name="Join").click()
        watcher.wait_for_selector(f"tr[data-player='{name}']", timeout=TIMEOUT)  # pushed live
    assert watcher.locator("abbr[title='Buchholz']").count() == 1

    processes.manage("shell", "-c", START)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    wins = dict.fromkeys(NAMES, 0)
    for round_ in (1, 2, 3):
        watcher.locator(".tournament__status", has_text=f"Round {round_} of 3").wait_for(timeout=TIMEOUT)
        rows = pairings(processes, round_)
        assert len(rows) == 3, rows
        (bye,) = [first for _, first, second, _ in rows if second is None]
        byes.append(bye)
        wins[bye] += 1  # a bye scores a win
        for _, first, second, game_id in rows:
            if second is None:
                continue
            pair = frozenset((first, second))
            assert pair not in met, f"{first} and {second} meet twice"
            met.add(pair)
            for name in pair:
                players[name].goto(f"{server}/games/{game_id}/")
            winner = one_move_then_resign(players[first], players[second])
            wins[next(name for name in pair if players[name] is winner)] += 1
    assert len(set(byes)) == 3, f"two byes for one player: {byes}"
    watcher.locator(".tournament__status", has_text="Finished").wait_for(timeout=TIMEOUT)
    for name, won in wins.items():  # the final scores, pushed to the watcher
        watcher.wait_for_selector(
            f"tr[data-player='{name}'] .standings__score[data-score='{won}']", timeout=TIMEOUT
        )
    first = watcher.locator(".podium__step--1 .podium__name").inner_text()
    assert wins[first] == max(wins.values()), (first, wins)
    assert not errors, errors

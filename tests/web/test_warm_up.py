"""The computer's compiled search is built before the site's address is given
(``manage.py warm_up``, run by scripts/serve), and a page says so while a server's
computer is still getting ready."""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games import catalog
from games.management.commands import warm_up as warm_up_command
from games.runner import readiness
from games.runner.turns import Runner
from games.services import moves as services

from .test_ai_runner import Immediate

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
NOTE = "The computer is getting ready"


def test_the_command_builds_every_games_search_and_says_how_long(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []

    def warm_up(player: catalog.Player) -> float:
        built.append(player.module_name)
        return 0.25

    monkeypatch.setattr(catalog.Player, "warm_up", warm_up)
    out = io.StringIO()
    call_command("warm_up", jobs=1, stdout=out)
    players = {spec.player.module_name for spec in catalog.CATALOG.values() if spec.player}
    assert set(built) == players and len(built) == len(players)
    assert "The computer is ready" in out.getvalue() and "s)" in out.getvalue()


def test_the_command_builds_the_games_searches_side_by_side(monkeypatch: pytest.MonkeyPatch) -> None:
    pools: list[int] = []

    class InProcess:
        """A process pool's part the command uses, in this process (the patch reaches it)."""

        def __init__(self, workers: int, mp_context: Any) -> None:
            pools.append(workers)

        def __enter__(self) -> InProcess:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def map(self, build: Any, names: Any) -> list[Any]:
            return [build(name) for name in names]

    monkeypatch.setattr(warm_up_command, "ProcessPoolExecutor", InProcess)
    monkeypatch.setattr(catalog.Player, "warm_up", lambda player: 0.5)
    out = io.StringIO()
    call_command("warm_up", jobs=8, verbosity=2, stdout=out)
    players = {spec.player.module_name for spec in catalog.CATALOG.values() if spec.player}
    assert pools == [len(players)]  # never more processes than searches to build
    assert all(f"{name}: 0.50 s" in out.getvalue() for name in players)


def test_serve_says_each_step_and_keeps_its_probes_out_of_the_access_log() -> None:
    script = (ROOT / "scripts" / "serve").read_text()
    steps = [
        script.index(f'say "{step}') for step in ("Checking", "Building", "Preparing", "Starting", "Ready")
    ]
    assert steps == sorted(steps)
    drop = re.search(r"grep --line-buffered -v '([^']+)'", script)
    assert drop, "daphne's access log filtered"
    assert "PYTHONUNBUFFERED=1 .venv/bin/daphne" in script  # each line as it comes, through the pipe
    lines = [
        '127.0.0.1:40824 - - [27/Nov/2026:08:59:03] "GET /healthz?computer" 503 29',
        '127.0.0.1:40824 - - [27/Nov/2026:08:59:04] "GET /healthz" 200 52',
        '127.0.0.1:40824 - - [27/Nov/2026:08:59:04] "GET /games/1/" 200 3096',
    ]
    kept = subprocess.run(
        ["grep", "-v", drop.group(1)], input="\n".join(lines), capture_output=True, text=True
    ).stdout.splitlines()
    assert kept == lines[1:]


def test_serve_builds_the_search_and_waits_for_the_computer_before_it_gives_the_address() -> None:
    script = (ROOT / "scripts" / "serve").read_text()
    address = script.index("is running: open")
    assert script.index("manage.py warm_up") < address
    assert script.index("/healthz?computer") < address < script.rindex("wait ")


def test_healthz_asked_about_the_computer_says_whether_it_is_ready(settings: Any, client: Client) -> None:
    settings.AI_WARM_UP = True
    readiness.reset()
    assert client.get("/healthz").status_code == 200  # the process and database answer
    waiting = client.get("/healthz?computer")
    assert waiting.status_code == 503 and waiting.content == b"the computer is getting ready"
    with readiness.warming_up():
        assert client.get("/healthz?computer").status_code == 503
    ready = client.get("/healthz?computer")
    assert ready.status_code == 200 and ready.json()["status"] == "ok"
    readiness.reset()
    settings.AI_WARM_UP = False  # nothing to wait for
    assert client.get("/healthz?computer").status_code == 200


def test_the_page_says_the_computer_is_getting_ready_while_it_warms_up(no_ai_reply: None) -> None:
    created = services.create_game("quarto", {}, opponent="ai", level="casual", seat="second", player_id="p")
    game = created.game
    client = Client()
    session = client.session
    session["player_id"] = "p"
    session.save()
    with readiness.warming_up():
        assert readiness.getting_ready()
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert NOTE in page
    assert not readiness.getting_ready()
    assert NOTE not in client.get(f"/games/{game.pk}/").content.decode()


def test_a_starting_server_is_getting_ready_until_its_warm_up_ends(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.AI_WARM_UP = True
    seen: list[bool] = []

    def warm_up() -> float:
        seen.append(readiness.getting_ready())
        return 0.0

    monkeypatch.setattr(catalog, "warm_up", warm_up)
    fresh = Runner()
    monkeypatch.setattr(fresh, "executor", lambda: Immediate())
    monkeypatch.setattr("games.runner.turns.gate.executor", lambda: Immediate())

    async def start() -> None:
        fresh.bind(asyncio.get_running_loop())
        for _ in range(200):
            await asyncio.sleep(0.01)
            if len(seen) == 2:
                return

    asyncio.run(start())
    assert seen[0] is True and not readiness.getting_ready()


def test_waiting_for_the_computer_is_not_logged_as_an_error(
    settings: Any, client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    settings.AI_WARM_UP = True
    readiness.reset()
    with caplog.at_level("WARNING", logger="django.request"):
        assert client.get("/healthz?computer").status_code == 503
    assert caplog.records == []  # scripts/serve asks several times a second while it waits

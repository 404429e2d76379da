"""The computer's compiled search is built before the site's address is given
(``manage.py warm_up``, run by scripts/serve), and a page says so while a server's
computer is still getting ready."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games import catalog
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
    call_command("warm_up", stdout=out)
    players = {spec.player.module_name for spec in catalog.CATALOG.values() if spec.player}
    assert set(built) == players and len(built) == len(players)
    assert "The computer is ready" in out.getvalue() and "s)" in out.getvalue()


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

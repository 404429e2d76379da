"""A release's migration that adds columns is applied while the old code serves.

The release order in docs/deployment.md is: ``manage.py migrate`` with the new code, then
restart the server processes one at a time. Between the two, the old processes serve on
the new schema. Here a Daphne process of the current code serves pages, games and moves
through the API without pause while ``migrate`` (the release's, with its own
MIGRATION_MODULES) adds to ``games_game`` a nullable column and a NOT NULL one with a
database default; the old process's inserts then fill both by themselves.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

RELEASE_MIGRATION = """from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "{latest}")]
    operations = [
        migrations.AddField("game", "release_note", models.CharField(max_length=40, null=True, blank=True)),
        migrations.AddField("game", "release_views", models.IntegerField(db_default=0)),
    ]
"""


def release(folder: Path) -> dict[str, str]:
    """The next release's migrations for ``games``: today's and one that adds two columns."""
    package = folder / "games_migrations_next"
    package.mkdir(parents=True)
    current = sorted((ROOT / "games" / "migrations").glob("[0-9]*.py"))
    for path in [ROOT / "games" / "migrations" / "__init__.py", *current]:
        (package / path.name).write_text(path.read_text())
    number = int(current[-1].name[:4]) + 1
    (package / f"{number:04d}_release_columns.py").write_text(
        RELEASE_MIGRATION.format(latest=current[-1].stem)
    )
    settings = "from quarto_site.settings import *  # noqa: F403\n"
    settings += 'MIGRATION_MODULES = {"games": "games_migrations_next"}\n'
    (folder / "release_settings.py").write_text(settings)
    return {"PYTHONPATH": str(folder), "DJANGO_SETTINGS_MODULE": "release_settings"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(url: str, body: dict[str, Any] | None = None, token: str = "") -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if data is None else "POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            status = response.status
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()
    return status, json.loads(text) if response.headers.get_content_type() == "application/json" else text


def one_game(base: str) -> list[int]:
    """Create a game between two API clients, play two moves and open its page: the statuses."""
    status, made = call(f"{base}/api/v1/games", {"game": "tictactoe", "opponent": "human", "seat": "first"})
    if status != 201:
        return [status]
    game = made["id"]
    joined_status, joined = call(f"{base}/api/v1/games/{game}/join", {"invite": made["invite"]})
    statuses = [status, joined_status]
    for ply, (token, move) in enumerate(((made["token"], "a1"), (joined["token"], "b1"))):
        statuses.append(call(f"{base}/api/v1/games/{game}/moves", {"move": move, "ply": ply}, token)[0])
    statuses.append(call(f"{base}/games/{game}/")[0])
    return statuses


class Player(threading.Thread):
    """Plays games against the old process until told to stop; when each ended."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.done: list[tuple[float, list[int]]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.done.append((time.monotonic(), one_game(self.base)))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server_env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The old process's environment on SQLite, or on a PostgreSQL database of its own."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    limits = ("RATE_LIMIT_CREATE", "RATE_LIMIT_MOVE", "API_RATE_LIMIT")
    env.update(dict.fromkeys(limits, "100000/minute"), AI_WARM_UP="0", AI_PROCESSES="0")
    env.update(SQLITE_PATH=str(tmp_path / "site.sqlite3"), DJANGO_SETTINGS_MODULE="quarto_site.settings")
    if request.param == "sqlite":
        yield env
        return
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("needs DATABASE_URL (PostgreSQL)")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    name = f"release_test_{secrets.token_hex(4)}"
    subprocess.run(["psql", admin, "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    try:
        yield {**env, "DATABASE_URL": url.rsplit("/", 1)[0] + f"/{name}"}
    finally:
        drop = f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"
        subprocess.run(["psql", admin, "-c", drop], check=True, capture_output=True)


def newest_rows(env: dict[str, str]) -> list[tuple[Any, ...]]:
    sql = "SELECT release_note, release_views, ply FROM games_game ORDER BY id DESC LIMIT 3"
    if "DATABASE_URL" not in env:
        with sqlite3.connect(env["SQLITE_PATH"]) as db:
            return list(db.execute(sql))
    out = subprocess.run(
        ["psql", env["DATABASE_URL"], "-Atc", sql], check=True, capture_output=True, text=True
    )
    return [
        (note or None, int(views), int(ply))
        for note, views, ply in (line.split("|") for line in out.stdout.split())
    ]


@pytest.fixture
def old_server(server_env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=server_env, check=True)
    port = free_port()
    with open(tmp_path / "daphne.log", "w") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "quarto_site.asgi:application",
            ],
            cwd=ROOT,
            env=server_env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "daphne.log").read_text()
            try:
                if call(f"{base}/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_old_process_serves_while_a_release_adds_columns(
    old_server: str, server_env: dict[str, str], tmp_path: Path
) -> None:
    player = Player(old_server)
    player.start()
    try:
        while len(player.done) < 3:  # playing before the release
            time.sleep(0.05)
        started = time.monotonic()
        env = {**server_env, **release(tmp_path / f"release-{secrets.token_hex(3)}")}
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "games"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        finished = time.monotonic()
        assert migrate.returncode == 0, migrate.stdout + migrate.stderr
        assert "_release_columns... OK" in migrate.stdout
        while sum(ended > finished for ended, _ in player.done) < 3:  # and after it
            time.sleep(0.05)
    finally:
        player.stop.set()
        player.join(60)

    during = [statuses for ended, statuses in player.done if started < ended <= finished]
    after = [statuses for ended, statuses in player.done if ended > finished]
    assert during and after, f"games during the release: {len(during)}, after: {len(after)}"
    every = [status for _, statuses in player.done for status in statuses]
    assert set(every) == {200, 201}, every  # made, joined, moved, page shown: never an error

    # The old code's new rows, written without knowing the columns, have their defaults.
    assert newest_rows(server_env) == [(None, 0, 2)] * 3

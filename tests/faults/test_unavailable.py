"""The database down while serving a page: a clear 503 with ``Retry-After``, not a 500."""

from __future__ import annotations

import os
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse

from ..e2e.conftest import Processes

MESSAGE = "The site&#x27;s database is unavailable; try again in a moment."


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every query fails as it does when the server is unreachable."""
    from django.db.backends.utils import CursorWrapper

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", refuse)
    monkeypatch.setattr(CursorWrapper, "executemany", refuse)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/games/1/", "/games/history"])
def test_a_page_answers_503_while_the_database_is_down(client: Any, database_down: None, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert MESSAGE in page and '<meta http-equiv="refresh" content="5">' in page
    assert "Content-Security-Policy" in response  # still through every middleware


def test_a_form_post_answers_503_without_refreshing_itself(rf: Any) -> None:
    from quarto_site.unavailable import DatabaseUnavailableMiddleware

    middleware = DatabaseUnavailableMiddleware(HttpResponse)
    response = middleware.process_exception(rf.post("/games/new"), OperationalError("down"))
    assert response is not None and response.status_code == 503
    assert MESSAGE in response.content.decode() and "http-equiv" not in response.content.decode()


@pytest.mark.django_db
def test_healthz_answers_503_while_the_database_is_down(client: Any, database_down: None) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503 and response["Retry-After"] == "5"


@pytest.mark.django_db
@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_view_whose_query_fails_answers_503(
    client: Any, monkeypatch: pytest.MonkeyPatch, error: type
) -> None:
    from games.models import Game

    class Down:
        def exists(self) -> bool:
            raise error("server closed the connection unexpectedly")

    monkeypatch.setattr(Game, "objects", Down())
    response = client.get("/healthz")
    assert response.status_code == 503 and MESSAGE in response.content.decode()


def test_other_errors_still_reach_the_500_handler(rf: Any) -> None:
    from quarto_site.unavailable import DatabaseUnavailableMiddleware

    middleware = DatabaseUnavailableMiddleware(HttpResponse)
    assert middleware.process_exception(rf.get("/"), ValueError("boom")) is None


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again on leaving: nothing listens there


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=f"postgres://postgres@127.0.0.1:{closed_port()}/quarto", AI_WARM_UP="0")
    env.update(DATABASE_POOL_TIMEOUT="1")  # how long a request waits for a connection
    procs = Processes(tmp_path, env)
    try:
        yield procs
    finally:
        procs.stop()


def fetch(url: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


@pytest.mark.slow
def test_a_real_server_whose_database_is_unreachable_answers_503(processes: Processes) -> None:
    web = processes.daphne("daphne")
    for path in ("/", "/healthz"):
        status, headers, page = fetch(web + path)
        assert status == 503 and headers["Retry-After"] == "5", (path, status, page[:500])
        assert MESSAGE in page
    status, headers, body = fetch(web + "/api/v1/games/1")
    assert status == 503 and '"unavailable"' in body
